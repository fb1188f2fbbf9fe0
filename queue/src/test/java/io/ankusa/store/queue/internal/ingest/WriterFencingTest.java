package io.ankusa.store.queue.internal.ingest;

import static io.ankusa.store.queue.internal.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.await;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.request;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.storedSeqs;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.tenant.Tenants;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A failed sync or write fences the queue: covered and later requests are UNAVAILABLE, durableSeq
 * stays, every never-acknowledged group is deleted (rows, counts, dedupe keys, new ordinals) before
 * the watermark moves, nothing refused is ever dispatched, and the retry stores the hook once.
 */
class WriterFencingTest {
  private static final IngestResult FENCED = IngestResult.unavailable(IngestResult.FENCED);

  /**
   * @param failure {@code sync}, {@code write-applied} (the engine took the batch, then reported a
   *     failure) or {@code write-lost}
   * @param drop whether the store's recovery drops every write since the last good sync (the cases
   *     where it does not are the conformance suite's {@code WriterRefusalCases}, run on every
   *     backend)
   */
  @ParameterizedTest(name = "{0}, drop unsynced = {1}")
  @CsvSource({"sync,true", "write-applied,true"})
  void fenceDeletesUnacknowledgedGroupsAndResumes(String failure, boolean drop) throws Exception {
    try (WriterFixture fx = new WriterFixture()) {
      if (drop) {
        fx.store.dropUnsyncedOnReopen();
      }
      try (QueueWriter writer =
              QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(1));
          AutoCloseable openGate = fx.store::openSyncGate;
          AutoCloseable openWrites = fx.store::openWriterWriteGate) {
        fenceAndRepair(fx, writer, failure);
      }
      assertClean(fx.store);
    }
  }

  private static void fenceAndRepair(WriterFixture fx, QueueWriter writer, String failure)
      throws Exception {
    IngestResult acked = await(writer.ingest(request("old", "k-old", 1, 2)));
    assertThat(acked.outcome()).isEqualTo(Outcome.CREATED);
    long durableBefore = writer.durableSeq();
    long nextOrdBefore = Tenants.nextOrdinal(fx.store);
    TenantCounts countsBefore = fx.queue.counters().aggregate(fx.store);

    // Hold the syncer, and let groups pile up behind it: one in the sync, the rest queued behind.
    fx.store.holdSyncs();
    List<Long> durableWhenRefused = new CopyOnWriteArrayList<>();
    // newco's group comes first, so every failure mode fences a group that created an ordinal.
    List<IngestRequest> refusedRequests =
        List.of(
            request("newco", "k2", 1, 2, 3),
            request("old", "k1", 1),
            request("newco", null, 4),
            request("other-new", "k3", 1),
            request("old", "k-old", 1) /* a duplicate: fenced too */);
    if (!failure.equals("sync")) {
      // Every request is queued before the failing write runs, so all of them arrive before it.
      fx.store.holdWriterWrites();
      fx.store.failNextNoSyncWrite(failure.equals("write-applied"));
    }
    List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
    for (IngestRequest r : refusedRequests) {
      CompletableFuture<IngestResult> f = writer.ingest(r);
      f.thenAccept(x -> durableWhenRefused.add(writer.durableSeq()));
      futures.add(f);
    }
    // Dispatch runs meanwhile, at the writer's watermark, far in the future so every row is due.
    Dispatcher dispatcher = new Dispatcher(fx.queue, writer::durableSeq, 1000, 1 << 30);
    List<Long> claimedSeqs = new CopyOnWriteArrayList<>();
    AtomicBoolean dispatching = new AtomicBoolean(true);
    Thread dispatch =
        new Thread(
            () -> {
              while (dispatching.get()) {
                dispatcher
                    .tick(10_000_000)
                    .claimed()
                    .forEach(row -> claimedSeqs.add(row.key().seq()));
              }
            });
    dispatch.start();
    if (failure.equals("sync")) {
      fx.store.awaitHeldSync();
      // The writer applies the groups queued behind the held sync at its own pace; fail the sync
      // only once other-new's group is applied, so the fence has two allocated ordinals to retire.
      eventually(
          "every group is applied behind the held sync",
          () -> Tenants.ord(fx.store, TenantId.of("other-new")).isPresent());
      fx.store.failNextSync();
    }
    fx.store.openWriterWriteGate();
    fx.store.openSyncGate();

    for (CompletableFuture<IngestResult> f : futures) {
      assertThat(await(f)).isEqualTo(FENCED);
    }
    eventually(
        "writer resumed", () -> !writer.isFenced() && writer.durableSeq() == writer.appliedSeq());
    dispatching.set(false);
    dispatch.join();
    eventually(
        "every refusal callback ran", () -> durableWhenRefused.size() == refusedRequests.size());
    assertThat(durableWhenRefused)
        .as("durableSeq stays while refusing")
        .containsOnly(durableBefore);
    assertThat(fx.store.reportedFailures()).isEqualTo(1);
    assertThat(writer.stats().fences()).isEqualTo(1);

    // Nothing of a refused request is left, and nothing of one was dispatched.
    long fencedTop = writer.appliedSeq();
    assertThat(fencedTop).isGreaterThan(durableBefore);
    assertThat(storedSeqs(fx.store)).containsExactly(acked.seq());
    assertThat(claimedSeqs).allMatch(seq -> seq <= durableBefore);
    // Ordinals are never reused: each one a fenced group allocated is retired, not handed out
    // again.
    // A failed sync fences every group (newco and other-new were allocated); a failed write fences
    // newco's group, and the requests queued behind it were refused before they were applied.
    long retiredOrdinals = failure.equals("sync") ? 2 : 1;
    assertThat(Tenants.ord(fx.store, TenantId.of("newco"))).isEmpty();
    assertThat(Tenants.ord(fx.store, TenantId.of("other-new"))).isEmpty();
    assertThat(Tenants.nextOrdinal(fx.store))
        .as("m:next_ord never moves back")
        .isEqualTo(nextOrdBefore + retiredOrdinals);
    for (long retired = nextOrdBefore; retired < nextOrdBefore + retiredOrdinals; retired++) {
      assertThat(fx.store.get(Format3.TENANTS, Keys.tenantByOrd(retired)))
          .as("'t' %d is a tombstone", retired)
          .isEmpty();
      assertThat(Counters.readAll(fx.store))
          .as("no counter row of retired ordinal %d", retired)
          .doesNotContainKey(retired);
    }
    assertThat(fx.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("old"), "k1".getBytes())))
        .isNull();
    assertThat(fx.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("newco"), "k2".getBytes())))
        .isNull();
    assertThat(fx.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("old"), "k-old".getBytes())))
        .isNotNull();
    assertThat(fx.queue.lastSeq())
        .as("m:last_seq kept: seqs are never reused")
        .isEqualTo(fencedTop);
    assertClean(fx.store);
    // What dispatch claimed from the acked hook moved counts only between its own fields.
    assertThat(fx.queue.counters().aggregate(fx.store).bytes()).isEqualTo(countsBefore.bytes());

    // Resume: the watermark stands at the writer's seq, and the retries store each hook once.
    assertThat(writer.durableSeq()).isEqualTo(fencedTop);
    List<IngestResult> retries = new ArrayList<>();
    for (IngestRequest r : refusedRequests) {
      retries.add(await(writer.ingest(r)));
    }
    assertThat(retries.subList(0, 4))
        .allMatch(r -> r.outcome() == Outcome.CREATED && r.seq() > fencedTop);
    assertThat(retries.get(4)).isEqualTo(IngestResult.duplicate(acked.seq()));
    assertThat(await(writer.ingest(refusedRequests.get(0))))
        .isEqualTo(IngestResult.duplicate(retries.get(0).seq()));
    assertThat(Tenants.ord(fx.store, TenantId.of("newco")))
        .as("no ordinal is reused: newco comes back under a new one")
        .hasValue(nextOrdBefore + retiredOrdinals);
    assertThat(Tenants.ord(fx.store, TenantId.of("other-new")))
        .hasValue(nextOrdBefore + retiredOrdinals + 1);
    assertThat(Tenants.name(fx.store, nextOrdBefore))
        .as("the retired ordinal names no tenant")
        .isEmpty();
    assertThat(storedSeqs(fx.store)).hasSize(5);
    assertThat(writer.durableSeq()).isEqualTo(writer.appliedSeq());
  }

  /**
   * A retired ordinal still counts toward tenants.max: the cap limits the ordinals allocated, and a
   * retired one is never handed out again. With tenants.max = 2, tenant b's group is fenced
   * (ordinal 2 retired), so b's retry is refused with TENANT_LIMIT while the existing tenant a
   * still ingests.
   */
  @org.junit.jupiter.api.Test
  void aRetiredOrdinalCountsTowardTenantsMax() {
    try (WriterFixture fx = new WriterFixture(QueueConfig.defaults().withTenantsMax(2))) {
      try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults())) {
        assertThat(await(writer.ingest(request("a", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        fx.store.failNextSync();
        assertThat(await(writer.ingest(request("b", null, 1)))).isEqualTo(FENCED);
        eventually(
            "writer resumed",
            () -> !writer.isFenced() && writer.durableSeq() == writer.appliedSeq());
        assertThat(Tenants.count(fx.store))
            .as("ordinals allocated, the retired 2 included")
            .isEqualTo(2);
        assertThat(await(writer.ingest(request("b", null, 1))).outcome())
            .as("b's retry at the cap")
            .isEqualTo(Outcome.TENANT_LIMIT);
        assertThat(await(writer.ingest(request("a", null, 1))).outcome())
            .as("an existing tenant at the cap")
            .isEqualTo(Outcome.CREATED);
      }
      assertClean(fx.store);
    }
  }

  /**
   * A random ingest stream with one failure somewhere: what the store holds is exactly what was
   * CREATED.
   */
  @Property
  void storeHoldsExactlyTheCreatedHooks(@ForAll("scenarios") Scenario s) {
    try (WriterFixture fx = new WriterFixture()) {
      if (s.drop()) {
        fx.store.dropUnsyncedOnReopen();
      }
      try (QueueWriter writer =
          QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(s.groupSize()))) {
        runScenario(fx, writer, s);
      }
      assertClean(fx.store);
    }
  }

  private static void runScenario(WriterFixture fx, QueueWriter writer, Scenario s) {
    List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
    for (int i = 0; i < s.requests().size(); i++) {
      if (i == s.failAt()) {
        if (s.failSync()) {
          fx.store.failNextSync();
        } else {
          fx.store.failNextNoSyncWrite(s.applyFailedWrite());
        }
      }
      futures.add(writer.ingest(s.requests().get(i)));
    }
    List<IngestResult> results = futures.stream().map(WriterFixture::await).toList();
    eventually(
        "writer settled", () -> !writer.isFenced() && writer.durableSeq() == writer.appliedSeq());
    List<Long> created =
        results.stream()
            .filter(r -> r.outcome() == Outcome.CREATED)
            .map(IngestResult::seq)
            .toList();
    assertThat(storedSeqs(fx.store)).containsExactlyInAnyOrderElementsOf(created);
    for (IngestResult r : results) {
      assertThat(r.outcome()).isIn(Outcome.CREATED, Outcome.DUPLICATE, Outcome.UNAVAILABLE);
      if (r.outcome() == Outcome.DUPLICATE) {
        assertThat(created).contains(r.seq());
      }
    }
    assertThat(writer.durableSeq()).isEqualTo(fx.queue.lastSeq());
  }

  record Scenario(
      List<IngestRequest> requests,
      int groupSize,
      int failAt,
      boolean failSync,
      boolean applyFailedWrite,
      boolean drop) {
    @Override
    public String toString() {
      return "Scenario["
          + requests.size()
          + " requests, group "
          + groupSize
          + ", fail "
          + (failSync ? "sync" : "write")
          + " armed before request "
          + failAt
          + ", applied "
          + applyFailedWrite
          + ", drop "
          + drop
          + "]";
    }
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<IngestRequest> one =
        Combinators.combine(
                Arbitraries.of("a", "b", "c", "d"),
                Arbitraries.of("k1", "k2", "k3").injectNull(0.5),
                Arbitraries.integers().between(0, 3).set().ofMinSize(1).ofMaxSize(3))
            .as(
                (tenant, key, sinks) ->
                    request(tenant, key, sinks.stream().mapToInt(Integer::intValue).toArray()));
    return Combinators.combine(
            one.list().ofMinSize(1).ofMaxSize(30),
            Arbitraries.integers().between(1, 5),
            Arbitraries.integers().between(0, 29),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false))
        .as(Scenario::new);
  }
}
