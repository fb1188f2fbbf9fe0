package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.START;
import static io.ankusa.store.conformance.queue.LayoutAssertions.THREAD_WAIT_SECONDS;
import static io.ankusa.store.conformance.queue.LayoutAssertions.assertCountersEqualFold;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.ReadView;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the writer's cases ({@link WriterCases}, {@link WriterRefusalCases}) share: their requests,
 * the waits for the writer's threads (bounded by {@link LayoutAssertions#THREAD_WAIT_SECONDS},
 * never a sleep), and the checks of a store the writer wrote.
 */
final class WriterChecks {
  private WriterChecks() {}

  /**
   * A request of {@code tenant} (null: default) with a unique hook id, received at {@code START}.
   */
  static IngestRequest request(String tenant, String idempotencyKey, int... sinks) {
    List<Integer> s = new ArrayList<>();
    for (int sink : sinks) {
      s.add(sink);
    }
    return new IngestRequest(
        tenant,
        "src",
        UUID.randomUUID().toString(),
        idempotencyKey,
        START,
        s,
        ("payload of " + tenant).getBytes(StandardCharsets.UTF_8));
  }

  static IngestResult await(CompletableFuture<IngestResult> f) {
    try {
      return f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("no ingest answer within " + THREAD_WAIT_SECONDS + " s: " + e, e);
    }
  }

  /**
   * Waits (yielding, no sleep) until {@code condition} holds: for a state the writer's threads
   * reach without a hook to wait on. Fails after {@link LayoutAssertions#THREAD_WAIT_SECONDS}.
   */
  static void awaitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(THREAD_WAIT_SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not reached within " + THREAD_WAIT_SECONDS + " s: " + what);
      }
      Thread.yield();
    }
  }

  /** The seqs of every hook envelope in the store. */
  static TreeSet<Long> storedSeqs(ReadView view) {
    TreeSet<Long> seqs = new TreeSet<>();
    CounterFold.foldFamily(
        view, KeyFamily.HOOK, e -> seqs.add(HookEnvelope.decode(e.value()).seq()));
    return seqs;
  }

  static void assertClean(ReadView view, String when) {
    assertCountersEqualFold(view, when);
    assertThat(QueueVerifier.verify(view)).as("%s: the verifier finds nothing", when).isEmpty();
  }
}
