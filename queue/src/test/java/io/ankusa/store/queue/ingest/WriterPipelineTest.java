package io.ankusa.store.queue.ingest;

import static io.ankusa.store.queue.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.ingest.WriterFixture.await;
import static io.ankusa.store.queue.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.ingest.WriterFixture.request;
import static io.ankusa.store.queue.ingest.WriterFixture.storedSeqs;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.counter.TenantCounts;
import io.ankusa.store.queue.ingest.IngestResult.Outcome;
import io.ankusa.store.queue.tenant.Tenants;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pipeline between writer and syncer: nothing answered before its sync, bounded memory, one ordinal. */
class WriterPipelineTest {
  private final WriterFixture fx = new WriterFixture();

  @AfterEach
  void close() {
    fx.close();
  }

  @Test
  void aDuplicateOfAnUnsyncedHookWaitsForItsSync() throws Exception {
    // Resources close in reverse: the gate opens before the writer drains, even when an assertion fails.
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults());
        AutoCloseable openGate = fx.store::openSyncGate) {
      fx.store.holdSyncs();
      CompletableFuture<IngestResult> original = writer.ingest(request("acme", "key", 1, 2));
      fx.store.awaitHeldSync();
      // The original's group is applied (visible to readers) but its sync is held.
      assertThat(writer.appliedSeq()).isEqualTo(1);
      assertThat(writer.durableSeq()).as("durableSeq moves only when the sync returns").isZero();
      assertThat(storedSeqs(fx.store)).containsExactly(1L);
      TenantCounts afterOriginal = fx.queue.counters().aggregate(fx.store);
      CompletableFuture<IngestResult> duplicate = writer.ingest(request("acme", "key", 3));
      eventually("the writer answered the duplicate", () -> writer.stats().duplicates() == 1);
      assertThat(original).as("CREATED only after the sync").isNotDone();
      assertThat(duplicate).as("a duplicate of an unsynced hook waits for that hook's sync").isNotDone();

      fx.store.openSyncGate();
      assertThat(await(original)).isEqualTo(IngestResult.created(1));
      assertThat(await(duplicate)).isEqualTo(IngestResult.duplicate(1));
      assertThat(await(writer.ingest(request("acme", "key", 4)))).isEqualTo(IngestResult.duplicate(1));
      assertThat(fx.queue.counters().aggregate(fx.store)).isEqualTo(afterOriginal);
      assertThat(writer.durableSeq()).isEqualTo(1);
    }
    assertClean(fx.store);
  }

  @Test
  void requestsOfOneGroupDedupeAgainstEachOther() throws Exception {
    // Fill the pipeline (4 hooks applied, sync held) so the writer stops draining, queue the burst,
    // then release: the burst is drained as ONE group.
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withQueueCapacity(4));
        AutoCloseable openGate = fx.store::openSyncGate) {
      fx.store.holdSyncs();
      List<CompletableFuture<IngestResult>> fill = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        fill.add(writer.ingest(request("fill", null, 1)));
      }
      eventually("the pipeline is full", () -> writer.stats().hooks() == 4);
      long groupsBefore = writer.stats().groups();
      List<CompletableFuture<IngestResult>> burst = List.of(
          writer.ingest(request("acme", "k", 1)),
          writer.ingest(request("acme", "k", 2)),
          writer.ingest(request("globex", "k", 1)),
          writer.ingest(request("acme", "k", 3)));
      assertThat(burst).noneMatch(CompletableFuture::isDone);
      fx.store.openSyncGate();
      List<IngestResult> r = burst.stream().map(WriterFixture::await).toList();
      fill.forEach(f -> assertThat(await(f).outcome()).isEqualTo(Outcome.CREATED));
      assertThat(writer.stats().groups()).as("the burst was one group").isEqualTo(groupsBefore + 1);
      assertThat(r.get(0)).isEqualTo(IngestResult.created(5));
      assertThat(r.get(1)).isEqualTo(IngestResult.duplicate(5));
      assertThat(r.get(2)).isEqualTo(IngestResult.created(6));
      assertThat(r.get(3)).isEqualTo(IngestResult.duplicate(5));
    }
    assertThat(storedSeqs(fx.store)).hasSize(6);
    assertClean(fx.store);
  }

  @Test
  void aNewTenantSeenByManyThreadsAtOnceGetsOneOrdinal() throws Exception {
    int threads = 16;
    int each = 50;
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(8))) {
      CyclicBarrier barrier = new CyclicBarrier(threads);
      List<CompletableFuture<IngestResult>> futures = new CopyOnWriteArrayList<>();
      List<Thread> producers = IntStream.range(0, threads).mapToObj(p -> new Thread(() -> {
        try {
          barrier.await();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        for (int i = 0; i < each; i++) {
          futures.add(writer.ingest(request("brand-new", null, 1)));
        }
      })).toList();
      producers.forEach(Thread::start);
      for (Thread t : producers) {
        t.join();
      }
      assertThat(futures).hasSize(threads * each);
      assertThat(futures.stream().map(WriterFixture::await)).allMatch(r -> r.outcome() == Outcome.CREATED);
      assertThat(writer.stats().groups()).isGreaterThan(1);
    }
    assertThat(Tenants.ord(fx.store, TenantId.of("brand-new"))).hasValue(1);
    assertThat(Tenants.nextOrdinal(fx.store)).isEqualTo(2);
    assertThat(fx.queue.counters().read(fx.store, 1).pending()).isEqualTo(threads * each);
    assertClean(fx.store);
  }

  @Test
  void aFullQueueAnswersOverloadedAtOnce() throws Exception {
    WriterConfig tiny = WriterConfig.defaults().withQueueCapacity(2).withMaxGroupHooks(1);
    try (QueueWriter writer = QueueWriter.start(fx.queue, tiny);
        AutoCloseable openGate = fx.store::openSyncGate) {
      fx.store.holdSyncs();
      List<CompletableFuture<IngestResult>> accepted = new ArrayList<>();
      int overloaded = 0;
      for (int i = 0; i < 50; i++) {
        CompletableFuture<IngestResult> f = writer.ingest(request("t", null, 1));
        if (f.isDone()) {
          assertThat(f.join()).isEqualTo(IngestResult.unavailable(IngestResult.OVERLOADED));
          overloaded++;
        } else {
          accepted.add(f);
        }
      }
      // At most 2 applied and waiting for the sync, 2 queued (and one group the writer holds).
      assertThat(accepted.size()).isBetween(2, 5);
      assertThat(overloaded).isEqualTo(50 - accepted.size());
      assertThat(writer.appliedSeq() - writer.durableSeq()).isLessThanOrEqualTo(2 + 1);
      fx.store.openSyncGate();
      assertThat(accepted.stream().map(WriterFixture::await)).allMatch(r -> r.outcome() == Outcome.CREATED);
      assertThat(await(writer.ingest(request("t", null, 1))).outcome()).isEqualTo(Outcome.CREATED);
    }
    assertClean(fx.store);
  }

  @Test
  void underLoadOneSyncAnswersManyGroups() throws Exception {
    fx.store.syncDelay(1_000_000); // a 1 ms fsync
    int producers = 8;
    int each = 1_000;
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(16))) {
      List<CompletableFuture<IngestResult>> futures = new CopyOnWriteArrayList<>();
      List<Thread> threads = IntStream.range(0, producers).mapToObj(p -> new Thread(() -> {
        for (int i = 0; i < each; i++) {
          futures.add(writer.ingest(request("t" + (i % 10), null, 1)));
        }
      })).toList();
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join();
      }
      assertThat(futures.stream().map(WriterFixture::await)).allMatch(r -> r.outcome() == Outcome.CREATED);
      WriterStats stats = writer.stats();
      assertThat(stats.hooks()).isEqualTo(producers * each);
      assertThat(stats.syncs()).as("syncs < groups: %s", stats).isLessThan(stats.groups());
    }
    assertClean(fx.store);
  }
}
