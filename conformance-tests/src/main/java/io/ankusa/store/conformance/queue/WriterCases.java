package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.START;
import static io.ankusa.store.conformance.queue.LayoutAssertions.THREAD_WAIT_SECONDS;
import static io.ankusa.store.conformance.queue.LayoutAssertions.assertCountersEqualFold;
import static io.ankusa.store.conformance.queue.LayoutAssertions.hook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.ingest.WriterStats;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.StoreArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import net.jqwik.api.Example;

/**
 * The ingest writer ({@link QueueWriter}) over the backend's store: a producer's answer is CREATED
 * only once the WAL sync covering its group returned, group commit keeps each producer's order and
 * gives each seq once, the watermark moves only forward and only past synced groups, a failed write
 * or sync fails exactly the acknowledgements it covers (and the store is told), close answers every
 * request, and each {@link IngestResult} outcome is what the producer is promised. Syncs and the
 * writer's writes are held at gates ({@link WriterGates}), faults come from the fixture's {@link
 * BackendFixture#injectFaults}; nothing waits on the wall clock.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface WriterCases extends LayoutCase {
  IngestResult FENCED = IngestResult.unavailable(IngestResult.FENCED);

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
                  .map(WriterCases::await)
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
        assertThat(burst.stream().map(WriterCases::await).toList())
            .as("one group: same key, same fate")
            .containsExactly(
                IngestResult.created(2),
                IngestResult.duplicate(2),
                IngestResult.created(3),
                IngestResult.duplicate(2));
        assertThat(plain.stream().map(WriterCases::await).map(IngestResult::seq).toList())
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
        assertThat(queued.stream().map(WriterCases::await))
            .allMatch(r -> r.outcome() == Outcome.CREATED);
        assertThat(writer.stats().groups() - groupsBefore)
            .as("2 000 bytes a group: lead, [1 000 1 000] twice, [1 000], [3 000] alone, [1 000]")
            .isEqualTo(6);
      }
      assertClean(store, "after bounded groups");
    }
  }

  /**
   * A failed WAL sync, a failed write the engine did not apply, and one it applied before failing:
   * each fails exactly the acknowledgements of the groups it covers and every later one with
   * UNAVAILABLE {@code "fenced"} while {@code durableSeq} stays, tells the store once ({@code
   * reportWriteFailure}), deletes every row, count, dedupe key and new ordinal of the groups never
   * acknowledged (ordinals retired, {@code m:last_seq} kept), then resumes with the watermark at
   * the writer's seq: each retry stores its hook once, under new seqs and ordinals.
   */
  @Example
  default void aFailedSyncOrWriteFailsExactlyTheAcksItCoversAndTheRetryStoresOnce()
      throws Exception {
    for (String failure : List.of("sync", "write-applied", "write-lost")) {
      try (TempDirStore t = openQueueStore()) {
        WriterGates store = WriterGates.over(backend(), t);
        DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
        try (QueueWriter writer =
                QueueWriter.start(queue, WriterConfig.defaults().withMaxGroupHooks(1));
            AutoCloseable gates = store::releaseAll) {
          fenceAndRepair(store, queue, writer, failure);
        }
        assertClean(store, failure + ": after the writer closed");
      }
    }
  }

  private static void fenceAndRepair(
      WriterGates store, DeliveryQueue queue, QueueWriter writer, String failure) {
    IngestResult acked = await(writer.ingest(request("old", "k-old", 1, 2)));
    assertThat(acked).isEqualTo(IngestResult.created(1));
    long nextOrdBefore = Tenants.nextOrdinal(store);
    List<IngestRequest> refused =
        List.of(
            request("newco", "k2", 1, 2, 3),
            request("old", "k1", 1),
            request("newco", null, 4),
            request("other-new", "k3", 1),
            request("old", "k-old", 1) /* a duplicate: fenced too */);
    List<Long> durableWhenRefused = new CopyOnWriteArrayList<>();
    List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
    if (failure.equals("sync")) {
      store.holdSyncs();
    } else {
      store.holdWriterWrites();
      store.failNextWriterWrite(failure.equals("write-applied"));
    }
    for (IngestRequest r : refused) {
      CompletableFuture<IngestResult> f = writer.ingest(r);
      f.thenAccept(x -> durableWhenRefused.add(writer.durableSeq()));
      futures.add(f);
    }
    if (failure.equals("sync")) {
      store.awaitHeldSync();
      // Fail the held sync only once other-new's group is applied behind it: two ordinals to
      // retire.
      awaitUntil(
          "every group applied behind the held sync",
          () -> Tenants.ord(store, TenantId.of("other-new")).isPresent());
      store.faults().failNextSync();
      store.releaseSyncs();
    } else {
      store.awaitHeldWriterWrite();
      store.releaseWriterWrites();
    }
    for (CompletableFuture<IngestResult> f : futures) {
      assertThat(await(f))
          .as("%s: every request the failure covers, and every later one", failure)
          .isEqualTo(FENCED);
    }
    assertThat(FENCED.retryable()).isTrue();
    awaitUntil(
        "the writer resumed",
        () -> !writer.isFenced() && writer.durableSeq() == writer.appliedSeq());
    awaitUntil("every refusal callback ran", () -> durableWhenRefused.size() == refused.size());
    assertThat(durableWhenRefused)
        .as("%s: durableSeq stays while refusing", failure)
        .containsOnly(acked.seq());
    assertThat(store.faults().injected()).isEqualTo(1);
    assertThat(store.reportedFailures()).as("%s: the store is told once", failure).isEqualTo(1);
    assertThat(writer.stats().fences()).isEqualTo(1);

    long fencedTop = writer.appliedSeq();
    assertThat(fencedTop).as("%s: the failed groups had seqs", failure).isGreaterThan(acked.seq());
    assertThat(storedSeqs(store))
        .as("%s: nothing of a refused request is left", failure)
        .containsExactly(acked.seq());
    long retired = failure.equals("sync") ? 2 : 1;
    assertThat(Tenants.ord(store, TenantId.of("newco"))).isEmpty();
    assertThat(Tenants.ord(store, TenantId.of("other-new"))).isEmpty();
    assertThat(Tenants.nextOrdinal(store))
        .as("%s: m:next_ord never moves back", failure)
        .isEqualTo(nextOrdBefore + retired);
    for (long ord = nextOrdBefore; ord < nextOrdBefore + retired; ord++) {
      assertThat(store.get(Format3.TENANTS, Keys.tenantByOrd(ord)))
          .as("'t' %d is a tombstone", ord)
          .isEmpty();
      assertThat(Counters.readAll(store))
          .as("no counter row of retired ordinal %d", ord)
          .doesNotContainKey(ord);
    }
    assertThat(store.get(Format3.INDEX, Keys.dedupe(TenantId.of("old"), "k1".getBytes()))).isNull();
    assertThat(store.get(Format3.INDEX, Keys.dedupe(TenantId.of("newco"), "k2".getBytes())))
        .isNull();
    assertThat(
            DedupeValue.decode(
                    store.get(Format3.INDEX, Keys.dedupe(TenantId.of("old"), "k-old".getBytes())))
                .seq())
        .isEqualTo(acked.seq());
    assertThat(queue.lastSeq())
        .as("%s: m:last_seq kept, seqs are never reused", failure)
        .isEqualTo(fencedTop);
    assertClean(store, failure + ": after the repair");

    List<IngestResult> retries = refused.stream().map(r -> await(writer.ingest(r))).toList();
    for (int i = 0; i < 4; i++) {
      assertThat(retries.get(i).outcome())
          .as("%s: retry %d", failure, i)
          .isEqualTo(Outcome.CREATED);
      assertThat(retries.get(i).seq()).isEqualTo(fencedTop + 1 + i);
    }
    assertThat(retries.get(4)).isEqualTo(IngestResult.duplicate(acked.seq()));
    assertThat(await(writer.ingest(refused.get(0))))
        .isEqualTo(IngestResult.duplicate(retries.get(0).seq()));
    assertThat(Tenants.ord(store, TenantId.of("newco")))
        .as("newco comes back under a new ordinal")
        .hasValue(nextOrdBefore + retired);
    assertThat(Tenants.ord(store, TenantId.of("other-new"))).hasValue(nextOrdBefore + retired + 1);
    assertThat(storedSeqs(store)).hasSize(5);
    assertThat(writer.durableSeq()).isEqualTo(writer.appliedSeq());
  }

  /**
   * When the repair's own write fails the store is told again and the repair is tried again; when
   * the store cannot recover at all ({@code reportWriteFailure} throws) the writer refuses every
   * request at once with UNAVAILABLE {@code "fenced"} until it is closed, and its close still ends.
   */
  @Example
  default void aFailedRepairIsRetriedAndAStoreThatCannotRecoverIsRefusedUntilClosed()
      throws Exception {
    try (TempDirStore t = openQueueStore()) {
      WriterGates store = WriterGates.over(backend(), t);
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
      try (QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults())) {
        assertThat(await(writer.ingest(request("acme", null, 1))))
            .isEqualTo(IngestResult.created(1));
        store.faults().failNextSync();
        store.failNextWriterWrite(Durability.SYNC, false); // the repair's first write
        assertThat(await(writer.ingest(request("newco", "k", 1)))).isEqualTo(FENCED);
        awaitUntil(
            "the writer resumed",
            () -> !writer.isFenced() && writer.durableSeq() == writer.appliedSeq());
        assertThat(store.faults().injected()).isEqualTo(2);
        assertThat(store.reportedFailures())
            .as("told of the sync and of the failed repair")
            .isEqualTo(2);
        assertThat(storedSeqs(store)).containsExactly(1L);
        assertThat(await(writer.ingest(request("newco", "k", 1))))
            .isEqualTo(IngestResult.created(3));
      }
      assertClean(store, "after a repair tried twice");

      store.loseStoreOnReport();
      List<Thread> threads;
      QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults());
      try {
        threads = writer.threads();
        store.faults().failNextSync();
        assertThat(await(writer.ingest(request("acme", null, 1)))).isEqualTo(FENCED);
        awaitUntil(
            "the writer took the fence", () -> writer.isFenced() && writer.stats().fences() == 1);
        for (int i = 0; i < 3; i++) {
          CompletableFuture<IngestResult> f = writer.ingest(request("acme", null, 1));
          assertThat(f).as("refused at once while the store is lost").isDone();
          assertThat(f.join()).isEqualTo(FENCED);
        }
        assertThat(writer.isFenced()).as("a lost store keeps the writer fenced").isTrue();
      } finally {
        writer.close();
      }
      assertThat(threads).as("close ends a writer whose store is lost").noneMatch(Thread::isAlive);
      assertThat(writer.ingest(request("acme", null, 1)).join())
          .isEqualTo(IngestResult.unavailable(IngestResult.CLOSED));
    }
  }

  /**
   * Close answers every request and leaves none hanging: requests applied behind a held sync and
   * requests queued behind them are stored and answered CREATED; producers racing the close get
   * CREATED (stored), CLOSED or OVERLOADED, each at once or by the close; the store holds exactly
   * the CREATED hooks; close is idempotent, may be called from a producer's callback on the
   * writer's own thread (it then only starts), and keeps its caller's interrupt.
   */
  @Example
  default void closeAnswersEveryPendingRequestAndLeavesNoneHanging() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      WriterGates store = WriterGates.over(backend(), t);
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
      QueueWriter writer =
          QueueWriter.start(
              queue, WriterConfig.defaults().withQueueCapacity(20).withMaxGroupHooks(4));
      List<CompletableFuture<IngestResult>> beforeClose = new ArrayList<>();
      List<CompletableFuture<IngestResult>> racing = new CopyOnWriteArrayList<>();
      Thread closer = new Thread(writer::close, "closer");
      try {
        store.holdSyncs();
        for (int i = 0; i < 30; i++) {
          if (i == 20) {
            awaitUntil("20 hooks applied behind the held sync", () -> writer.appliedSeq() == 20);
          }
          beforeClose.add(writer.ingest(request("t" + (i % 5), "k" + i, 1)));
        }
        assertThat(beforeClose).noneMatch(CompletableFuture::isDone);
        closer.start();
        List<Thread> producers =
            IntStream.range(0, 2)
                .mapToObj(
                    p ->
                        new Thread(
                            () -> {
                              for (int i = 0; i < 50; i++) {
                                racing.add(writer.ingest(request("r" + p, null, 1)));
                              }
                            }))
                .toList();
        producers.forEach(Thread::start);
        for (Thread p : producers) {
          p.join(TimeUnit.SECONDS.toMillis(THREAD_WAIT_SECONDS));
        }
      } finally {
        store.releaseAll();
      }
      closer.join(TimeUnit.SECONDS.toMillis(THREAD_WAIT_SECONDS));
      assertThat(closer.isAlive()).as("close returned").isFalse();
      assertThat(beforeClose)
          .as("every request queued before close was stored")
          .allMatch(f -> f.isDone() && f.join().outcome() == Outcome.CREATED);
      assertThat(racing).hasSize(100).allMatch(CompletableFuture::isDone);
      assertThat(racing)
          .allMatch(
              f ->
                  f.join().outcome() == Outcome.CREATED
                      || f.join().equals(IngestResult.unavailable(IngestResult.CLOSED))
                      || f.join().equals(IngestResult.unavailable(IngestResult.OVERLOADED)));
      List<Long> created = new ArrayList<>();
      beforeClose.forEach(f -> created.add(f.join().seq()));
      racing.stream()
          .map(CompletableFuture::join)
          .filter(r -> r.outcome() == Outcome.CREATED)
          .forEach(r -> created.add(r.seq()));
      assertThat(storedSeqs(store)).containsExactlyInAnyOrderElementsOf(created);
      assertThat(writer.durableSeq()).isEqualTo(created.size());
      writer.close();
      CompletableFuture<IngestResult> after = writer.ingest(request("t", null, 1));
      assertThat(after).as("refused at once after close").isDone();
      assertThat(after.join()).isEqualTo(IngestResult.unavailable(IngestResult.CLOSED));
      assertThat(after.join().retryable()).isTrue();

      QueueWriter second = QueueWriter.start(queue, WriterConfig.defaults());
      store.holdSyncs();
      CompletableFuture<IngestResult> first = second.ingest(request("t", null, 1));
      CompletableFuture<Void> closedFromCallback = first.thenRun(second::close);
      store.awaitHeldSync();
      store.releaseSyncs();
      closedFromCallback.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      assertThat(first.join().outcome()).isEqualTo(Outcome.CREATED);
      assertThat(second.ingest(request("t", null, 1)).join())
          .as("closing once a callback closed it")
          .isEqualTo(IngestResult.unavailable(IngestResult.CLOSED));
      Thread.currentThread().interrupt();
      second.close();
      assertThat(Thread.interrupted()).as("close keeps its caller's interrupt").isTrue();
      assertThat(second.threads()).noneMatch(Thread::isAlive);
      assertClean(store, "after close");
    }
  }

  /**
   * Each {@link IngestResult} outcome as a producer sees it: a request breaking a rule is REJECTED
   * at once naming the rule (not retryable, nothing stored); at exactly {@code maxPayloadBytes} it
   * is CREATED; a new tenant beyond {@code tenants.max} is TENANT_LIMIT (retryable, no ordinal, no
   * dedupe key, also for a second request with its key) while an existing tenant is CREATED; a full
   * queue answers OVERLOADED at once; duplicates answer the original seq, per tenant.
   */
  @Example
  default void eachOutcomeIsWhatTheProducerIsPromised() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      WriterGates store = WriterGates.over(backend(), t);
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig().withTenantsMax(2));
      int maxValue = capabilities().maxValueBytes();
      WriterConfig config = WriterConfig.defaults().withMaxPayloadBytes(maxValue);
      try (QueueWriter writer = QueueWriter.start(queue, config)) {
        byte[] ok = new byte[16];
        List<Integer> sinks = List.of(1);
        String longKey = "k".repeat(capabilities().maxKeyBytes());
        assertRejected(
            writer,
            new IngestRequest("", "s", "h", null, 1, sinks, ok),
            IngestResult.REJECT_BAD_TENANT);
        assertRejected(
            writer,
            new IngestRequest("a\0b", "s", "h", null, 1, sinks, ok),
            IngestResult.REJECT_BAD_TENANT);
        assertRejected(
            writer,
            new IngestRequest("t", null, "h", null, 1, sinks, ok),
            IngestResult.REJECT_MISSING_SOURCE);
        assertRejected(
            writer,
            new IngestRequest("t", "s", null, null, 1, sinks, ok),
            IngestResult.REJECT_MISSING_HOOK_ID);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, List.of(), ok),
            IngestResult.REJECT_EMPTY_SINKS);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, null, ok),
            IngestResult.REJECT_EMPTY_SINKS);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, List.of(1, 65_536), ok),
            IngestResult.REJECT_BAD_SINK);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, List.of(-1), ok),
            IngestResult.REJECT_BAD_SINK);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, Arrays.asList(1, null), ok),
            IngestResult.REJECT_BAD_SINK);
        assertRejected(
            writer,
            new IngestRequest(
                "t", "s", "h", null, 1, IntStream.range(0, 65_536).boxed().toList(), ok),
            IngestResult.REJECT_BAD_SINK);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, List.of(3, 1, 3), ok),
            IngestResult.REJECT_DUPLICATE_SINK);
        List<Integer> many = new ArrayList<>(IntStream.range(0, 40).boxed().toList());
        many.add(7);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, many, ok),
            IngestResult.REJECT_DUPLICATE_SINK);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, sinks, null),
            IngestResult.REJECT_MISSING_PAYLOAD);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, -1, sinks, ok),
            IngestResult.REJECT_BAD_RECEIVED_AT);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", "", 1, sinks, ok),
            IngestResult.REJECT_BAD_IDEMPOTENCY_KEY);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", longKey, 1, sinks, ok),
            IngestResult.REJECT_BAD_IDEMPOTENCY_KEY);
        byte[] atMax = new byte[maxValue];
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, sinks, atMax),
            IngestResult.REJECT_OVERSIZED_HOOK);
        assertThat(writer.stats().hooks()).as("nothing rejected was stored").isZero();
      }
      try (QueueWriter writer =
          QueueWriter.start(queue, WriterConfig.defaults().withMaxPayloadBytes(16))) {
        List<Integer> sinks = List.of(1, 2);
        assertRejected(
            writer,
            new IngestRequest("t", "s", "h", null, 1, sinks, new byte[17]),
            IngestResult.REJECT_OVERSIZED_PAYLOAD);
        assertThat(
                await(
                    writer.ingest(
                        new IngestRequest(null, "s", "h", "idem", 1, sinks, new byte[16]))))
            .as("exactly maxPayloadBytes, no tenant (default)")
            .isEqualTo(IngestResult.created(1));
        assertThat(Tenants.ord(store, TenantId.DEFAULT)).hasValue(1);
        List<IngestResult> r =
            List.of(
                    writer.ingest(request("b", null, 1)), writer.ingest(request("c", "kc", 1)),
                    writer.ingest(request("c", "kc", 2)), writer.ingest(request(null, null, 1)))
                .stream()
                .map(WriterCases::await)
                .toList();
        assertThat(r.get(0)).isEqualTo(IngestResult.created(2));
        assertThat(r.get(1).outcome())
            .as("a third tenant at tenants.max = 2")
            .isEqualTo(Outcome.TENANT_LIMIT);
        assertThat(r.get(1).seq()).isZero();
        assertThat(r.get(1).reason()).contains("'c'").contains("tenants.max is 2");
        assertThat(r.get(1).retryable()).isTrue();
        assertThat(r.get(2).outcome())
            .as("the same key again shares the refusal")
            .isEqualTo(Outcome.TENANT_LIMIT);
        assertThat(r.get(3)).as("an existing tenant at the cap").isEqualTo(IngestResult.created(3));
        assertThat(Tenants.ord(store, TenantId.of("c"))).isEmpty();
        assertThat(Tenants.nextOrdinal(store)).isEqualTo(3);
        assertThat(store.get(Format3.INDEX, Keys.dedupe(TenantId.of("c"), "kc".getBytes())))
            .isNull();

        TenantCounts before = queue.counters().aggregate(store);
        assertThat(
                await(
                    writer.ingest(
                        new IngestRequest(null, "s", "h2", "idem", 1, sinks, new byte[1]))))
            .as("a duplicate from the store")
            .isEqualTo(IngestResult.duplicate(1));
        assertThat(
                await(
                        writer.ingest(
                            new IngestRequest("b", "s", "h3", "idem", 1, sinks, new byte[1])))
                    .outcome())
            .as("the same key under another tenant")
            .isEqualTo(Outcome.CREATED);
        String longestKey =
            "k"
                .repeat(
                    capabilities().maxKeyBytes() - 11); // 'e' at:64 "b" 0 key: exactly maxKeyBytes
        assertThat(
                await(
                    writer.ingest(
                        new IngestRequest("b", "s", "h4", longestKey, 1, sinks, new byte[1]))))
            .as("the longest idempotency key the backend's keys hold")
            .isEqualTo(IngestResult.created(5));
        assertThat(IngestResult.duplicate(1).retryable()).isFalse();
        assertThat(IngestResult.created(1).retryable()).isFalse();
        assertThat(queue.counters().aggregate(store).pending()).isEqualTo(before.pending() + 4);
        assertThat(storedSeqs(store)).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(
                await(
                    writer.ingest(
                        new IngestRequest(
                            "b", "s", "h5", null, 0, List.of(0, 65_535), new byte[1]))))
            .as("the bounds themselves: sinks 0 and 65535, receivedAt 0")
            .isEqualTo(IngestResult.created(6));
      }
      try (QueueWriter writer =
              QueueWriter.start(
                  queue, WriterConfig.defaults().withQueueCapacity(2).withMaxGroupHooks(1));
          AutoCloseable gates = store::releaseAll) {
        store.holdSyncs();
        List<CompletableFuture<IngestResult>> accepted = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          CompletableFuture<IngestResult> f = writer.ingest(request("b", null, 1));
          if (f.isDone()) {
            assertThat(f.join())
                .as("refused at once when full")
                .isEqualTo(IngestResult.unavailable(IngestResult.OVERLOADED));
          } else {
            accepted.add(f);
          }
        }
        assertThat(accepted.size())
            .as("2 waiting for the sync, 2 queued, one group in the writer's hands")
            .isBetween(2, 5);
        assertThat(writer.appliedSeq() - writer.durableSeq())
            .as("applied hooks waiting for a sync")
            .isLessThanOrEqualTo(2);
        store.releaseSyncs();
        assertThat(accepted.stream().map(WriterCases::await))
            .allMatch(r -> r.outcome() == Outcome.CREATED);
        assertThat(await(writer.ingest(request("b", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
      }
      assertClean(store, "after every outcome");
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

  private static void assertRejected(QueueWriter writer, IngestRequest r, String code) {
    CompletableFuture<IngestResult> f = writer.ingest(r);
    assertThat(f).as("REJECTED %s completes at once", code).isDone();
    IngestResult result = f.join();
    assertThat(result.outcome()).as(code).isEqualTo(Outcome.REJECTED);
    assertThat(result.seq()).isZero();
    assertThat(result.reasonCode()).isEqualTo(code);
    assertThat(result.reason()).startsWith(code + ": ").hasSizeGreaterThan(code.length() + 10);
    assertThat(result.retryable()).as("%s is not retryable", code).isFalse();
  }

  /**
   * A request of {@code tenant} (null: default) with a unique hook id, received at {@code START}.
   */
  private static IngestRequest request(String tenant, String idempotencyKey, int... sinks) {
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

  /** A request whose only bytes are a payload of {@code payloadBytes} (no tenant, empty ids). */
  private static IngestRequest sized(int payloadBytes) {
    return new IngestRequest(null, "", "", null, START, List.of(1), new byte[payloadBytes]);
  }

  private static IngestResult await(CompletableFuture<IngestResult> f) {
    try {
      return f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("an ingest was not answered: " + e, e);
    }
  }

  private static void awaitBarrier(CyclicBarrier barrier) {
    try {
      barrier.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Waits (yielding, no sleep) until {@code condition} holds: for a state the writer's threads
   * reach without a hook to wait on. Fails after {@link LayoutAssertions#THREAD_WAIT_SECONDS}.
   */
  private static void awaitUntil(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(THREAD_WAIT_SECONDS);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not reached within " + THREAD_WAIT_SECONDS + " s: " + what);
      }
      Thread.yield();
    }
  }

  /** The seqs of every hook envelope in the store. */
  private static TreeSet<Long> storedSeqs(ReadView view) {
    TreeSet<Long> seqs = new TreeSet<>();
    CounterFold.foldFamily(
        view, KeyFamily.HOOK, e -> seqs.add(HookEnvelope.decode(e.value()).seq()));
    return seqs;
  }

  private static void assertClean(ReadView view, String when) {
    assertCountersEqualFold(view, when);
    assertThat(QueueVerifier.verify(view)).as("%s: the verifier finds nothing", when).isEmpty();
  }
}
