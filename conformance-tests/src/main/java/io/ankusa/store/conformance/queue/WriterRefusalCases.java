package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.THREAD_WAIT_SECONDS;
import static io.ankusa.store.conformance.queue.WriterChecks.assertClean;
import static io.ankusa.store.conformance.queue.WriterChecks.await;
import static io.ankusa.store.conformance.queue.WriterChecks.awaitUntil;
import static io.ankusa.store.conformance.queue.WriterChecks.request;
import static io.ankusa.store.conformance.queue.WriterChecks.storedSeqs;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import net.jqwik.api.Example;

/**
 * The ingest writer ({@link QueueWriter}) over the backend's store, when it does not store: each
 * {@link IngestResult} outcome is what the producer is promised (REJECTED naming the rule,
 * TENANT_LIMIT, OVERLOADED), a failed write or sync fails exactly the acknowledgements it covers
 * (and the store is told) and the writer repairs and resumes, a store that cannot recover keeps it
 * fenced until closed, and close answers every request. Syncs and the writer's writes are held at
 * gates ({@link WriterGates}), faults come from the fixture's {@link
 * io.ankusa.store.conformance.BackendFixture#injectFaults}; nothing waits on the wall clock. What
 * it answers when it stores is {@link WriterCases}.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface WriterRefusalCases extends LayoutCase {
  /** The answer to every request a fenced writer refuses. */
  IngestResult FENCED = IngestResult.unavailable(IngestResult.FENCED);

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
                .map(WriterChecks::await)
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
        assertThat(accepted.stream().map(WriterChecks::await))
            .allMatch(r -> r.outcome() == Outcome.CREATED);
        assertThat(await(writer.ingest(request("b", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
      }
      assertClean(store, "after every outcome");
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

  // ------------------------------------------------------------------ helpers

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
}
