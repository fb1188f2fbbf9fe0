package io.ankusa.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.StoreException;
import io.grpc.Status;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Which failures a read or a retried write asks again about ({@link EtcdCalls#passing}): the ones a
 * new leader or a member coming back cures, never a refusal. A member killed under an open channel
 * answers "UNKNOWN: channel closed" caused by a closed channel; read as final, it failed the
 * reclaim loop of a runtime whose cluster had lost two of three members, where the next try would
 * have reached a live one.
 */
class PassingFailureTest {
  private static StoreException readFailure(Throwable cause) {
    return EtcdCalls.mapped(cause, EtcdCalls.Kind.READ, "a read", "http://127.0.0.1:1");
  }

  @Test
  void aClosedChannelNoLeaderAndNoAnswerPass() {
    assertThat(
            EtcdCalls.passing(
                readFailure(
                    Status.UNKNOWN
                        .withDescription("channel closed")
                        .withCause(new ClosedChannelException()) // as jetcd reports it
                        .asRuntimeException())))
        .isTrue();
    assertThat(
            EtcdCalls.passing(
                readFailure(
                    Status.UNAVAILABLE.withDescription("io exception").asRuntimeException())))
        .isTrue();
    assertThat(
            EtcdCalls.passing(
                readFailure(
                    Status.UNKNOWN
                        .withDescription("etcdserver: leader changed")
                        .asRuntimeException())))
        .isTrue();
    assertThat(EtcdCalls.passing(readFailure(new TimeoutException()))).isTrue();
  }

  @Test
  void aRefusalDoesNotPass() {
    assertThat(
            EtcdCalls.passing(
                readFailure(
                    Status.INVALID_ARGUMENT
                        .withDescription("etcdserver: too many operations in txn request")
                        .asRuntimeException())))
        .isFalse();
    assertThat(
            EtcdCalls.passing(
                readFailure(Status.UNKNOWN.withDescription("something else").asRuntimeException())))
        .isFalse();
  }
}
