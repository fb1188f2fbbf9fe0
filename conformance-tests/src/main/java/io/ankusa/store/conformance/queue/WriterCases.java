package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.START;
import static io.ankusa.store.conformance.queue.LayoutAssertions.THREAD_WAIT_SECONDS;
import static io.ankusa.store.conformance.queue.LayoutAssertions.hook;
import static io.ankusa.store.conformance.queue.WriterChecks.assertClean;
import static io.ankusa.store.conformance.queue.WriterChecks.await;
import static io.ankusa.store.conformance.queue.WriterChecks.awaitUntil;
import static io.ankusa.store.conformance.queue.WriterChecks.request;
import static io.ankusa.store.conformance.queue.WriterChecks.storedSeqs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.ingest.WriterStats;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;

/**
 * The ingest writer ({@link QueueWriter}) over the backend's store, when it stores: a producer's
 * answer is CREATED only once the WAL sync covering its group returned, group commit keeps each
 * producer's order and gives each seq once, a group holds at most its bounds and dedupes within
 * itself, the watermark moves only forward and only past synced groups, an idempotency key lives
 * for its TTL, a restarted writer reads the ordinals it knows once, and its settings are bounded.
 * What it answers when it does not store (refusals, faults, close) is {@link WriterRefusalCases}.
 * Syncs and the writer's writes are held at gates ({@link WriterGates}); nothing waits on the wall
 * clock.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface WriterCases extends LayoutCase {

  /**
   * CREATED and DUPLICATE are answered only after the sync covering them: while a group's sync is
   * held the group is applied ({@code appliedSeq} raised, rows readable) but {@code durableSeq},
   * {@code durableAt} and a dispatcher at the durable watermark do not see it, and neither its
   * producer nor a duplicate of its key is answered; once the sync returns both are, with {@code
   * durableSeq} already covering them. The stats count what happened (duplicates write nothing,
   * move no counter, cost no sync), close syncs once more, and the writer's two threads are daemons
   * that end with its close.
   */
  @Example
  default void createdAndDuplicateAreAnsweredOnlyAfterTheSyncCoveringThem() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      WriterGates store = WriterGates.over(backend(), t);
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
      AtomicLong clock = new AtomicLong(START);
      List<Thread> threads;
      QueueWriter closed;
      try (QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults(), clock::get);
          AutoCloseable gates = store::releaseAll) {
        closed = writer;
        threads = writer.threads();
        assertThat(threads)
            .extracting(Thread::getName)
            .containsExactly(QueueWriter.WRITER_THREAD, QueueWriter.SYNCER_THREAD);
        assertThat(threads)
            .as("the writer's threads never keep a JVM alive")
            .allMatch(Thread::isDaemon);
        assertThat(writer.durableAt())
            .as("durableAt starts at the writer's clock")
            .isEqualTo(START);
        assertThat(await(writer.ingest(request("acme", "k1", 1, 2))))
            .isEqualTo(IngestResult.created(1));
        assertThat(writer.durableSeq()).isEqualTo(1);
        assertThat(writer.appliedSeq()).isEqualTo(1);

        clock.set(START + 1_000);
        store.holdSyncs();
        List<Long> durableWhenAnswered = new CopyOnWriteArrayList<>();
        CompletableFuture<IngestResult> original = writer.ingest(request("acme", "k2", 3));
        original.thenAccept(r -> durableWhenAnswered.add(writer.durableSeq()));
        store.awaitHeldSync();
        assertThat(writer.appliedSeq()).as("applied before its sync").isEqualTo(2);
        assertThat(writer.durableSeq())
            .as("durableSeq moves only when the sync returns")
            .isEqualTo(1);
        assertThat(writer.durableAt()).isEqualTo(START);
        assertThat(storedSeqs(store)).as("the applied group is readable").containsExactly(1L, 2L);
        Dispatcher dispatcher = new Dispatcher(queue, writer::durableSeq, 100, 1 << 20);
        assertThat(dispatcher.tick(START + LayoutAssertions.DAY_MS).claimed())
            .as("a dispatcher at the durable watermark claims nothing of the unsynced group")
            .isNotEmpty()
            .allMatch(row -> row.key().seq() == 1);
        TenantCounts beforeDuplicates = queue.counters().aggregate(store);
        CompletableFuture<IngestResult> duplicate = writer.ingest(request("acme", "k2", 4));
        CompletableFuture<IngestResult> duplicateOfDurable =
            writer.ingest(request("acme", "k1", 4));
        awaitUntil("the writer found both duplicates", () -> writer.stats().duplicates() == 2);
        assertThat(original).as("CREATED only after the sync").isNotDone();
        assertThat(duplicate)
            .as("a duplicate of an unsynced hook waits for that hook's sync")
            .isNotDone();

        store.releaseSyncs();
        assertThat(await(original)).isEqualTo(IngestResult.created(2));
        assertThat(await(duplicate)).isEqualTo(IngestResult.duplicate(2));
        assertThat(await(duplicateOfDurable)).isEqualTo(IngestResult.duplicate(1));
        awaitUntil("the producer's callback ran", () -> durableWhenAnswered.size() == 1);
        assertThat(durableWhenAnswered)
            .as("durableSeq covered the hook when its producer was answered")
            .containsExactly(2L);
        assertThat(queue.counters().aggregate(store))
            .as("duplicates move no counter")
            .isEqualTo(beforeDuplicates);
        WriterStats stats = writer.stats();
        assertThat(stats)
            .as("stats")
            .isEqualTo(new WriterStats(2, 2, 2, 2, 0, 2, 2, START + 1_000));
        assertThat(stats.syncsPerGroup()).isEqualTo(1.0);
        assertThat(new WriterStats(0, 0, 0, 0, 0, 0, 0, 0).syncsPerGroup()).isZero();
      }
      assertThat(threads).as("no writer thread outlives its close").noneMatch(Thread::isAlive);
      assertThat(closed.stats().syncs()).as("close syncs once more").isEqualTo(3);
      assertClean(store, "after the writer closed");
    }
  }

  /**
   * Group commit keeps each producer's order and gives every seq once: four producers at once,
   * groups of at most 7, and each producer's seqs rise in the order it sent, together they are the
   * seqs after {@code m:last_seq} without a gap or a repeat, and each seq holds the hook its
   * producer was told. One writer per store, through any queue, however often an earlier one is
   * closed; a second writer (after the first closed) continues the seqs.
   */
  @Example
  default void groupCommitKeepsEachProducersOrderAndAssignsEachSeqOnce() throws Exception {
    int producers = 4;
    int each = 25;
    try (TempDirStore t = openQueueStore()) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), queueConfig());
      QueueDriver d = new QueueDriver(queue);
      d.ingest().ingest(List.of(hook(d, "acme"), hook(d, "globex"), hook(d, "acme")));
      List<List<IngestRequest>> sent = new ArrayList<>();
      List<List<CompletableFuture<IngestResult>>> answers = new ArrayList<>();
      QueueWriter first = QueueWriter.start(queue, WriterConfig.defaults().withMaxGroupHooks(7));
      try (QueueWriter writer = first) {
        assertThat(writer.durableSeq()).as("the watermark starts at m:last_seq").isEqualTo(3);
        assertThat(writer.appliedSeq()).isEqualTo(3);
        assertThatThrownBy(() -> QueueWriter.start(queue, WriterConfig.defaults()))
            .as("a second writer on the queue")
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining("already runs");
        assertThatThrownBy(
                () ->
                    QueueWriter.start(
                        DeliveryQueue.open(t.store(), queueConfig()), WriterConfig.defaults()))
            .as(
                "a second writer on the store, through a second queue: both would hand out seqs %d, %d, ...",
                4, 5)
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining("already runs on the store");
        CyclicBarrier barrier = new CyclicBarrier(producers);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
          List<IngestRequest> mine = new ArrayList<>();
          for (int i = 0; i < each; i++) {
            mine.add(request(QueueDriver.TENANTS.get(p), null, 1 + i % 3));
          }
          List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
          sent.add(mine);
          answers.add(futures);
          threads.add(
              new Thread(
                  () -> {
                    awaitBarrier(barrier);
                    mine.forEach(r -> futures.add(writer.ingest(r)));
                  },
                  "producer-" + p));
        }
        threads.forEach(Thread::start);
        for (Thread th : threads) {
          th.join(TimeUnit.SECONDS.toMillis(THREAD_WAIT_SECONDS));
        }
        TreeSet<Long> all = new TreeSet<>();
        for (int p = 0; p < producers; p++) {
          List<Long> seqs =
              answers.get(p).stream()
                  .map(WriterChecks::await)
                  .map(
                      r -> {
                        assertThat(r.outcome()).isEqualTo(Outcome.CREATED);
                        return r.seq();
                      })
                  .toList();
          assertThat(seqs)
              .as("producer %d's seqs in the order it sent", p)
              .hasSize(each)
              .isSorted()
              .doesNotHaveDuplicates();
          for (int i = 0; i < each; i++) {
            HookEnvelope stored = d.hook(seqs.get(i));
            assertThat(stored.hookId())
                .as("seq %d holds the hook its producer was told", seqs.get(i))
                .isEqualTo(sent.get(p).get(i).hookId());
            assertThat(stored.sinks()).isEqualTo(sent.get(p).get(i).sinks());
          }
          all.addAll(seqs);
        }
        assertThat(all)
            .as("every seq once, no gap")
            .hasSize(producers * each)
            .first()
            .isEqualTo(4L);
        assertThat(all.last()).isEqualTo(3L + producers * each);
        WriterStats stats = writer.stats();
        assertThat(stats.hooks()).isEqualTo(producers * each);
        assertThat(stats.groups())
            .as("groups of at most 7: %s", stats)
            .isBetween((long) (producers * each + 6) / 7, (long) producers * each);
        assertThat(stats.syncs()).isBetween(1L, stats.groups());
        assertThat(writer.durableSeq()).isEqualTo(all.last());
      }
      try (QueueWriter again = QueueWriter.start(queue, WriterConfig.defaults())) {
        assertThat(await(again.ingest(request("initech", null, 1))))
            .as("a later writer continues the seqs")
            .isEqualTo(IngestResult.created(4L + producers * each));
        first.close();
        assertThatThrownBy(() -> QueueWriter.start(queue, WriterConfig.defaults()))
            .as("closing the first writer again does not let a writer start beside the later one")
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining("already runs");
      }
      assertThat(queue.lastSeq()).isEqualTo(4L + producers * each);
      assertClean(t.store(), "after two writers");
    }
  }

  /**
   * A group holds at most {@code maxGroupHooks} requests and {@code maxGroupBytes} bytes (a larger
   * request forms a group of its own), and requests of one group with the same idempotency key
   * share the first one's fate: CREATED once, DUPLICATE of it after. The requests are queued behind
   * a write held at a gate, so the groups they form are known.
   */
  @Example
  default void aGroupHoldsAtMostItsBoundsAndDedupesWithinItself() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      WriterGates store = WriterGates.over(backend(), t);
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
      try (QueueWriter writer =
              QueueWriter.start(queue, WriterConfig.defaults().withMaxGroupHooks(4));
          AutoCloseable gates = store::releaseAll) {
        store.holdWriterWrites();
        CompletableFuture<IngestResult> lead = writer.ingest(request("lead", null, 1));
        store.awaitHeldWriterWrite();
        List<CompletableFuture<IngestResult>> burst =
            List.of(
                writer.ingest(request("acme", "k", 1)),
                writer.ingest(request("acme", "k", 2)),
                writer.ingest(request("globex", "k", 1)),
                writer.ingest(request("acme", "k", 3)));
        List<CompletableFuture<IngestResult>> plain = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          plain.add(writer.ingest(request("acme", null, 1)));
        }
        store.releaseWriterWrites();
        assertThat(await(lead)).isEqualTo(IngestResult.created(1));
        assertThat(burst.stream().map(WriterChecks::await).toList())
            .as("one group: same key, same fate")
            .containsExactly(
                IngestResult.created(2),
                IngestResult.duplicate(2),
                IngestResult.created(3),
                IngestResult.duplicate(2));
        assertThat(plain.stream().map(WriterChecks::await).map(IngestResult::seq).toList())
            .containsExactly(4L, 5L, 6L, 7L, 8L);
        assertThat(writer.stats().groups())
            .as("groups of at most 4: lead, burst, 4 + 1 plain")
            .isEqualTo(4);
      }
      // Payload only (no tenant, empty ids): a request counts exactly its payload's bytes.
      WriterConfig bytesBound =
          new WriterConfig(
              100,
              2_000,
              WriterConfig.DEFAULT_QUEUE_CAPACITY,
              WriterConfig.DEFAULT_MAX_PAYLOAD_BYTES,
              WriterConfig.DEFAULT_DEDUPE_TTL_MS,
              WriterConfig.DEFAULT_DEDUPE_SWEEP_INTERVAL_MS);
      try (QueueWriter writer = QueueWriter.start(queue, bytesBound);
          AutoCloseable gates = store::releaseAll) {
        long groupsBefore = writer.stats().groups();
        store.holdWriterWrites();
        CompletableFuture<IngestResult> lead = writer.ingest(sized(1_000));
        store.awaitHeldWriterWrite();
        List<CompletableFuture<IngestResult>> queued = new ArrayList<>();
        for (int size : new int[] {1_000, 1_000, 1_000, 1_000, 1_000, 3_000, 1_000}) {
          queued.add(writer.ingest(sized(size)));
        }
        store.releaseWriterWrites();
        await(lead);
        assertThat(queued.stream().map(WriterChecks::await))
            .allMatch(r -> r.outcome() == Outcome.CREATED);
        assertThat(writer.stats().groups() - groupsBefore)
            .as("2 000 bytes a group: lead, [1 000 1 000] twice, [1 000], [3 000] alone, [1 000]")
            .isEqualTo(6);
      }
      assertClean(store, "after bounded groups");
    }
  }

  /**
   * An idempotency key is remembered for {@code dedupeTtlMs} of the writer's clock and forgotten
   * once the writer's sweep deleted it: a retry before the TTL is a DUPLICATE, one after the sweep
   * is stored anew.
   */
  @Example
  default void anIdempotencyKeyIsRememberedForItsTtlAndForgottenAfterTheSweep() {
    try (TempDirStore t = openQueueStore()) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), queueConfig());
      AtomicLong clock = new AtomicLong(START);
      WriterConfig config =
          WriterConfig.defaults().withDedupeTtlMs(1_000).withDedupeSweepIntervalMs(500);
      byte[] dedupeKey = Keys.dedupe(TenantId.of("acme"), "k".getBytes());
      try (QueueWriter writer = QueueWriter.start(queue, config, clock::get)) {
        assertThat(await(writer.ingest(request("acme", "k", 1))))
            .isEqualTo(IngestResult.created(1));
        clock.set(START + 999);
        assertThat(await(writer.ingest(request("acme", "k", 1))))
            .as("within the TTL")
            .isEqualTo(IngestResult.duplicate(1));
        clock.set(START + 2_000);
        awaitUntil(
            "the writer swept the expired key",
            () -> t.store().get(Format3.INDEX, dedupeKey) == null);
        assertThat(await(writer.ingest(request("acme", "k", 1))))
            .as("after the sweep")
            .isEqualTo(IngestResult.created(2));
      }
      assertClean(t.store(), "after a sweep");
    }
  }

  /**
   * A writer started on a store that already knows its tenants reads their ordinals into its cache
   * before its first group, so the first groups of those tenants read no {@code 'n'} row; a tenant
   * new to the store is still read for and created. When an {@code 'n'} row does not decode, the
   * writer still starts, keeps the ordinals it read before that row, and answers the tenants before
   * and after it in key order, known and new.
   */
  @Example
  default void aWriterStartedOnAKnownStoreReadsNoKnownTenantsRowAndADamagedRowDoesNotStopIt() {
    try (TempDirStore t = openQueueStore()) {
      try (QueueWriter writer =
          QueueWriter.start(
              DeliveryQueue.open(t.store(), queueConfig()), WriterConfig.defaults())) {
        assertThat(await(writer.ingest(request("acme", "a1", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        assertThat(await(writer.ingest(request("globex", "g1", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
      }
      RecordingStore restarted = new RecordingStore(t.store());
      try (QueueWriter writer =
          QueueWriter.start(
              DeliveryQueue.open(restarted, queueConfig()), WriterConfig.defaults())) {
        assertThat(await(writer.ingest(request("globex", "g2", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        assertThat(await(writer.ingest(request("acme", "a2", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        assertThat(restarted.pointReads())
            .as("reads of the tenants family for tenants the store knew")
            .noneMatch(r -> r.family().equals(Format3.TENANTS));
        assertThat(await(writer.ingest(request("initech", "i1", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        assertThat(restarted.pointReads())
            .as("a tenant new to the store is looked up")
            .anyMatch(r -> r.family().equals(Format3.TENANTS));
      }
      assertThat(Tenants.ord(t.store(), TenantId.of("initech"))).hasValue(3);
      assertClean(t.store(), "after a restart with a warm cache");

      // "globex"'s row damaged: 3 bytes where an ordinal takes 4. It sorts after "acme", so the
      // start-up read meets it after caching acme.
      t.store()
          .write(
              new Batch()
                  .put(
                      Format3.TENANTS,
                      Keys.ordByTenant(TenantId.of("globex")),
                      new byte[] {0, 0, 2}),
              Durability.SYNC);
      RecordingStore damaged = new RecordingStore(t.store());
      try (QueueWriter writer =
          QueueWriter.start(DeliveryQueue.open(damaged, queueConfig()), WriterConfig.defaults())) {
        assertThat(await(writer.ingest(request("acme", "a3", 1))).outcome())
            .as("a tenant whose row is sound")
            .isEqualTo(Outcome.CREATED);
        assertThat(damaged.pointReads())
            .as("reads of the tenants family for acme, cached before the damaged row")
            .noneMatch(r -> r.family().equals(Format3.TENANTS));
        assertThat(await(writer.ingest(request("hooli", "h1", 1))).outcome())
            .as("a new tenant")
            .isEqualTo(Outcome.CREATED);
        assertThat(await(writer.ingest(request("initech", "i2", 1))).outcome())
            .as("a tenant after it, not cached")
            .isEqualTo(Outcome.CREATED);
      }
    }
  }

  /**
   * {@link WriterConfig} refuses a setting out of bounds with a {@link StoreArgumentException}
   * naming the setting and the bound (every setting at least 1, the dedupe TTL at most 100 years),
   * accepts the bounds themselves, and each {@code with…} changes only its own setting.
   */
  @Example
  default void writerConfigRefusesASettingOutOfBoundsNamingIt() {
    WriterConfig d = WriterConfig.defaults();
    assertThat(d)
        .isEqualTo(new WriterConfig(256, 4L << 20, 65_536, 1 << 20, 24L * 3600 * 1000, 10_000));
    List<String> names =
        List.of(
            "maxGroupHooks",
            "maxGroupBytes",
            "queueCapacity",
            "maxPayloadBytes",
            "dedupeTtlMs",
            "dedupeSweepIntervalMs");
    for (int i = 0; i < names.size(); i++) {
      long[] v = {256, 4L << 20, 65_536, 1 << 20, 1_000, 10_000};
      v[i] = 0;
      assertThatThrownBy(() -> config(v))
          .as("%s = 0", names.get(i))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessage("writer " + names.get(i) + " = 0 must be at least 1");
      v[i] = 1;
      assertThat(config(v)).as("%s = 1 is accepted", names.get(i)).isNotNull();
    }
    assertThatThrownBy(() -> d.withDedupeTtlMs(WriterConfig.MAX_DEDUPE_TTL_MS + 1))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("dedupeTtlMs")
        .hasMessageContaining("100 years");
    assertThat(d.withDedupeTtlMs(WriterConfig.MAX_DEDUPE_TTL_MS).dedupeTtlMs())
        .isEqualTo(WriterConfig.MAX_DEDUPE_TTL_MS);
    assertThat(d.withMaxGroupHooks(3))
        .isEqualTo(
            new WriterConfig(
                3,
                d.maxGroupBytes(),
                d.queueCapacity(),
                d.maxPayloadBytes(),
                d.dedupeTtlMs(),
                d.dedupeSweepIntervalMs()));
    assertThat(d.withQueueCapacity(3))
        .isEqualTo(
            new WriterConfig(
                d.maxGroupHooks(),
                d.maxGroupBytes(),
                3,
                d.maxPayloadBytes(),
                d.dedupeTtlMs(),
                d.dedupeSweepIntervalMs()));
    assertThat(d.withMaxPayloadBytes(3))
        .isEqualTo(
            new WriterConfig(
                d.maxGroupHooks(),
                d.maxGroupBytes(),
                d.queueCapacity(),
                3,
                d.dedupeTtlMs(),
                d.dedupeSweepIntervalMs()));
    assertThat(d.withDedupeTtlMs(3))
        .isEqualTo(
            new WriterConfig(
                d.maxGroupHooks(),
                d.maxGroupBytes(),
                d.queueCapacity(),
                d.maxPayloadBytes(),
                3,
                d.dedupeSweepIntervalMs()));
    assertThat(d.withDedupeSweepIntervalMs(3))
        .isEqualTo(
            new WriterConfig(
                d.maxGroupHooks(),
                d.maxGroupBytes(),
                d.queueCapacity(),
                d.maxPayloadBytes(),
                d.dedupeTtlMs(),
                3));
  }

  // ------------------------------------------------------------------ helpers

  private static WriterConfig config(long[] v) {
    return new WriterConfig((int) v[0], v[1], (int) v[2], (int) v[3], v[4], v[5]);
  }

  /** A request whose only bytes are a payload of {@code payloadBytes} (no tenant, empty ids). */
  private static IngestRequest sized(int payloadBytes) {
    return new IngestRequest(null, "", "", null, START, List.of(1), new byte[payloadBytes]);
  }

  private static void awaitBarrier(CyclicBarrier barrier) {
    try {
      barrier.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
