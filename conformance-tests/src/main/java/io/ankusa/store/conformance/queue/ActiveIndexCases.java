package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.maintenance.TenantErase;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The active index: no due row without its marker (cleanup racing enqueues, a crash inside
 * cleanup), only tenants with due rows listed, the last millisecond inside every range read.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface ActiveIndexCases extends LayoutCase {
  /**
   * No due row without a marker: the generated sequences of {@link
   * CounterCases#countersEqualAFoldAfterAnySequenceOfTransitions}; after every action every {@code
   * 'D'} row has its {@code 'A' (at/1000) ord} marker.
   */
  @Property
  default void noDueRowWithoutAMarker(@ForAll("markerActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertEveryDueRowHasAMarker(t.store(), describe(i, actions, did));
      }
    }
  }

  /**
   * Cleanup does not lose a marker to a concurrent enqueue: tenant acme has a stale marker in
   * second B (its row there was claimed) and its first due row in a later second; the dispatcher's
   * cleanup deletes marker B. A writer commits a new acme row in second B (with its own marker):
   *
   * <ul>
   *   <li>before cleanup's step 1 — step 1 sees the row, nothing is deleted;
   *   <li>between step 1's read and step 2's delete (placed there by a {@link RecordingStore} that
   *       runs the writer just before the delete batch) — the delete removes the writer's marker
   *       and step 3 must put it back;
   *   <li>between step 2 and step 3 ({@link ActiveIndex#cleanup}'s {@code betweenDeleteAndVerify}
   *       seam) — the writer's own marker stands.
   * </ul>
   *
   * In every case the new row has its marker afterwards. Also: a tenant with no due row left loses
   * every scanned marker before the current second, and keeps the current second's.
   */
  @Property
  default void cleanupDoesNotLoseAMarkerToAConcurrentEnqueue(
      @ForAll @IntRange(min = 0, max = 999) int staleMs,
      @ForAll @IntRange(min = 0, max = 999) int writerMs,
      @ForAll @IntRange(min = 1, max = 5) int gapSeconds) {
    for (CleanupRace race : CleanupRace.values()) {
      runCleanupRace(race, staleMs, writerMs, gapSeconds);
    }
    cleanupOfADrainedTenant(staleMs, gapSeconds);
  }

  /** Where the writer's commit lands relative to cleanup's three steps. */
  enum CleanupRace {
    BEFORE_STEP_1,
    BETWEEN_STEP_1_AND_DELETE,
    BETWEEN_DELETE_AND_STEP_3
  }

  private void runCleanupRace(CleanupRace race, int staleMs, int writerMs, int gapSeconds) {
    String when =
        "writer commit "
            + race
            + " (stale row at +"
            + staleMs
            + " ms, writer row at +"
            + writerMs
            + " ms of second B, first due row "
            + gapSeconds
            + " s later)";
    try (TempDirStore t = openQueueStore()) {
      RecordingStore store = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(store, queueConfig());
      long bucketB = ActiveKey.bucketOf(START);
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START + staleMs, 1, 8),
                  d.newHook("acme", START + gapSeconds * 1000L + staleMs, 1, 8),
                  d.newHook("globex", START + staleMs, 1, 8)));
      long acme = ordOf(store, "acme");
      long globex = ordOf(store, "globex");
      Transition claim = new Transition();
      Deliveries.claim(claim, DueIndex.firstDue(store, acme));
      d.write(claim);
      long now = START + (gapSeconds + 10) * 1000L;
      List<Long> scanned = scannedBuckets(store, acme, now);
      assertThat(scanned)
          .as("%s: acme's markers seen by the dispatcher", when)
          .containsExactly(bucketB, bucketB + gapSeconds);

      AtomicBoolean writerRan = new AtomicBoolean();
      HookEnvelope enqueued = d.newHook("acme", START + writerMs, 1, 8);
      Runnable writer =
          () -> {
            d.ingest().ingest(enqueued);
            writerRan.set(true);
          };
      int deleted;
      switch (race) {
        case BEFORE_STEP_1:
          writer.run();
          deleted = ActiveIndex.cleanup(store, acme, scanned, now);
          assertThat(deleted)
              .as("%s: step 1 sees the new row in B, nothing is stale", when)
              .isZero();
          break;
        case BETWEEN_STEP_1_AND_DELETE:
          store.beforeWrite(ActiveIndexCases::deletesAMarker, writer);
          deleted = ActiveIndex.cleanup(store, acme, scanned, now);
          break;
        case BETWEEN_DELETE_AND_STEP_3:
          deleted = ActiveIndex.cleanup(store, acme, scanned, now, writer);
          break;
        default:
          throw new IllegalStateException(race.name());
      }
      assertThat(writerRan)
          .as("%s: the writer's commit took place (else the interleaving was not driven)", when)
          .isTrue();
      assertEveryDueRowHasAMarker(store, when);
      assertThat(ActiveIndex.all(store))
          .as("%s: markers afterwards", when)
          .contains(
              new ActiveKey(bucketB, acme),
              new ActiveKey(bucketB + gapSeconds, acme),
              new ActiveKey(bucketB, globex));
      assertThat(deleted).as("%s: markers reported deleted and not put back", when).isBetween(0, 1);
      assertThat(QueueVerifier.verify(store)).as("%s: verifier", when).isEmpty();
    }
  }

  private void cleanupOfADrainedTenant(int staleMs, int gapSeconds) {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      long bucketB = ActiveKey.bucketOf(START);
      long nowBucket = bucketB + gapSeconds + 10;
      long now = nowBucket * 1000 + staleMs;
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START + staleMs, 1, 8),
                  d.newHook("acme", START + gapSeconds * 1000L + staleMs, 1, 8),
                  d.newHook("acme", nowBucket * 1000 + staleMs / 2, 1, 8)));
      long acme = ordOf(store, "acme");
      Transition claimAll = new Transition();
      DueIndex.pendingForTenant(store, acme, 10).forEach(r -> Deliveries.claim(claimAll, r));
      d.write(claimAll);
      List<Long> scanned = scannedBuckets(store, acme, now);
      assertThat(scanned).containsExactly(bucketB, bucketB + gapSeconds, nowBucket);
      int deleted = ActiveIndex.cleanup(store, acme, scanned, now);
      assertThat(deleted)
          .as("a drained tenant loses every scanned marker before the current second")
          .isEqualTo(2);
      assertThat(ActiveIndex.all(store))
          .as("only the current second's marker is kept")
          .containsExactly(new ActiveKey(nowBucket, acme));
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /** Whether {@code batch} deletes an {@code 'A'} marker: cleanup's step 2. */
  static boolean deletesAMarker(Batch batch) {
    return batch.ops().stream().anyMatch(op -> op.accept(DELETES_A_MARKER));
  }

  Op.Visitor<Boolean> DELETES_A_MARKER =
      new Op.Visitor<>() {
        @Override
        public Boolean put(Op.Put p) {
          return false;
        }

        @Override
        public Boolean delete(Op.Delete d) {
          return d.family().equals(Format3.INDEX) && isMarker(d.key());
        }

        @Override
        public Boolean deleteRange(Op.DeleteRange r) {
          return false;
        }

        @Override
        public Boolean merge(Op.Merge m) {
          return false;
        }
      };

  private static boolean isMarker(byte[] key) {
    return key.length == 13 && key[0] == 'A';
  }

  /**
   * Active tenants are only tenants with due rows: after a dispatch tick (which claims and cleans),
   * the tenants {@link ActiveIndex#activeTenants} reports are exactly those with a due row at or
   * before now. Rows fall in past or future seconds, never the current one, except for one tenant
   * whose only row is in the current second: its marker outlives the claim by design (the current
   * second's marker is never deleted) and is gone after the next tick a second later, when the
   * equality holds exactly again.
   */
  @Property
  default void activeTenantsReturnsOnlyTenantsWithDueRows(
      @ForAll("dueSecondsPerTenant") List<List<Integer>> dueSeconds,
      @ForAll @IntRange(min = 1, max = 12) int rowLimit) {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      long nowBucket = ActiveKey.bucketOf(START) + 100;
      long now = nowBucket * 1000 + 500;
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < dueSeconds.size(); i++) {
        int k = 0;
        for (int offset : dueSeconds.get(i)) {
          hooks.add(
              d.newHook("tenant-" + i, (nowBucket + offset) * 1000 + (37L * ++k) % 1000, 1, 4));
        }
      }
      hooks.add(d.newHook("current-second", nowBucket * 1000 + 100, 1, 4));
      d.ingest().ingest(hooks);
      long current = ordOf(store, "current-second");

      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, rowLimit, Long.MAX_VALUE).tick(now);
      Set<Long> expected = tenantsWithDueRowsUpTo(store, now);
      expected.add(current);
      assertThat(activeOrds(store, now))
          .as(
              "after a tick at %d claiming up to %d rows: active tenants = tenants with"
                  + " due rows at <= now, plus the tenant claimed in the current second",
              now, rowLimit)
          .isEqualTo(expected);

      long later = now + 1000;
      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE)
          .tick(later);
      assertThat(activeOrds(store, later))
          .as("after a tick a second later claiming everything due")
          .isEqualTo(tenantsWithDueRowsUpTo(store, later));
      assertEveryDueRowHasAMarker(store, "after both ticks");
    }
  }

  /**
   * The {@code at} domain is closed: due rows at {@code Long.MAX_VALUE} and one millisecond before
   * are found by every range read — a purge removes both and the tenant can then be erased; a tick
   * at the last millisecond claims a row due then.
   */
  @Example
  default void theLastMillisecondIsInsideEveryRangeRead() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("edge", Long.MAX_VALUE, 1, 4),
                  d.newHook("edge", Long.MAX_VALUE - 1, 1, 4)));
      long edge = ordOf(store, "edge");
      assertThat(DueIndex.pendingForTenant(store, edge, 10)).as("edge's due rows").hasSize(2);
      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("edge"), EnumSet.of(Purge.Kind.DUE)))
          .as("rows purged, the one at Long.MAX_VALUE included")
          .isEqualTo(2);
      assertThat(TenantErase.erase(d.queue(), TenantId.of("edge")))
          .as("the purged tenant is erased")
          .isTrue();

      d.ingest().ingest(d.newHook("late", Long.MAX_VALUE, 1, 4));
      Dispatcher.TickReport tick =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 10, Long.MAX_VALUE).tick(Long.MAX_VALUE);
      assertThat(tick.rowsClaimed())
          .as("a tick at Long.MAX_VALUE claims the row due then")
          .isEqualTo(1);
      assertCountersEqualFold(store, "after the purge, the erase and the tick");
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /**
   * Cleanup never strands a row, however many seconds concurrent enqueues land in: tenant acme has
   * stale markers in seconds B and B+1 (their rows were claimed) and its first due row at B+5; the
   * dispatcher's cleanup deletes markers B and B+1. Two writers commit acme rows in B and in B+1 —
   * both just before the delete (placed there by a {@link RecordingStore}), or one before it and
   * one between the delete and the verify. Afterwards every due row has its marker.
   */
  @Example
  default void cleanupKeepsTheMarkersOfConcurrentEnqueuesInTwoSeconds() {
    for (boolean secondWriterAfterDelete : List.of(false, true)) {
      String when =
          secondWriterAfterDelete
              ? "one writer before the delete, one between delete and verify"
              : "both writers between cleanup's read and its delete";
      try (TempDirStore t = openQueueStore()) {
        RecordingStore store = new RecordingStore(t.store());
        QueueDriver d = new QueueDriver(store, queueConfig());
        long bucketB = ActiveKey.bucketOf(START);
        d.ingest()
            .ingest(
                List.of(
                    d.newHook("acme", START + 100, 1, 8),
                    d.newHook("acme", START + 1_100, 1, 8),
                    d.newHook("acme", START + 5_100, 1, 8)));
        long acme = ordOf(store, "acme");
        Transition claim = new Transition();
        DueIndex.pendingForTenant(store, acme, 2).forEach(r -> Deliveries.claim(claim, r));
        d.write(claim);
        long now = START + 10_000;
        List<Long> scanned = scannedBuckets(store, acme, now);
        assertThat(scanned)
            .as("%s: acme's markers", when)
            .containsExactly(bucketB, bucketB + 1, bucketB + 5);

        Runnable writerInB = () -> d.ingest().ingest(d.newHook("acme", START + 200, 1, 8));
        Runnable writerInB1 = () -> d.ingest().ingest(d.newHook("acme", START + 1_200, 1, 8));
        if (secondWriterAfterDelete) {
          store.beforeWrite(ActiveIndexCases::deletesAMarker, writerInB);
          ActiveIndex.cleanup(store, acme, scanned, now, writerInB1);
        } else {
          store.beforeWrite(
              ActiveIndexCases::deletesAMarker,
              () -> {
                writerInB.run();
                writerInB1.run();
              });
          ActiveIndex.cleanup(store, acme, scanned, now);
        }
        assertThat(DueIndex.pendingForTenant(store, acme, 10))
            .as("%s: the writers' rows and the first due row", when)
            .hasSize(3);
        assertEveryDueRowHasAMarker(store, when);
        assertThat(ActiveIndex.all(store))
            .as("%s: markers afterwards", when)
            .containsExactly(
                new ActiveKey(bucketB, acme),
                new ActiveKey(bucketB + 1, acme),
                new ActiveKey(bucketB + 5, acme));
        assertThat(QueueVerifier.verify(store)).as("%s: verifier", when).isEmpty();
      }
    }
  }

  /**
   * A crash inside cleanup strands no row for good: tenant acme's rows in seconds B and B+1 were
   * delivered (their markers stale), its next row is due a day later. Two writers commit acme rows
   * in B and B+1 just before cleanup's delete, and the process dies right after the delete (the
   * seam throws), so both rows have lost their markers. Boot recovery restores the first one's;
   * then ticks claiming one row each reach both rows, and after every tick every due row has its
   * marker.
   */
  @Example
  default void aCrashInsideCleanupStrandsNoRowForGood() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore store = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START + 100, 1, 8),
                  d.newHook("acme", START + 1_100, 1, 8),
                  d.newHook("acme", START + DAY_MS, 1, 8)));
      long acme = ordOf(store, "acme");
      long now = START + 10_000;
      Dispatcher oneRow = new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 1, Long.MAX_VALUE);
      Transition claimAndDeliver = new Transition();
      DueIndex.pendingForTenant(store, acme, 2).forEach(r -> Deliveries.claim(claimAndDeliver, r));
      d.write(claimAndDeliver);
      Transition delivered = new Transition();
      d.inflightRows().forEach(r -> Deliveries.delivered(delivered, r));
      d.write(delivered);
      List<Long> scanned = scannedBuckets(store, acme, now);
      long bucketB = ActiveKey.bucketOf(START);
      assertThat(scanned).as("acme's stale markers").containsExactly(bucketB, bucketB + 1);

      store.beforeWrite(
          ActiveIndexCases::deletesAMarker,
          () -> {
            d.ingest().ingest(d.newHook("acme", START + 200, 1, 8));
            d.ingest().ingest(d.newHook("acme", START + 1_200, 1, 8));
          });
      assertThatThrownBy(
              () ->
                  ActiveIndex.cleanup(
                      store,
                      acme,
                      scanned,
                      now,
                      () -> {
                        throw new IllegalStateException(
                            "the process dies between cleanup's delete and its verify");
                      }))
          .isInstanceOf(IllegalStateException.class);
      assertThat(ActiveIndex.all(store))
          .as("markers left by the crashed cleanup")
          .containsExactly(new ActiveKey(ActiveKey.bucketOf(START + DAY_MS), acme));

      InflightRecovery.recoverInflight(d.queue(), now);
      assertThat(ActiveIndex.all(store))
          .as("after boot recovery")
          .contains(new ActiveKey(bucketB, acme));
      for (int tick = 1; tick <= 2; tick++) {
        assertThat(oneRow.tick(now).rowsClaimed())
            .as("tick %d claims one of the stranded rows", tick)
            .isEqualTo(1);
        assertEveryDueRowHasAMarker(store, "after tick " + tick + " at " + now);
      }
      assertThat(DueIndex.dueForTenant(store, acme, now, 0, 10, Long.MAX_VALUE, Long.MAX_VALUE))
          .as("acme's rows due by now, after two ticks")
          .isEmpty();
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /**
   * A tenant's due rows are read from a floor to now, both included, and within the limits asked:
   * acme has rows at +0, +1, +2, +3 and +4 s (seqs ascending, 10 bytes each). From +1 s to +3 s,
   * exactly, are 3 rows; a limit of 2 gives 2; a byte budget of 15 gives the 2 rows whose sizes
   * cross it, one of 20 the 2 that reach it; a durable watermark at the third row's seq gives the
   * rows up to it; a limit or budget of 0 gives none. Read on from a row's key, the rows from that
   * one on; acme's first due row from a key past its last is none. Everything due lists the
   * tenant's rows up to {@code Long.MAX_VALUE}.
   */
  @Example
  default void dueRowsAreReadFromTheFloorToNowInclusive() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        hooks.add(d.newHook("acme", START + i * 1_000L, 1, 10));
      }
      List<Long> seqs = d.ingest().ingest(hooks);
      d.ingest().ingest(d.newHook("acme", Long.MAX_VALUE, 1, 10));
      long acme = ordOf(store, "acme");
      String on = backend().name();
      java.util.function.Function<List<io.ankusa.store.queue.internal.record.DueRow>, List<Long>>
          ats = rows -> rows.stream().map(r -> r.key().at() - START).toList();
      assertThat(
              ats.apply(
                  DueIndex.dueForTenant(
                      store,
                      acme,
                      START + 3_000,
                      START + 1_000,
                      10,
                      Long.MAX_VALUE,
                      Long.MAX_VALUE)))
          .as("%s: acme's rows due from +1 s to +3 s", on)
          .containsExactly(1_000L, 2_000L, 3_000L);
      assertThat(
              DueIndex.dueForTenant(
                  store, acme, START + 3_000, 0, 2, Long.MAX_VALUE, Long.MAX_VALUE))
          .as("%s: limit 2", on)
          .hasSize(2);
      assertThat(DueIndex.dueForTenant(store, acme, START + 3_000, 0, 10, 15, Long.MAX_VALUE))
          .as("%s: byte budget 15 (rows of 10 bytes)", on)
          .hasSize(2);
      assertThat(DueIndex.dueForTenant(store, acme, START + 3_000, 0, 10, 20, Long.MAX_VALUE))
          .as("%s: byte budget 20, reached by the second row", on)
          .hasSize(2);
      assertThat(
              DueIndex.dueForTenant(store, acme, START + 4_000, 0, 10, Long.MAX_VALUE, seqs.get(2)))
          .as("%s: durable watermark at the third row's seq", on)
          .hasSize(3);
      assertThat(
              DueIndex.dueForTenant(
                  store, acme, START + 4_000, 0, 0, Long.MAX_VALUE, Long.MAX_VALUE))
          .as("%s: limit 0", on)
          .isEmpty();
      assertThat(DueIndex.dueForTenant(store, acme, START + 4_000, 0, 10, 0, Long.MAX_VALUE))
          .as("%s: byte budget 0", on)
          .isEmpty();
      var all = DueIndex.pendingForTenant(store, acme, 10);
      assertThat(all)
          .as("%s: every due row of acme, the one at Long.MAX_VALUE included", on)
          .hasSize(6);
      assertThat(ats.apply(DueIndex.pendingForTenantFrom(store, acme, all.get(2).key(), 2)))
          .as("%s: 2 rows read on from the third", on)
          .containsExactly(2_000L, 3_000L);
      assertThat(
              DueIndex.firstDueFrom(
                  store, acme, new DueKey(acme, Long.MAX_VALUE, Long.MAX_VALUE, 0xFFFF)))
          .as("%s: the first due row from past the last", on)
          .isNull();
      assertThat(DueIndex.firstDueFrom(store, acme, all.get(5).key()))
          .as("%s: the first due row from the last", on)
          .isEqualTo(all.get(5));
    }
  }

  /**
   * Who has work is listed up to a limit: three tenants with rows due, a limit of 2 lists the first
   * 2 markers, oldest second first, and a limit of 0 none. The age of the oldest due row stays
   * exact to a second however many stale markers a slow cleanup left: acme's 40 rows, one a second,
   * were claimed without a cleanup, so 40 stale markers lead; after skipping {@value
   * ActiveIndex#STALE_MARKER_SKIP} of them the age is that of the next stale marker's second.
   */
  @Example
  default void activeTenantsHonourTheLimitAndTheOldestAgeSkipsStaleMarkers() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      String on = backend().name();
      long now = START + 100_000;
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("a", START, 1, 4),
                  d.newHook("b", START + 1_000, 1, 4),
                  d.newHook("c", START + 2_000, 1, 4)));
      assertThat(ActiveIndex.activeTenants(store, now, 2))
          .extracting(ActiveKey::ord)
          .as("%s: markers listed with a limit of 2", on)
          .containsExactly(ordOf(store, "a"), ordOf(store, "b"));
      assertThat(ActiveIndex.activeTenants(store, now, 0))
          .as("%s: markers listed with a limit of 0", on)
          .isEmpty();

      try (TempDirStore t2 = openQueueStore()) {
        QueueDriver d2 = new QueueDriver(t2.store(), queueConfig());
        List<HookEnvelope> hooks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          hooks.add(d2.newHook("acme", START + i * 1_000L, 1, 4));
        }
        hooks.add(d2.newHook("late", START + 60_000, 1, 4));
        d2.ingest().ingest(hooks);
        claimAllOf(d2, ordOf(t2.store(), "acme"));
        long skipped = ActiveIndex.STALE_MARKER_SKIP;
        assertThat(ActiveIndex.oldestDueAgeMs(t2.store(), now))
            .as("%s: oldest due age behind 40 stale markers", on)
            .isEqualTo(now - (ActiveKey.bucketOf(START) + skipped) * ActiveKey.BUCKET_MILLIS);
      }
    }
  }

  /**
   * Boot's repair restores the marker of each tenant's first due row when it is missing, the last
   * tenant's included, and says how many it restored; a second repair restores none and writes
   * nothing. A cleanup that finds the tenant's first due row in the current second with its marker
   * missing, and not among the markers the tick saw, puts it back.
   */
  @Example
  default void repairAndCleanupRestoreAMissingHeadMarker() {
    try (TempDirStore t = openQueueStore()) {
      WriteCountingStore store = new WriteCountingStore(t.store());
      QueueDriver d = new QueueDriver(store, queueConfig());
      String on = backend().name();
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("a", START, 1, 4),
                  d.newHook("b", START + 1_000, 1, 4),
                  d.newHook("c", START + 2_000, 1, 4)));
      Batch lose = new Batch();
      ActiveIndex.all(store).forEach(m -> Deliveries.deleteMarker(lose, m));
      store.write(lose, io.ankusa.store.spi.Durability.SYNC);
      assertThat(ActiveIndex.repair(store, d.queue().counters()))
          .as("%s: markers repair restored", on)
          .isEqualTo(3);
      assertEveryDueRowHasAMarker(store, on + ": after the repair");
      store.anyWrites.set(0);
      assertThat(ActiveIndex.repair(store, d.queue().counters()))
          .as("%s: markers a second repair restored", on)
          .isZero();
      assertThat(store.anyWrites.get())
          .as("%s: writes of a repair with nothing to restore", on)
          .isZero();

      long nowBucket = ActiveKey.bucketOf(START) + 50;
      long now = nowBucket * ActiveKey.BUCKET_MILLIS + 500;
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START + 10_000, 1, 4),
                  d.newHook("acme", nowBucket * 1_000 + 10, 1, 4)));
      long acme = ordOf(store, "acme");
      Transition claim = new Transition();
      DueIndex.pendingForTenant(store, acme, 1).forEach(r -> Deliveries.claim(claim, r));
      d.write(claim);
      ActiveKey head = new ActiveKey(nowBucket, acme);
      Batch loseHead = new Batch();
      Deliveries.deleteMarker(loseHead, head);
      store.write(loseHead, io.ankusa.store.spi.Durability.SYNC);
      ActiveIndex.cleanup(store, acme, List.of(ActiveKey.bucketOf(START + 10_000)), now);
      assertThat(ActiveIndex.all(store))
          .as("%s: markers after the cleanup", on)
          .contains(head)
          .doesNotContain(new ActiveKey(ActiveKey.bucketOf(START + 10_000), acme));
      assertEveryDueRowHasAMarker(store, on + ": after the cleanup");
    }
  }

  private static List<Long> scannedBuckets(ReadView view, long ord, long now) {
    List<Long> out = new ArrayList<>();
    for (ActiveKey m : ActiveIndex.activeTenants(view, now, ActiveIndex.DEFAULT_LIMIT)) {
      if (m.ord() == ord) {
        out.add(m.bucket());
      }
    }
    return out;
  }

  private static Set<Long> activeOrds(ReadView view, long now) {
    Set<Long> out = new TreeSet<>();
    ActiveIndex.activeTenants(view, now, ActiveIndex.DEFAULT_LIMIT).forEach(m -> out.add(m.ord()));
    return out;
  }

  private static Set<Long> tenantsWithDueRowsUpTo(ReadView view, long at) {
    Set<Long> out = new TreeSet<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.DUE,
        e -> {
          DueKey k = DueKey.decode(e.key());
          if (k.at() <= at) {
            out.add(k.ord());
          }
        });
    return out;
  }
}
