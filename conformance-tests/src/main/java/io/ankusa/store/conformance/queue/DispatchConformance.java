package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.DispatchBacklogs.NOW;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.countOf;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.deliver;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.inRange;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.ingestBacklogs;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.ingestNewestFirst;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.ConformanceSuite;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.DispatchPolicy;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TenantLimits;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Layer 2c of the conformance suite: how the dispatcher shares its ticks among tenants, on the
 * backend a concrete subclass names (as {@link LayoutConformance} does).
 *
 * <ol>
 *   <li>{@link #everyBackloggedTenantGetsItsWeightedShare} — with any mix of tenant backlogs,
 *       weights and tick sizes, each tenant that stays backlogged gets its weighted fair share of
 *       the claimed cost within one quantum per unit of weight plus one row, and between two of its
 *       runs of claims every other backlogged tenant has exactly one (no tenant goes a round
 *       without a claim);
 *   <li>{@link #aTenantAtItsInflightLimitIsSkippedAndResumesWhenRowsComplete} — the inflight limit,
 *       and the rows-per-tick limit, read from the store;
 *   <li>{@link #aRowPutBehindWhereTheLastTickStoppedIsClaimed} — a late row behind a tenant's
 *       cursor;
 *   <li>{@link #tenantLimitsAreInvisibleToEveryReadOfTheOlderFormatThree} — what a reader that does
 *       not know the limits key does with a store that holds it: never sees it;
 *   <li>where scans that move rows resume ({@link ScanResumeCases}): the dispatcher's cursors in
 *       {@link #aTickResumesItsScanAtTheLastRowItClaimed}, {@link
 *       #aRowPutWhileATickScansIsClaimedByTheNextTick} (forced between the scan and the cursor's
 *       move), {@link #aRowAboveTheWatermarkIsNeverPassed}, {@link
 *       #aDrainedTenantResumesAtItsLastClaimAndStillSeesRowsPutBehind}, {@link
 *       #rowsPutBehindTheCursorInItsSecondAreClaimed}; purge and recovery chunks in {@link
 *       #eachPurgeChunkResumesAtThePreviousOne}, {@link #eachRecoveryChunkResumesAtThePreviousOne};
 *   <li>{@link #roundRobinResumesWhereTheLastTickStopped} — the exact claim order of five ticks, a
 *       visit cut short resuming without a new quantum, and an idle tick that writes nothing;
 *   <li>{@link #theTicksByteBudgetAndRowLimitsAreExact} — the byte budget, the row limit and a
 *       tenant's rows-per-tick limit across rounds, to the row;
 *   <li>{@link #oldestFirstServesTheOldestBacklogUpToTheWholeTick} — the other claim order;
 *   <li>{@link #aRowAboveTheWatermarkIsClaimedOnceItIsDurable} — nothing above the durable
 *       watermark, and nothing behind it skipped for good;
 *   <li>how a tick writes its claims among the store's other writers ({@link TickWriteCases}):
 *       {@link #aFailedClaimWriteLeavesTheRowsDueForTheNextTick} — an injected write failure;
 *       {@link #oneRoundOfSeveralTenantsIsOneClaimBatch} and {@link
 *       #aBusyStripeMakesTheRoundWriteWhatItHasAndLetGoBeforeWaiting} — one write per round, and no
 *       wait while holding a stripe (forced: the case holds the stripe); {@link
 *       #aRowAnotherQueuePutBehindTheCursorIsClaimed} — a put that lowered no cursor, claimed
 *       within a bounded number of ticks; {@link #settlingAClaimedRowWaitsForItsTenantsStripe};
 *   <li>{@link #dispatchSettingsOutOfRangeAreRefused}.
 * </ol>
 *
 * <p>The backlogs the cases ingest, and the clock of their ticks, are {@link DispatchBacklogs}.
 */
public abstract class DispatchConformance extends ConformanceSuite
    implements ScanResumeCases, TickWriteCases {
  /** The quantum the properties use: small, so a window of a few ticks spans many rounds. */
  static final long QUANTUM = 512;

  /** The row cost the properties use. */
  static final long ROW_COST = 32;

  /** The largest payload generated: a row's cost stays within one quantum. */
  static final int MAX_PAYLOAD = 400;

  /**
   * The dispatcher under test. The suite's own mutant overrides this to dispatch oldest second
   * first, as before tenants were dispatched fairly; a backend's test class does not. Public
   * because {@link TickWriteCases} asks for it too.
   */
  @Override
  public Dispatcher dispatcher(DeliveryQueue queue, int rowLimit, long byteBudget) {
    return new Dispatcher(
        queue,
        () -> Long.MAX_VALUE,
        rowLimit,
        byteBudget,
        new DispatchPolicy(DispatchPolicy.ClaimOrder.DEFICIT_ROUND_ROBIN, QUANTUM, ROW_COST));
  }

  /** One tenant's backlog: its weight and the payload size of each of its rows, oldest first. */
  public record Backlog(int weight, List<Integer> payloads) {}

  /**
   * A generated case: the tenants' backlogs, the ticks' row limit and byte budget, how many ticks.
   */
  public record FairCase(List<Backlog> tenants, int rowLimit, long byteBudget, int ticks) {}

  @Provide
  Arbitrary<FairCase> fairCases() {
    Arbitrary<Backlog> backlog =
        Combinators.combine(
                Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(0, MAX_PAYLOAD).list().ofMinSize(1).ofMaxSize(100))
            .as(Backlog::new);
    return Combinators.combine(
            backlog.list().ofMinSize(2).ofMaxSize(6),
            Arbitraries.integers().between(1, 24),
            Arbitraries.longs().between(200, 8_000),
            Arbitraries.integers().between(1, 8))
        .as(FairCase::new);
  }

  /**
   * Tenants {@code t0 … tn} each get their backlog (tenant i's rows received in second i, so the
   * first tenant's backlog is the oldest), then the dispatcher runs the ticks. Over that window,
   * among the tenants that still have due rows after it (backlogged throughout): each one's claimed
   * cost (payload plus row cost) is within {@code weight × (QUANTUM + m / minWeight)} of its
   * weighted share of their total, m the largest row cost — one quantum plus one row for weight 1 —
   * and per unit of weight no two differ by more than {@code QUANTUM + m / min(their weights)}; and
   * in the sequence of their claims, between two runs of one tenant every other one has exactly one
   * run.
   */
  @Property
  public void everyBackloggedTenantGetsItsWeightedShare(@ForAll("fairCases") FairCase c) {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      List<Long> ords = ingestBacklogs(queue, c.tenants());
      Dispatcher dispatcher = dispatcher(queue, c.rowLimit(), c.byteBudget());
      Map<Long, Long> cost = new HashMap<>();
      List<Long> sequence = new ArrayList<>();
      for (int tick = 0; tick < c.ticks(); tick++) {
        for (InflightRow row : dispatcher.tick(NOW).claimed()) {
          cost.merge(row.key().ord(), row.size() + ROW_COST, Long::sum);
          sequence.add(row.key().ord());
        }
      }
      Map<Long, Integer> weightOf = new HashMap<>();
      List<Long> backlogged = new ArrayList<>();
      long maxRowCost = 0;
      for (int i = 0; i < ords.size(); i++) {
        weightOf.put(ords.get(i), c.tenants().get(i).weight());
        for (int p : c.tenants().get(i).payloads()) {
          maxRowCost = Math.max(maxRowCost, p + ROW_COST);
        }
        if (queue.counters().read(t.store(), ords.get(i)).pending() > 0) {
          backlogged.add(ords.get(i));
        }
      }
      String when =
          backend().name()
              + ": "
              + c
              + ", claims in order "
              + sequence
              + ", backlogged throughout "
              + backlogged;
      assertWeightedShares(backlogged, weightOf, cost, maxRowCost, when);
      assertOneRunPerRound(backlogged, sequence, when);
    }
  }

  /**
   * Each tenant's claimed cost per unit of weight ({@code x = cost / weight}) after V visits lies
   * in {@code [V·Q − m/weight, V·Q]} (what its deficit leaves unspent is less than one row), and
   * round-robin visit counts differ by at most one: so two backlogged tenants' {@code x} differ by
   * at most {@code Q + m / min(weights)}, and each one's cost is within {@code weight × (Q + m /
   * minWeight)} of its weighted share of their total.
   */
  private static void assertWeightedShares(
      List<Long> backlogged,
      Map<Long, Integer> weightOf,
      Map<Long, Long> cost,
      long maxRowCost,
      String when) {
    long total = 0;
    long weights = 0;
    int minWeight = Integer.MAX_VALUE;
    for (long ord : backlogged) {
      total += cost.getOrDefault(ord, 0L);
      weights += weightOf.get(ord);
      minWeight = Math.min(minWeight, weightOf.get(ord));
    }
    for (long ord : backlogged) {
      int w = weightOf.get(ord);
      double share = (double) total * w / weights;
      double bound = w * (QUANTUM + (double) maxRowCost / minWeight);
      assertThat(Math.abs(cost.getOrDefault(ord, 0L) - share))
          .as(
              "%s: tenant %d (weight %d) claimed %d cost bytes; its share of %d is %.1f, bound %.1f",
              when, ord, w, cost.getOrDefault(ord, 0L), total, share, bound)
          .isLessThanOrEqualTo(bound);
      for (long other : backlogged) {
        int v = weightOf.get(other);
        double perWeight = (double) cost.getOrDefault(ord, 0L) / w;
        double otherPerWeight = (double) cost.getOrDefault(other, 0L) / v;
        assertThat(perWeight - otherPerWeight)
            .as(
                "%s: tenant %d claimed %.1f cost bytes per unit of weight (weight %d), tenant %d %.1f (weight %d)",
                when, ord, perWeight, w, other, otherPerWeight, v)
            .isLessThanOrEqualTo(QUANTUM + (double) maxRowCost / Math.min(w, v));
      }
    }
  }

  private static void assertOneRunPerRound(
      List<Long> backlogged, List<Long> sequence, String when) {
    List<Long> runs = new ArrayList<>();
    for (long ord : sequence) {
      if (backlogged.contains(ord) && (runs.isEmpty() || runs.get(runs.size() - 1) != ord)) {
        runs.add(ord);
      }
    }
    for (int i = 0; i < runs.size(); i++) {
      int next = runs.subList(i + 1, runs.size()).indexOf(runs.get(i));
      if (next < 0) {
        continue;
      }
      List<Long> between = runs.subList(i + 1, i + 1 + next);
      for (long other : backlogged) {
        if (other != runs.get(i)) {
          assertThat(between.stream().filter(o -> o == other).count())
              .as(
                  "%s: runs of claims of tenant %d between two of tenant %d's (runs %s)",
                  when, other, runs.get(i), runs)
              .isEqualTo(1);
        }
      }
    }
  }

  /**
   * acme may have 2 rows inflight and globex 1 per tick (both stored with {@link TenantLimits});
   * acme has 5 due rows, globex 3. The first tick claims acme's 2 and globex's 1; the next claims
   * nothing of acme (it is skipped at its limit, its rows are left due) and 1 of globex; once one
   * of acme's rows is delivered, the next tick claims one more of acme, and the limits still hold
   * after the store is reopened (they are stored, not configured).
   */
  @Example
  public void aTenantAtItsInflightLimitIsSkippedAndResumesWhenRowsComplete() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      List<Long> ords =
          ingestBacklogs(
              queue,
              List.of(
                  new Backlog(1, List.of(10, 10, 10, 10, 10)),
                  new Backlog(1, List.of(10, 10, 10))));
      long acme = ords.get(0);
      long globex = ords.get(1);
      TenantLimits.set(queue, TenantId.of("t0"), new TenantLimitsValue(1, 2, 0));
      TenantLimits.set(queue, TenantId.of("t1"), new TenantLimitsValue(1, 0, 1));
      Dispatcher dispatcher = dispatcher(queue, 100, 1L << 20);
      String on = backend().name();

      List<InflightRow> first = dispatcher.tick(NOW).claimed();
      assertThat(countOf(first, acme))
          .as("%s: acme's claims in the first tick (max inflight 2)", on)
          .isEqualTo(2);
      assertThat(countOf(first, globex))
          .as("%s: globex's claims in the first tick (1 row per tick)", on)
          .isEqualTo(1);

      List<InflightRow> second = dispatcher.tick(NOW).claimed();
      assertThat(countOf(second, acme)).as("%s: acme's claims at its inflight limit", on).isZero();
      assertThat(countOf(second, globex))
          .as("%s: globex's claims in the second tick", on)
          .isEqualTo(1);
      assertThat(queue.counters().read(t.store(), acme).pending())
          .as("%s: acme's rows left due", on)
          .isEqualTo(3);

      deliver(queue, first.stream().filter(r -> r.key().ord() == acme).findFirst().orElseThrow());
      Store reopened = t.reopen();
      DeliveryQueue again = DeliveryQueue.open(reopened, QueueConfig.defaults());
      List<InflightRow> third = dispatcher(again, 100, 1L << 20).tick(NOW).claimed();
      assertThat(countOf(third, acme))
          .as(
              "%s: acme's claims after one of its rows was delivered and the store" + " reopened",
              on)
          .isEqualTo(1);
      assertThat(countOf(third, globex))
          .as("%s: globex's claims after the reopen", on)
          .isEqualTo(1);
      assertThat(again.counters().read(reopened, acme).inflight())
          .as("%s: acme's inflight", on)
          .isEqualTo(2);
    }
  }

  /**
   * A dispatcher resumes each tenant's scan where its last tick stopped, past the tombstones of the
   * rows it claimed. A row put behind that point afterwards is still claimed, also in the same
   * second (where the second's marker does not help): a hook received before every row left,
   * ingested late, and a claimed row retried at a time before the rows left. Then, with every row
   * claimed and the tenant drained, a new row is claimed by the next tick.
   */
  @Example
  public void aRowPutBehindWhereTheLastTickStoppedIsClaimed() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      long acme =
          ingestBacklogs(queue, List.of(new Backlog(1, List.of(10, 10, 10, 10, 10, 10)))).get(0);
      String on = backend().name();
      List<InflightRow> first = dispatcher(queue, 2, 1L << 20).tick(NOW).claimed();
      assertThat(first).as("%s: the first tick's claims (row limit 2)", on).hasSize(2);

      new DirectIngest(queue)
          .ingest(
              List.of(
                  new HookEnvelope(
                      0,
                      "t0",
                      "src",
                      "h-early",
                      null,
                      QueueDriver.START_MS,
                      List.of(1),
                      new byte[10])));
      long lateSeq = queue.lastSeq();
      QueueDriver driver = new QueueDriver(queue);
      InflightRow retried = first.get(1);
      Transition retry = new Transition();
      Deliveries.retry(
          retry,
          retried,
          driver.deliveryRow(retried.key().seq(), retried.key().sink()),
          QueueDriver.START_MS + 1,
          "503");
      queue.write(retry, Durability.SYNC);

      List<InflightRow> rest = dispatcher(queue, 100, 1L << 20).tick(NOW).claimed();
      assertThat(rest)
          .as("%s: the next tick claims the 4 rows left, the late hook and the retried row", on)
          .hasSize(6);
      assertThat(rest.get(0).key().seq())
          .as("%s: the late hook, received first, is claimed first", on)
          .isEqualTo(lateSeq);
      assertThat(rest)
          .extracting(r -> r.key().seq())
          .as("%s: the retried row is claimed again", on)
          .contains(retried.key().seq());
      assertThat(queue.counters().read(t.store(), acme).pending())
          .as("%s: acme's due rows after that tick", on)
          .isZero();

      // Drained: a row put now is claimed by the next tick.
      new DirectIngest(queue)
          .ingest(
              List.of(
                  new HookEnvelope(
                      0,
                      "t0",
                      "src",
                      "h-after-drain",
                      null,
                      QueueDriver.START_MS - 90_000,
                      List.of(1),
                      new byte[10])));
      assertThat(dispatcher(queue, 100, 1L << 20).tick(NOW).claimed())
          .as("%s: a row put after the tenant drained", on)
          .hasSize(1);
    }
  }

  /**
   * A store holding limits keys, read as format 3 read it before they existed: the keys are point
   * reads under {@code m:tenant_limits:}, a name no older release asks for, and nothing of format 3
   * scans the {@code default} family. So an older reader ignores them — it opens the store,
   * verifies it clean, measures its gauges and dispatches without them — and never refuses it.
   * Checked by recording every read: none of them touches a limits key, and the verifier finds no
   * breach.
   */
  @Example
  public void tenantLimitsAreInvisibleToEveryReadOfTheOlderFormatThree() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      List<Long> ords =
          ingestBacklogs(queue, List.of(new Backlog(1, List.of(5, 5)), new Backlog(1, List.of(5))));
      for (long ord : ords) {
        TenantLimits.set(queue, ord, new TenantLimitsValue(3, 7, 9));
      }
      RecordingStore recorded = new RecordingStore(t.store());
      DeliveryQueue older = DeliveryQueue.open(recorded, QueueConfig.defaults());
      assertThat(QueueVerifier.verify(recorded))
          .as("%s: the verifier on a store with limits", backend().name())
          .isEmpty();
      new QueueGauges(older).measure(NOW);
      new Dispatcher(older, () -> Long.MAX_VALUE, 10, 1 << 20, DispatchPolicy.oldestFirst());
      List<byte[]> limitKeys = new ArrayList<>();
      ords.forEach(ord -> limitKeys.add(Keys.tenantLimits(ord)));
      for (RecordingStore.ScanRead scan : recorded.scans()) {
        for (byte[] key : limitKeys) {
          assertThat(scan.family().equals(Format3.DEFAULT) && inRange(key, scan.lo(), scan.hi()))
              .as("%s: scan %s covers a limits key", backend().name(), scan)
              .isFalse();
        }
      }
      for (RecordingStore.PointRead point : recorded.pointReads()) {
        for (byte[] key : limitKeys) {
          assertThat(point.keys().stream().anyMatch(k -> Arrays.equals(k, key)))
              .as("%s: point read %s of a limits key", backend().name(), point)
              .isFalse();
        }
      }
    }
  }

  /**
   * Round-robin resumes where the last tick stopped. Tenants t0, t1, t2 (ordinals in that order,
   * t2's rows the oldest, t0's the newest) have 10 rows each of cost 128 (96 payload bytes plus the
   * row cost), so a quantum of 512 buys 4 rows; each tick claims at most 6 rows. The ticks claim,
   * in order: t0×4 t1×2 (t1's visit cut short by the tick's row limit) | t1×2 (resumed with what
   * its deficit kept, no new quantum) t2×4 | t0×4 t1×2 (t2 resumed with nothing left of its
   * quantum) | t1×2 t2×4 | t0×2 t1×2 t2×2 (t0 and t1 drain; t2, the last with work, takes what is
   * left) | nothing. Serving in ordinal order, not oldest first, is what makes t0 first. Every
   * claim is in the store when the tick returns, and an idle tick writes nothing. With 2 rows each
   * and ticks of 4 rows: t0×2 t1×2 (t1 drains as the tick fills); t0 and t1 get 2 more rows; the
   * next tick starts after t1: t2×2 t0×2, then t1×2.
   */
  @Example
  public void roundRobinResumesWhereTheLastTickStopped() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      WriteCountingStore store = new WriteCountingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      Map<Long, String> names = ingestNewestFirst(queue, 3, 10, 96);
      Dispatcher dispatcher = dispatcher(queue, 6, 1L << 20);
      List<String> ticks = new ArrayList<>();
      long claimed = 0;
      for (int i = 0; i < 6; i++) {
        List<InflightRow> rows = dispatcher.tick(NOW).claimed();
        claimed += rows.size();
        ticks.add(runs(rows, names));
      }
      String on = backend().name();
      assertThat(ticks)
          .as("%s: each tick's claims, in order (tenant×rows)", on)
          .containsExactly(
              "t0×4 t1×2", "t1×2 t2×4", "t0×4 t1×2", "t1×2 t2×4", "t0×2 t1×2 t2×2", "");
      assertThat(queue.counters().aggregate(store).inflight())
          .as("%s: rows inflight after the ticks", on)
          .isEqualTo(claimed)
          .isEqualTo(30);
      int writes = store.claimWrites.get();
      store.anyWrites.set(0);
      dispatcher.tick(NOW);
      assertThat(store.anyWrites.get()).as("%s: writes of a tick with nothing due", on).isZero();
      assertThat(writes).as("%s: batches that wrote claims", on).isPositive();
    }
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      Map<Long, String> names = ingestNewestFirst(queue, 3, 2, 96);
      Dispatcher dispatcher = dispatcher(queue, 4, 1L << 20);
      List<String> ticks = new ArrayList<>();
      ticks.add(runs(dispatcher.tick(NOW).claimed(), names));
      List<HookEnvelope> more = new ArrayList<>();
      for (String tenant : List.of("t0", "t1")) {
        for (int r = 0; r < 2; r++) {
          more.add(
              new HookEnvelope(
                  0,
                  tenant,
                  "src",
                  tenant + "-more-" + r,
                  null,
                  QueueDriver.START_MS + 10_000 + r,
                  List.of(1),
                  new byte[96]));
        }
      }
      new DirectIngest(queue).ingest(more);
      ticks.add(runs(dispatcher.tick(NOW).claimed(), names));
      ticks.add(runs(dispatcher.tick(NOW).claimed(), names));
      assertThat(ticks)
          .as(
              "%s: ticks of 4 rows over 2-row backlogs, t0 and t1 given 2 more rows after the first;"
                  + " a tick whose last tenant drained as it filled starts after that tenant",
              backend().name())
          .containsExactly("t0×2 t1×2", "t2×2 t0×2", "t1×2");
    }
  }

  /**
   * The tick's byte budget and row limit are exact. t0 and t1 have 10 rows of 96 bytes: with a
   * budget of 384 bytes t0's fourth row spends it exactly, so the tick ends there and visits no
   * other tenant ({@link Dispatcher.TickReport#tenantsVisited()} is 1); a lone tenant takes what is
   * left of the tick past its quantum but no more than the budget (4 rows) or the row limit (3
   * rows, then 10 rows with a limit of 10). A tenant limited to 3 rows per tick keeps that limit
   * across the tick's rounds (2 rows in the first, 1 in the second), and with a row cost of 0 the
   * quantum counts payload bytes only.
   */
  @Example
  public void theTicksByteBudgetAndRowLimitsAreExact() {
    String on = backend().name();
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      Map<Long, String> names = ingestNewestFirst(queue, 2, 10, 96);
      Dispatcher.TickReport spent = dispatcher(queue, 100, 384).tick(NOW);
      assertThat(runs(spent.claimed(), names))
          .as("%s: a tick with a budget of 4 rows' bytes", on)
          .isEqualTo("t0×4");
      assertThat(spent.tenantsVisited())
          .as("%s: tenants visited by a tick whose budget the first spent", on)
          .isEqualTo(1);
      assertThat(spent.activeTenants()).as("%s: tenants with rows due", on).isEqualTo(2);
    }
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      Map<Long, String> names = ingestNewestFirst(queue, 1, 20, 96);
      assertThat(runs(dispatcher(queue, 100, 384).tick(NOW).claimed(), names))
          .as("%s: a lone tenant, byte budget 384", on)
          .isEqualTo("t0×4");
      assertThat(runs(dispatcher(queue, 3, 1L << 20).tick(NOW).claimed(), names))
          .as("%s: a lone tenant, row limit 3", on)
          .isEqualTo("t0×3");
      assertThat(runs(dispatcher(queue, 10, 1L << 20).tick(NOW).claimed(), names))
          .as("%s: a lone tenant, row limit 10", on)
          .isEqualTo("t0×10");
    }
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      Map<Long, String> names = ingestNewestFirst(queue, 2, 10, 96);
      long t0 =
          names.entrySet().stream()
              .filter(e -> e.getValue().equals("t0"))
              .findFirst()
              .orElseThrow()
              .getKey();
      TenantLimits.set(queue, t0, new TenantLimitsValue(1, 0, 3));
      Dispatcher twoRowQuantum =
          new Dispatcher(
              queue,
              () -> Long.MAX_VALUE,
              100,
              1L << 20,
              new DispatchPolicy(DispatchPolicy.ClaimOrder.DEFICIT_ROUND_ROBIN, 192, 0));
      assertThat(runs(twoRowQuantum.tick(NOW).claimed(), names))
          .as(
              "%s: quantum 192 bytes, row cost 0 (2 rows a visit), t0 limited to 3 rows per tick",
              on)
          .isEqualTo("t0×2 t1×2 t0×1 t1×8");
    }
  }

  /**
   * Oldest second first ({@link DispatchPolicy#oldestFirst()}): t2, whose rows are the oldest,
   * takes the whole first tick (6 rows) and the first 4 of the second, then t1; the claims are in
   * the store when the tick returns.
   */
  @Example
  public void oldestFirstServesTheOldestBacklogUpToTheWholeTick() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      Map<Long, String> names = ingestNewestFirst(queue, 3, 10, 96);
      Dispatcher oldestFirst =
          new Dispatcher(queue, () -> Long.MAX_VALUE, 6, 1L << 20, DispatchPolicy.oldestFirst());
      String on = backend().name();
      assertThat(runs(oldestFirst.tick(NOW).claimed(), names))
          .as("%s: the first tick, oldest first", on)
          .isEqualTo("t2×6");
      assertThat(runs(oldestFirst.tick(NOW).claimed(), names))
          .as("%s: the second tick, oldest first", on)
          .isEqualTo("t2×4 t1×2");
      assertThat(queue.counters().aggregate(t.store()).inflight())
          .as("%s: rows inflight after two ticks", on)
          .isEqualTo(12);
    }
  }

  /**
   * A row above the durable watermark is never claimed, and is claimed once the watermark passes
   * it, even when a row behind it in key order was claimed meanwhile: acme's hook b (seq 1) is
   * received at +5 ms, hook a (seq 2) at +0 ms. With the watermark at 1 the tick claims b only (a
   * row whose seq is the watermark is durable); with it at 2, the next tick claims a.
   */
  @Example
  public void aRowAboveTheWatermarkIsClaimedOnceItIsDurable() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      DirectIngest ingest = new DirectIngest(queue);
      long b =
          ingest.ingest(
              new HookEnvelope(
                  0, "acme", "src", "b", null, QueueDriver.START_MS + 5, List.of(1), new byte[10]));
      long a =
          ingest.ingest(
              new HookEnvelope(
                  0, "acme", "src", "a", null, QueueDriver.START_MS, List.of(1), new byte[10]));
      long c =
          ingest.ingest(
              new HookEnvelope(
                  0, "acme", "src", "c", null, QueueDriver.START_MS + 1, List.of(1), new byte[10]));
      java.util.concurrent.atomic.AtomicLong watermark =
          new java.util.concurrent.atomic.AtomicLong(b);
      Dispatcher dispatcher =
          new Dispatcher(
              queue,
              watermark::get,
              100,
              1L << 20,
              new DispatchPolicy(DispatchPolicy.ClaimOrder.DEFICIT_ROUND_ROBIN, QUANTUM, ROW_COST));
      String on = backend().name();
      assertThat(dispatcher.tick(NOW).claimed())
          .extracting(r -> r.key().seq())
          .as("%s: claims with the watermark at seq %d (a = %d, c = %d above it)", on, b, a, c)
          .containsExactly(b);
      watermark.set(Math.max(a, c));
      assertThat(dispatcher.tick(NOW).claimed())
          .extracting(r -> r.key().seq())
          .as("%s: claims once the watermark passed a and c", on)
          .containsExactly(a, c);
    }
  }

  /**
   * The dispatch settings refuse what they cannot mean, naming it, and take every value in range: a
   * quantum of 0 bytes or a negative row cost ({@link DispatchPolicy}); {@code tenants.max} of 0 or
   * past the largest ordinal ({@link QueueConfig}). A quantum of 1, a row cost of 0 and {@code
   * tenants.max} of 1 or the largest ordinal are accepted.
   */
  @Example
  public void dispatchSettingsOutOfRangeAreRefused() {
    DispatchPolicy.ClaimOrder drr = DispatchPolicy.ClaimOrder.DEFICIT_ROUND_ROBIN;
    assertThatThrownBy(() -> new DispatchPolicy(drr, 0, 0))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("quantum 0 bytes");
    assertThatThrownBy(() -> new DispatchPolicy(drr, 1, -1))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("row cost -1 bytes");
    assertThat(new DispatchPolicy(drr, 1, 0).quantumBytes()).as("a quantum of 1 byte").isEqualTo(1);
    assertThatThrownBy(() -> new QueueConfig(0, false, false))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("tenants.max = 0");
    assertThatThrownBy(() -> new QueueConfig(Fields.MAX_ORDINAL + 1, false, false))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("tenants.max = " + (Fields.MAX_ORDINAL + 1));
    assertThat(QueueConfig.defaults().withTenantsMax(1).tenantsMax())
        .as("tenants.max 1")
        .isEqualTo(1);
    assertThat(QueueConfig.defaults().withTenantsMax(Fields.MAX_ORDINAL).tenantsMax())
        .as("tenants.max at the largest" + " ordinal")
        .isEqualTo(Fields.MAX_ORDINAL);
  }
}
