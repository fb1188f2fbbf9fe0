package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A store whose next {@code syncWal()}, once armed, waits until released (and then fails, if
 * asked): a disk slow, or refusing, to make the writer's group durable.
 */
final class HeldSyncStore extends ForwardingStore {
  final StoreWriteFailedException injected =
      new StoreWriteFailedException("WAL sync refused by the conformance suite");

  /** The gate the next sync waits at, taken by that sync. */
  private volatile CountDownLatch held;

  private volatile CountDownLatch gate;
  private volatile CountDownLatch entered = new CountDownLatch(1);
  private volatile boolean failHeld;
  private volatile boolean failNext;

  HeldSyncStore(Store delegate) {
    super(delegate);
  }

  void holdNextSync() {
    entered = new CountDownLatch(1);
    gate = new CountDownLatch(1);
    held = gate;
  }

  void failNextSync() {
    failNext = true;
  }

  void awaitHeldSync() throws InterruptedException {
    assertThat(entered.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS))
        .as("the writer's sync reached the store")
        .isTrue();
  }

  void release(boolean fail) {
    failHeld = fail;
    CountDownLatch h = gate;
    if (h != null) {
      h.countDown();
    }
  }

  @Override
  public void syncWal() {
    if (failNext) {
      failNext = false;
      throw injected;
    }
    CountDownLatch h = held;
    if (h != null) {
      held = null;
      entered.countDown();
      try {
        h.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (failHeld) {
        throw injected;
      }
    }
    delegate.syncWal();
  }
}
