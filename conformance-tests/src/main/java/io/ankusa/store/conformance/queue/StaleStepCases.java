package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.TransitionCase.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.DeadByTenantKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.DeadLetters;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.Reclaim;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import net.jqwik.api.Example;

/**
 * Transitions built from rows read a while ago: whatever moved those rows in between, the write
 * drops exactly the steps whose rows moved and writes the rest, so each row moves once and its
 * counters once. The interleaving is forced: the other transition runs between the builder's read
 * and the write (in the test's own order, or inside a queue operation's read through a {@link
 * RecordingStore}).
 *
 * <p>Part of the transition layer: {@link TransitionConformance} runs these cases against the
 * backend its subclass names.
 */
public interface StaleStepCases extends TransitionCase {
  /** The step kinds {@link #everyStepKindIsDroppedExactlyWhenItsRowMoved} builds, in order. */
  List<String> EVERY_KIND =
      List.of(
          "claim",
          "delivered",
          "retry",
          "dead-letter",
          "recover inflight",
          "orphan drop",
          "revive",
          "purge dead",
          "purge due",
          "expand",
          "archive settle",
          "archive drop");

  /**
   * One batch holding a step of every kind that consumes a row (claim, delivered, retry,
   * dead-letter, recover, orphan drop, revive, purge of a dead and of a due row, expand, archive
   * settle and drop), (this one adding two sinks), on rows of two tenants, built from rows read
   * before another batch moved some of those rows (none, every other one starting with the first or
   * the second, all). The write drops exactly the steps whose rows moved ({@link
   * Transition#applied}, its count) and writes the others; a batch whose every step was dropped
   * writes nothing to the store; afterwards the same batch built again from the same reads has
   * every step dropped (each row moved exactly once), and the counters equal a fold. Written once
   * through the queue that claimed the rows and once through another queue on the same store (which
   * knows none of the claims and reads every row again).
   */
  @Example
  default void everyStepKindIsDroppedExactlyWhenItsRowMoved() {
    int n = EVERY_KIND.size();
    BitSet none = new BitSet(n);
    BitSet all = new BitSet(n);
    all.set(0, n);
    BitSet even = new BitSet(n);
    BitSet odd = new BitSet(n);
    for (int i = 0; i < n; i++) {
      (i % 2 == 0 ? even : odd).set(i);
    }
    dropsExactlyTheMoved(even, false);
    dropsExactlyTheMoved(odd, true);
    dropsExactlyTheMoved(none, true);
    dropsExactlyTheMoved(all, false);
  }

