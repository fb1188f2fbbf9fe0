package io.ankusa.store.queue.ingest;

import static io.ankusa.store.queue.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.ingest.WriterFixture.await;
import static io.ankusa.store.queue.ingest.WriterFixture.request;
import static io.ankusa.store.queue.ingest.WriterFixture.storedSeqs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.counter.TenantCounts;
import io.ankusa.store.queue.index.DueIndex;
import io.ankusa.store.queue.ingest.IngestResult.Outcome;
import io.ankusa.store.queue.runtime.QueueLifecycleTest;
import io.ankusa.store.queue.tenant.Tenants;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The writer's answers, on the memory backend: created, rejected, duplicate, tenant limit, close. */
class QueueWriterTest {
  private final WriterFixture fx = new WriterFixture();

  @AfterEach
  void close() {
    fx.close();
  }

  @Test
  void createdHooksAreDurableVisibleAndCounted() {
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(7))) {
      List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
      List<Long> durableWhenAnswered = new CopyOnWriteArrayList<>();
      for (int i = 0; i < 50; i++) {
        CompletableFuture<IngestResult> f = writer.ingest(request("tenant-" + (i % 3), null, 1, 2 + i % 2));
        f.thenAccept(r -> durableWhenAnswered.add(writer.durableSeq() - r.seq()));
        futures.add(f);
      }
      List<Long> seqs = futures.stream().map(WriterFixture::await).map(r -> {
        assertThat(r.outcome()).isEqualTo(Outcome.CREATED);
        return r.seq();
      }).toList();
      assertThat(seqs).isSorted().doesNotHaveDuplicates().startsWith(1L).endsWith(50L);
      // Every CREATED was answered only once durableSeq covered it.
      WriterFixture.eventually("every callback ran", () -> durableWhenAnswered.size() == 50);
      assertThat(durableWhenAnswered).allMatch(d -> d >= 0);
      assertThat(writer.durableSeq()).isEqualTo(50);
      assertThat(writer.appliedSeq()).isEqualTo(50);
      assertThat(storedSeqs(fx.store)).hasSize(50);
      assertThat(fx.queue.lastSeq()).isEqualTo(50);
      long ord = Tenants.ord(fx.store, TenantId.of("tenant-1")).orElseThrow();
      assertThat(DueIndex.dueForTenant(fx.store, ord, 5_000, 0, 100, Long.MAX_VALUE, writer.durableSeq()))
          .hasSize(2 * 17);
      assertClean(fx.store);
      assertThat(fx.queue.counters().aggregate(fx.store).pending()).isEqualTo(100);
      WriterStats stats = writer.stats();
      assertThat(stats.hooks()).isEqualTo(50);
      assertThat(stats.groups()).isBetween(8L, 50L);
      assertThat(stats.syncs()).isBetween(1L, stats.groups());
    }
  }

  @Test
  void seqsContinueFromTheStoreAndAcrossWriters() {
    new DirectIngest(fx.queue).ingest(List.of(
        QueueLifecycleTest.hook("a", 1, 1), QueueLifecycleTest.hook("b", 1, 1), QueueLifecycleTest.hook("a", 1, 2)));
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults())) {
      assertThat(writer.durableSeq()).isEqualTo(3);
      assertThat(await(writer.ingest(request("a", null, 1))).seq()).isEqualTo(4);
    }
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults())) {
      assertThat(await(writer.ingest(request("c", null, 1))).seq()).isEqualTo(5);
    }
    assertClean(fx.store);
  }

  @Test
  void oneWriterPerQueue() {
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults())) {
      assertThatThrownBy(() -> QueueWriter.start(fx.queue, WriterConfig.defaults()))
          .isInstanceOf(StoreArgumentException.class).hasMessageContaining("already runs");
      assertThat(writer.isFenced()).isFalse();
    }
  }

  @Test
  void rejectedAtOnceWithTheRuleNamed() {
    WriterConfig config = WriterConfig.defaults().withMaxPayloadBytes(16);
    try (QueueWriter writer = QueueWriter.start(fx.queue, config)) {
      byte[] ok = new byte[16];
      List<Integer> sinks = List.of(1);
      assertRejected(writer, new IngestRequest("", "s", "h", null, 1, sinks, ok), IngestResult.REJECT_BAD_TENANT);
      assertRejected(writer, new IngestRequest("a\0b", "s", "h", null, 1, sinks, ok), IngestResult.REJECT_BAD_TENANT);
      assertRejected(writer, new IngestRequest("x".repeat(256), "s", "h", null, 1, sinks, ok), IngestResult.REJECT_BAD_TENANT);
      assertRejected(writer, new IngestRequest("t", null, "h", null, 1, sinks, ok), IngestResult.REJECT_MISSING_SOURCE);
      assertRejected(writer, new IngestRequest("t", "s", null, null, 1, sinks, ok), IngestResult.REJECT_MISSING_HOOK_ID);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, List.of(), ok), IngestResult.REJECT_EMPTY_SINKS);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, null, ok), IngestResult.REJECT_EMPTY_SINKS);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, List.of(1, 70_000), ok), IngestResult.REJECT_BAD_SINK);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, List.of(-1), ok), IngestResult.REJECT_BAD_SINK);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, Arrays.asList(1, null), ok), IngestResult.REJECT_BAD_SINK);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, List.of(3, 1, 3), ok), IngestResult.REJECT_DUPLICATE_SINK);
      // A long list (past the few sinks compared one by one) is checked too.
      List<Integer> many = new ArrayList<>(IntStream.range(0, 40).boxed().toList());
      many.add(7);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, many, ok), IngestResult.REJECT_DUPLICATE_SINK);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, sinks, null), IngestResult.REJECT_MISSING_PAYLOAD);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, 1, sinks, new byte[17]), IngestResult.REJECT_OVERSIZED_PAYLOAD);
      assertRejected(writer, new IngestRequest("t", "s", "h", null, -1, sinks, ok), IngestResult.REJECT_BAD_RECEIVED_AT);
      assertRejected(writer, new IngestRequest("t", "s", "h", "", 1, sinks, ok), IngestResult.REJECT_BAD_IDEMPOTENCY_KEY);
      assertRejected(writer, new IngestRequest("t", "s", "h", "k".repeat(70_000), 1, sinks, ok),
          IngestResult.REJECT_BAD_IDEMPOTENCY_KEY);
      // The edge that is accepted: exactly maxPayloadBytes, no tenant (default).
      assertThat(await(writer.ingest(new IngestRequest(null, "s", "h", null, 1, sinks, ok))).outcome())
          .isEqualTo(Outcome.CREATED);
      assertThat(writer.stats().hooks()).isEqualTo(1);
      assertThat(Tenants.count(fx.store)).isEqualTo(1);
    }
    assertThat(Tenants.ord(fx.store, TenantId.DEFAULT)).hasValue(1);
    assertClean(fx.store);
  }

  private static void assertRejected(QueueWriter writer, IngestRequest r, String code) {
    CompletableFuture<IngestResult> f = writer.ingest(r);
    assertThat(f).as("REJECTED completes at once").isDone();
    IngestResult result = f.join();
    assertThat(result.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(result.reasonCode()).isEqualTo(code);
    assertThat(result.reason()).startsWith(code + ": ").hasSizeGreaterThan(code.length() + 10);
    assertThat(result.retryable()).isFalse();
  }

  @Test
  void duplicatesAnswerTheOriginalSeqAndMoveNoCounter() {
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults())) {
      // Same key three times in one burst (likely one group), and a different tenant with the same key.
      List<CompletableFuture<IngestResult>> burst = List.of(
          writer.ingest(request("acme", "k1", 1, 2)),
          writer.ingest(request("acme", "k1", 1, 2)),
          writer.ingest(request("globex", "k1", 1)),
          writer.ingest(request("acme", "k1", 3)));
      List<IngestResult> r = burst.stream().map(WriterFixture::await).toList();
      assertThat(r.get(0).outcome()).isEqualTo(Outcome.CREATED);
      assertThat(r.get(1)).isEqualTo(IngestResult.duplicate(r.get(0).seq()));
      assertThat(r.get(2).outcome()).isEqualTo(Outcome.CREATED);
      assertThat(r.get(3)).isEqualTo(IngestResult.duplicate(r.get(0).seq()));
      TenantCounts before = fx.queue.counters().aggregate(fx.store);
      assertThat(before.pending()).isEqualTo(3);
      // Later, from the store.
      assertThat(await(writer.ingest(request("acme", "k1", 9)))).isEqualTo(IngestResult.duplicate(r.get(0).seq()));
      assertThat(await(writer.ingest(request("globex", "k1", 9)))).isEqualTo(IngestResult.duplicate(r.get(2).seq()));
      assertThat(fx.queue.counters().aggregate(fx.store)).isEqualTo(before);
      assertThat(writer.stats().duplicates()).isEqualTo(4);
      assertThat(writer.stats().hooks()).isEqualTo(2);
      byte[] u = fx.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("acme"), "k1".getBytes()));
      assertThat(DedupeValue.decode(u).seq()).isEqualTo(r.get(0).seq());
    }
    assertThat(storedSeqs(fx.store)).hasSize(2);
    assertClean(fx.store);
  }

  @Test
  void tenantLimitRefusesNewTenantsOnlyAndCreatesNoOrdinal() {
    fx.close();
    try (WriterFixture small = new WriterFixture(QueueConfig.defaults().withTenantsMax(2));
        QueueWriter writer = QueueWriter.start(small.queue, WriterConfig.defaults())) {
      assertThat(await(writer.ingest(request("a", null, 1))).outcome()).isEqualTo(Outcome.CREATED);
      List<CompletableFuture<IngestResult>> group = List.of(
          writer.ingest(request("b", null, 1)),
          writer.ingest(request("c", "kc", 1)),
          writer.ingest(request("c", "kc", 1)),
          writer.ingest(request("a", null, 1)));
      List<IngestResult> r = group.stream().map(WriterFixture::await).toList();
      assertThat(r.get(0).outcome()).isEqualTo(Outcome.CREATED);
      assertThat(r.get(1).outcome()).isEqualTo(Outcome.TENANT_LIMIT);
      assertThat(r.get(1).reason()).contains("'c'").contains("tenants.max is 2");
      assertThat(r.get(1).retryable()).isTrue();
      assertThat(r.get(2).outcome()).isEqualTo(Outcome.TENANT_LIMIT);
      assertThat(r.get(3).outcome()).isEqualTo(Outcome.CREATED);
      assertThat(await(writer.ingest(request("d", null, 1))).outcome()).isEqualTo(Outcome.TENANT_LIMIT);
      assertThat(Tenants.ord(small.store, TenantId.of("c"))).isEmpty();
      assertThat(Tenants.nextOrdinal(small.store)).isEqualTo(3);
      assertThat(small.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("c"), "kc".getBytes()))).isNull();
      assertThat(storedSeqs(small.store)).containsExactly(1L, 2L, 3L);
      assertClean(small.store);
    }
  }

  @Test
  void closeDrainsAndAnswersEverything() throws Exception {
    QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withQueueCapacity(100).withMaxGroupHooks(16));
    Thread closer = new Thread(writer::close);
    List<CompletableFuture<IngestResult>> queuedBeforeClose = new ArrayList<>();
    List<CompletableFuture<IngestResult>> racing = new CopyOnWriteArrayList<>();
    try {
      // 100 hooks applied and waiting for a held sync, 50 more queued behind them.
      fx.store.holdSyncs();
      for (int i = 0; i < 150; i++) {
        if (i == 100) {
          WriterFixture.eventually("the pipeline is full", () -> writer.appliedSeq() == 100);
        }
        queuedBeforeClose.add(writer.ingest(request("t" + (i % 5), "k" + i, 1)));
      }
      assertThat(queuedBeforeClose).noneMatch(CompletableFuture::isDone);
      closer.start();
      // Producers race the close: each request is either refused at once or drained and stored.
      List<Thread> producers = IntStream.range(0, 4).mapToObj(p -> new Thread(() -> {
        for (int i = 0; i < 200; i++) {
          racing.add(writer.ingest(request("r" + p, null, 1)));
        }
      })).toList();
      producers.forEach(Thread::start);
      for (Thread t : producers) {
        t.join();
      }
    } finally {
      fx.store.openSyncGate();
    }
    closer.join();
    assertThat(queuedBeforeClose).as("every queued request was drained and stored by close")
        .allMatch(f -> f.isDone() && f.join().outcome() == Outcome.CREATED);
    assertThat(racing).hasSize(800).allMatch(CompletableFuture::isDone);
    assertThat(racing).allMatch(f -> f.join().outcome() == Outcome.CREATED
        || f.join().equals(IngestResult.unavailable(IngestResult.CLOSED))
        || f.join().equals(IngestResult.unavailable(IngestResult.OVERLOADED)));
    List<Long> created = new ArrayList<>();
    queuedBeforeClose.forEach(f -> created.add(f.join().seq()));
    racing.stream().map(CompletableFuture::join).filter(r -> r.outcome() == Outcome.CREATED)
        .forEach(r -> created.add(r.seq()));
    assertThat(storedSeqs(fx.store)).containsExactlyInAnyOrderElementsOf(created);
    assertThat(writer.durableSeq()).isEqualTo(created.size());
    // Idempotent, and closed for good.
    writer.close();
    CompletableFuture<IngestResult> after = writer.ingest(request("t", null, 1));
    assertThat(after).isDone();
    assertThat(after.join()).isEqualTo(IngestResult.unavailable(IngestResult.CLOSED));
    assertClean(fx.store);
  }
}
