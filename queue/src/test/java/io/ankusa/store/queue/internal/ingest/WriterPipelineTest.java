package io.ankusa.store.queue.internal.ingest;

import static io.ankusa.store.queue.internal.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.tenant.Tenants;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pipeline between writer and syncer on the memory backend: many threads seeing a new tenant at
 * once get one ordinal, and under load one sync answers many groups. The writer's promises for
 * every backend (acks after the sync, group bounds, overload, close, fences) are the conformance
 * suite's {@code WriterCases} and {@code WriterRefusalCases}.
 */
class WriterPipelineTest {
  private final WriterFixture fx = new WriterFixture();

  @AfterEach
  void close() {
    fx.close();
  }

  @Test
  void aNewTenantSeenByManyThreadsAtOnceGetsOneOrdinal() throws Exception {
    int threads = 16;
    int each = 50;
    try (QueueWriter writer =
        QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(8))) {
      CyclicBarrier barrier = new CyclicBarrier(threads);
      List<CompletableFuture<IngestResult>> futures = new CopyOnWriteArrayList<>();
      List<Thread> producers =
          IntStream.range(0, threads)
              .mapToObj(
                  p ->
                      new Thread(
                          () -> {
                            try {
                              barrier.await();
                            } catch (Exception e) {
                              throw new AssertionError(e);
                            }
                            for (int i = 0; i < each; i++) {
                              futures.add(writer.ingest(request("brand-new", null, 1)));
                            }
                          }))
              .toList();
      producers.forEach(Thread::start);
      for (Thread t : producers) {
        t.join();
      }
      assertThat(futures).hasSize(threads * each);
      assertThat(futures.stream().map(WriterFixture::await))
          .allMatch(r -> r.outcome() == Outcome.CREATED);
      assertThat(writer.stats().groups()).isGreaterThan(1);
    }
    assertThat(Tenants.ord(fx.store, TenantId.of("brand-new"))).hasValue(1);
    assertThat(Tenants.nextOrdinal(fx.store)).isEqualTo(2);
    assertThat(fx.queue.counters().read(fx.store, 1).pending()).isEqualTo(threads * each);
    assertClean(fx.store);
  }

  @Test
  void underLoadOneSyncAnswersManyGroups() throws Exception {
    fx.store.syncDelay(1_000_000); // a 1 ms fsync
    int producers = 8;
    int each = 1_000;
    try (QueueWriter writer =
        QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(16))) {
      List<CompletableFuture<IngestResult>> futures = new CopyOnWriteArrayList<>();
      List<Thread> threads =
          IntStream.range(0, producers)
              .mapToObj(
                  p ->
                      new Thread(
                          () -> {
                            for (int i = 0; i < each; i++) {
                              futures.add(writer.ingest(request("t" + (i % 10), null, 1)));
                            }
                          }))
              .toList();
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(futures.stream().map(WriterFixture::await))
          .allMatch(r -> r.outcome() == Outcome.CREATED);
      WriterStats stats = writer.stats();
      assertThat(stats.hooks()).isEqualTo(producers * each);
      assertThat(stats.syncs()).as("syncs < groups: %s", stats).isLessThan(stats.groups());
    }
    assertClean(fx.store);
  }

  /**
   * At its bound of applied but unsynced hooks, with requests queued, the writer parks until the
   * syncer moves {@code durableSeq}: it does not spin over the queued requests while a slow disk
   * syncs. A writer that spins is always running, so it never reaches TIMED_WAITING.
   */
  @Test
  void aWriterAtItsUnsyncedBoundWaitsForTheSyncInsteadOfSpinning() throws Exception {
    WriterConfig config = WriterConfig.defaults().withQueueCapacity(4).withMaxGroupHooks(1);
    try (QueueWriter writer = QueueWriter.start(fx.queue, config)) {
      fx.store.holdSyncs(); // after start, whose own sync must pass
      List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          futures.add(writer.ingest(request("t", null, 1)));
        }
        fx.store.awaitHeldSync();
        eventually(
            "four hooks applied behind the held sync", () -> writer.stats().appliedSeq() == 4);
        futures.add(writer.ingest(request("t", null, 1)));
        futures.add(writer.ingest(request("t", null, 1)));
        Thread writerThread =
            Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(QueueWriter.WRITER_THREAD) && t.isAlive())
                .findFirst()
                .orElseThrow();
        eventually(
            "the writer parked while requests wait behind its bound",
            () -> writerThread.getState() == Thread.State.TIMED_WAITING);
        assertThat(writer.stats().appliedSeq()).as("nothing applied past the bound").isEqualTo(4);
      } finally {
        fx.store.openSyncGate(); // also when an assertion failed, so the writer can close
      }
      assertThat(futures.stream().map(WriterFixture::await))
          .allMatch(r -> r.outcome() == Outcome.CREATED);
      assertThat(writer.stats().durableSeq()).isEqualTo(6);
    }
    assertClean(fx.store);
  }
}