  private void dropsExactlyTheMoved(BitSet moved, boolean throughAnotherQueue) {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      QueueConfig config = QueueConfig.defaults().withArchive(true);
      DeliveryQueue queue = openQueue(store, config);
      EveryKindRows rows = EveryKindRows.setUp(queue);
      DeliveryQueue writer = throughAnotherQueue ? openQueue(store, config) : queue;
      String when =
          backend().name()
              + ": steps "
              + EVERY_KIND
              + ", rows of steps "
              + moved
              + " moved first, written"
              + (throughAnotherQueue
                  ? " through another queue"
                  : " through the queue that claimed them");

      Transition batch = rows.batch();
      Transition mover = rows.mover(moved);
      assertThat(queue.write(mover, Durability.SYNC))
          .as("%s: steps of the batch that moved the rows", when)
          .isZero();
      AtomicInteger writes = new AtomicInteger();
      store.beforeWrite(b -> writes.incrementAndGet() < 0, () -> {});
      int dropped = writer.write(batch, Durability.SYNC);

      assertThat(dropped).as("%s: steps dropped", when).isEqualTo(moved.cardinality());
      for (int i = 0; i < EVERY_KIND.size(); i++) {
        assertThat(batch.applied(i))
            .as("%s: whether step %d (%s) was written", when, i, EVERY_KIND.get(i))
            .isEqualTo(!moved.get(i));
      }
      assertThat(writes.get())
          .as("%s: store writes by the batch", when)
          .isEqualTo(moved.cardinality() == EVERY_KIND.size() ? 0 : 1);
      assertExact(store, when);
      Transition again = rows.batch();
      assertThat(openQueue(store, config).write(again, Durability.SYNC))
          .as(
              "%s: steps of the same batch built again from the same reads and written once more",
              when)
          .isEqualTo(EVERY_KIND.size());
      assertExact(store, when + ", then written again");
    }
  }

  /**
   * The rows {@link #everyStepKindIsDroppedExactlyWhenItsRowMoved} reads: of acme (even steps) and
   * globex (odd steps), each hook 10 bytes for sink 1, the archive on.
   */
  record EveryKindRows(
      DeliveryQueue queue,
      long acme,
      long globex,
      List<DueRow> acmeDue,
      List<InflightRow> acmeInflight,
      List<InflightRow> globexInflight,
      DeadRow acmeDead,
      DeadByTenantKey globexDead,
      DeadRow globexDeadRow,
      HookEnvelope globexHook,
      QueueDriver.Obligation acmeObligation,
      QueueDriver.Obligation globexObligation,
      Map<Long, DeliveryRow> states) {
    private static final long NOW = 9_000;

    static EveryKindRows setUp(DeliveryQueue queue) {
      long acme = dueRowsOf(queue, "acme", 4);
      long globex = dueRowsOf(queue, "globex", 5);
      QueueDriver d = new QueueDriver(queue);
      dispatcher(queue).tick(5_000);
      Transition dead = new Transition();
      for (long ord : List.of(acme, globex)) {
        InflightRow row = inflightOf(d, ord).get(0);
        Deliveries.deadLetter(
            dead, row, d.deliveryRow(row.key().seq(), 1), 6_000, "src", "hook", "410");
      }
      queue.write(dead, Durability.SYNC);
      List<HookEnvelope> late = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        late.add(
            new HookEnvelope(
                0,
                i < 2 ? "acme" : "globex",
                "src",
                "late-" + i,
                null,
                7_000 + i,
                List.of(1),
                new byte[10]));
      }
      d.ingest().ingest(late);
      HookEnvelope globexHook = d.hook(queue.lastSeq());
      DeadRow acmeDead =
          d.deadRows().stream().filter(r -> r.ord() == acme).findFirst().orElseThrow();
      DeadRow globexDeadRow =
          d.deadRows().stream().filter(r -> r.ord() == globex).findFirst().orElseThrow();
      List<QueueDriver.Obligation> obligations = d.archiveObligations();
      Map<Long, DeliveryRow> states = new HashMap<>();
      d.hooks().forEach(h -> states.put(h.seq(), d.deliveryRow(h.seq(), 1)));
      return new EveryKindRows(
          queue,
          acme,
          globex,
          DueIndex.pendingForTenant(queue.store(), acme, 10),
          inflightOf(d, acme),
          inflightOf(d, globex),
          acmeDead,
          DeadLetters.deadForTenant(queue.store(), globex, 10).get(0),
          globexDeadRow,
          globexHook,
          obligations.stream().filter(o -> o.value().ord() == acme).findFirst().orElseThrow(),
          obligations.stream().filter(o -> o.value().ord() == globex).findFirst().orElseThrow(),
          states);
    }

    /** One step of every kind, in the order of {@link #EVERY_KIND}. */
    Transition batch() {
      Transition t = new Transition();
      Deliveries.claim(t, acmeDue.get(0));
      Deliveries.delivered(t, globexInflight.get(0));
      Deliveries.retry(t, acmeInflight.get(0), state(acmeInflight.get(0)), NOW, "503");
      Deliveries.deadLetter(
          t, globexInflight.get(1), state(globexInflight.get(1)), NOW, "src", "hook", "410");
      Deliveries.recoverInflight(t, acmeInflight.get(1), NOW);
      Deliveries.orphanDrop(t, globexInflight.get(2));
      Deliveries.revive(t, acmeDead, state(acmeDead.key().seq()), NOW);
      Deliveries.purgeDead(t, globexDead, 10);
      Deliveries.purgeDue(t, acmeDue.get(1));
      Deliveries.expand(t, expanded(), globex, List.of(2, 3), NOW);
      Deliveries.archiveSettle(t, acmeObligation.seq(), acmeObligation.value());
      Deliveries.archiveDrop(t, globexObligation.seq(), globexObligation.value());
      return t;
    }

    /** For each step in {@code moved}, another transition that consumes the same row first. */
    Transition mover(BitSet moved) {
      Transition t = new Transition();
      List<Consumer<Transition>> movers =
          List.of(
              m -> Deliveries.purgeDue(m, acmeDue.get(0)),
              m ->
                  Deliveries.retry(
                      m, globexInflight.get(0), state(globexInflight.get(0)), NOW, "503"),
              m -> Deliveries.delivered(m, acmeInflight.get(0)),
              m -> Deliveries.recoverInflight(m, globexInflight.get(1), NOW),
              m -> Deliveries.delivered(m, acmeInflight.get(1)),
              m -> Deliveries.delivered(m, globexInflight.get(2)),
              m ->
                  Deliveries.purgeDead(
                      m,
                      new DeadByTenantKey(
                          acme, acmeDead.key().at(), acmeDead.key().seq(), acmeDead.key().sink()),
                      10),
              m -> Deliveries.revive(m, globexDeadRow, state(globexDeadRow.key().seq()), NOW),
              m -> Deliveries.claim(m, acmeDue.get(1)),
              m -> Deliveries.expand(m, expanded(), globex, List.of(2, 3), NOW),
              m -> Deliveries.archiveDrop(m, acmeObligation.seq(), acmeObligation.value()),
              m -> Deliveries.archiveSettle(m, globexObligation.seq(), globexObligation.value()));
      moved.stream().forEach(i -> movers.get(i).accept(t));
      return t;
    }

    private HookEnvelope expanded() {
      HookEnvelope h = globexHook;
      return new HookEnvelope(
          h.seq(),
          h.tenantId(),
          h.sourceId(),
          h.hookId(),
          h.idempotencyKey(),
          h.receivedAt(),
          List.of(1, 2, 3),
          h.payload());
    }

    private static List<InflightRow> inflightOf(QueueDriver d, long ord) {
      return d.inflightRows().stream().filter(r -> r.ord() == ord).toList();
    }

    /** The delivery row of {@code row} as read at set-up. */
    private DeliveryRow state(InflightRow row) {
      return states.get(row.key().seq());
    }

    /** The delivery row of hook {@code seq}'s sink 1 as read at set-up. */
    private DeliveryRow state(long seq) {
      return states.get(seq);
    }
  }

  /**
   * One batch holding an ingest and the claim of a due row that a dispatcher tick claimed between
   * the read and the write: the ingest is written (it consumes no row), the stale claim is not, and
   * acme counts the new row pending and the tick's three inflight.
   */
  @Example
  default void aStaleClaimBesideAnIngestInOneBatchWritesTheIngestOnly() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      DueRow stale = DueIndex.firstDue(t.store(), acme);
      dispatcher(queue).tick(5_000);
      Transition batch = new Transition();
      Deliveries.ingest(
          batch,
          new HookEnvelope(4, "acme", "src", "hook-3", null, 9_000, List.of(1), new byte[10]),
          acme,
          false);
      Deliveries.claim(batch, stale);

      String when = backend().name() + ": an ingest and a claim the tick made first, in one batch";
      assertThat(queue.write(batch, Durability.SYNC)).as("%s: steps dropped", when).isEqualTo(1);
      assertThat(batch.applied(0)).as("%s: the ingest written", when).isTrue();
      assertThat(batch.applied(1)).as("%s: the stale claim written", when).isFalse();
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(1, 0, 3, 0, 40, 0));
    }
  }

  /**
   * A batch marked as read under its tenants' stripes ({@link Transition#readUnderStripes}) but
   * written without them held is checked like any other: a claim of a due row that a tick claimed
   * in between is dropped, and acme's rows are inflight once; so is a marked expand written by a
   * caller that holds acme's stripe but not the hook's, after another expand added the same sink.
   */
  @Example
  default void aBatchMarkedReadUnderStripesButWrittenWithoutThemIsRechecked() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<DueRow> due = DueIndex.pendingForTenant(t.store(), acme, 10);
      dispatcher(queue).tick(5_000);
      Transition claims = new Transition().readUnderStripes(true);
      due.forEach(row -> Deliveries.claim(claims, row));

      String when =
          backend().name()
              + ": claims marked as read under stripes, written without them, of rows a tick"
              + " claimed first";
      assertThat(queue.write(claims, Durability.SYNC)).as("%s: steps dropped", when).isEqualTo(3);
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(0, 0, 3, 0, 30, 0));

      HookEnvelope h = new QueueDriver(queue).hooks().get(0);
      HookEnvelope wider =
          new HookEnvelope(
              h.seq(),
              h.tenantId(),
              h.sourceId(),
              h.hookId(),
              h.idempotencyKey(),
              h.receivedAt(),
              List.of(1, 2),
              h.payload());
      Transition first = new Transition();
      Deliveries.expand(first, wider, acme, List.of(2), 6_000);
      Transition stale = new Transition().readUnderStripes(true);
      Deliveries.expand(stale, wider, acme, List.of(2), 6_000);
      queue.write(first, Durability.SYNC);
      int staleDropped;
      try (TransitionGuard.Held held = queue.guard().lockTenant(acme)) {
        staleDropped = queue.write(stale, Durability.SYNC);
      }
      assertThat(staleDropped)
          .as(
              "%s: steps dropped of a marked expand written holding acme's stripe but not the"
                  + " hook's, after the same expand",
              when)
          .isEqualTo(1);
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters after the expands", when)
          .isEqualTo(new TenantCounts(1, 0, 3, 0, 40, 0));
      assertExact(t.store(), when);
    }
  }

  /**
   * A replay revives one of acme's three dead rows between a purge's scan of acme's dead rows and
   * its batch: the purge purges the other two and leaves the revived row due, and {@code dead} ends
   * at 0, not −1.
   */
  @Example
  default void aReviveBetweenAPurgesScanAndItsBatchIsLeftDue() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      deadLetterEverything(queue);
      byte[] deadOfAcme = Keys.deadByTenantOf(acme).lo();
      boolean[] ran = new boolean[1];
      store.afterScan(
          scan -> scan.family().equals(Format3.INDEX) && startsWith(scan.lo(), deadOfAcme),
          () -> {
            reviveOldestDead(queue, 7_000);
            ran[0] = true;
          });

      long purged = Purge.purgeTenant(queue, TenantId.of("acme"), EnumSet.of(Purge.Kind.DEAD));

      String when =
          backend().name()
              + ": a revive between the purge's scan of acme's dead rows and its batch";
      assertThat(ran[0]).as("%s: the revive ran inside the purge", when).isTrue();
      assertThat(purged).as("%s: rows purged", when).isEqualTo(2);
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(1, 0, 0, 0, 10, 0));
      assertExact(store, when);
    }
  }

  /**
   * A replay reads a dead row and its delivery row; before it writes the revive, acme's dead rows
   * are purged and reclaim deletes the three hooks nothing owes any more. The revive finds its dead
   * row gone and writes nothing: no due row for a deleted hook, acme's counters all zero.
   */
  @Example
  default void aReviveAfterPurgeAndReclaimWritesNothing() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      deadLetterEverything(queue);
      int[] reclaimed = {-1};
      store.afterGet(
          read -> read.family().equals(Format3.DELIVERIES),
          () -> {
            Purge.purgeTenant(queue, TenantId.of("acme"), EnumSet.of(Purge.Kind.DEAD));
            reclaimed[0] = Reclaim.run(queue, 100);
          });

      reviveOldestDead(queue, 7_000);

      String when = backend().name() + ": purge and reclaim between a revive's read and its write";
      assertThat(reclaimed[0]).as("%s: hooks reclaim deleted inside the revive", when).isEqualTo(3);
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertThat(count(store, KeyFamily.DUE)).as("%s: due rows", when).isZero();
      assertExact(store, when);
    }
  }

  /**
   * Steps consuming one row more than once in a batch move it once wherever they stand: two settles
   * of one row alone in a batch, and two settles of one row with the settle of another between
   * them, each written through a queue that made no claim (so only the batch itself tells the steps
   * apart), drop exactly the second settle of the row.
   */
  @Example
  default void aRowSettledTwiceInOneBatchMovesOnceWhereverTheStepsStand() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      String when = backend().name() + ": acme's claims settled through a queue that made none";

      Transition alone = new Transition();
      Deliveries.delivered(alone, claimed.get(0));
      Deliveries.delivered(alone, claimed.get(0));
      assertThat(openQueue(t.store(), QueueConfig.defaults()).write(alone, Durability.SYNC))
          .as("%s: steps dropped of a batch settling row 0 twice", when)
          .isEqualTo(1);
      assertThat(alone.applied(1)).as("%s: the second settle of row 0 written", when).isFalse();

      Transition apart = new Transition();
      Deliveries.delivered(apart, claimed.get(1));
      Deliveries.delivered(apart, claimed.get(2));
      Deliveries.delivered(apart, claimed.get(1));
      assertThat(openQueue(t.store(), QueueConfig.defaults()).write(apart, Durability.SYNC))
          .as("%s: steps dropped of a batch settling row 1, row 2, row 1", when)
          .isEqualTo(1);
      assertThat(apart.applied(2)).as("%s: the second settle of row 1 written", when).isFalse();
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertExact(t.store(), when);
    }
  }

  /**
   * Two hooks of one tenant, each expanded by one sink in one batch (one tenant's stripe, two
   * hooks' stripes): both expansions are written, with a due row and a delivery row per added sink,
   * and the batch puts the tenant's active marker for their second once.
   */
  @Example
  default void twoHooksOfOneTenantExpandedInOneBatchBothApply() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = dueRowsOf(queue, "acme", 2);
      QueueDriver d = new QueueDriver(queue);
      Transition expand = new Transition();
      for (HookEnvelope h : d.hooks()) {
        HookEnvelope wider =
            new HookEnvelope(
                h.seq(),
                h.tenantId(),
                h.sourceId(),
                h.hookId(),
                h.idempotencyKey(),
                h.receivedAt(),
                List.of(1, 2),
                h.payload());
        Deliveries.expand(expand, wider, acme, List.of(2), 5_000);
      }

      String when = backend().name() + ": acme's two hooks expanded by sink 2 in one batch";
      List<byte[]> markerPuts = new ArrayList<>();
      store.beforeWrite(
          b -> {
            b.ops().stream()
                .filter(
                    op ->
                        op instanceof Op.Put put
                            && startsWith(put.key(), KeyFamily.ACTIVE.prefix()))
                .forEach(op -> markerPuts.add(((Op.Put) op).key()));
            return false;
          },
          () -> {});
      assertThat(queue.write(expand, Durability.SYNC)).as("%s: steps dropped", when).isZero();
      assertThat(markerPuts).as("%s: active marker puts in the batch", when).hasSize(1);
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(4, 0, 0, 0, 40, 0));
      assertExact(store, when);
    }
  }

  /**
   * What takes no stripe: a batch whose steps consume no row (an ingest) is written as built,
   * through the queue, while another thread holds its tenant's stripe; an empty batch writes
   * nothing to the store.
   */
  @Example
  default void aBatchConsumingNoRowTakesNoStripeAndAnEmptyOneWritesNothing()
      throws InterruptedException {
    requireCapability(
        backend().capabilities().concurrentWriters(),
        "concurrentWriters",
        "this case writes from a second thread while the first holds a stripe");
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      Transition ingest = new Transition();
      Deliveries.ingest(
          ingest,
          new HookEnvelope(
              queue.lastSeq() + 1, "acme", "src", "hook-3", null, 9_000, List.of(1), new byte[10]),
          acme,
          false);
      int[] dropped = {-1};
      Thread writer =
          new Thread(() -> dropped[0] = queue.write(ingest, Durability.SYNC), "ingest-writer");
      String when =
          backend().name() + ": an ingest written through the queue while acme's stripe was held";
      try (TransitionGuard.Held held = queue.guard().lockTenant(acme)) {
        writer.start();
        joinOrFail(writer, when);
      }
      assertThat(dropped[0]).as("%s: steps dropped", when).isZero();
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(4, 0, 0, 0, 40, 0));

      AtomicInteger writes = new AtomicInteger();
      store.beforeWrite(b -> writes.incrementAndGet() < 0, () -> {});
      assertThat(queue.write(new Transition(), Durability.SYNC))
          .as("%s: steps dropped of an empty batch", when)
          .isZero();
      assertThat(writes.get()).as("%s: store writes by an empty batch", when).isZero();
    }
  }

  /** Claims every due row of the queue and dead-letters them all, in one batch. */
  private static void deadLetterEverything(DeliveryQueue queue) {
    QueueDriver d = new QueueDriver(queue);
    Transition t = new Transition();
    for (InflightRow row : dispatcher(queue).tick(5_000).claimed()) {
      Deliveries.deadLetter(
          t, row, d.deliveryRow(row.key().seq(), row.key().sink()), 6_000, "src", "hook", "410");
    }
    queue.write(t, Durability.SYNC);
  }

  /** Revives the oldest dead row of the queue, reading it and its delivery row first. */
  private static void reviveOldestDead(DeliveryQueue queue, long now) {
    List<DeadRow> rows = DeadLetters.deadPage(queue.store(), null, 100, null).rows();
    DeadRow dead = rows.get(rows.size() - 1); // newest first
    DeliveryRow state = new QueueDriver(queue).deliveryRow(dead.key().seq(), dead.key().sink());
    Transition t = new Transition();
    Deliveries.revive(t, dead, state, now);
    queue.write(t, Durability.SYNC);
  }
}
