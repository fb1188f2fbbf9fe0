package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.maintenance.Reclaim;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;

/**
 * Maintenance: reclaim progresses past hooks still owed at the head and deletes exactly the hooks
 * nothing owes, recovery drops an inflight row whose hook is gone and counts only the rows it
 * moved, and the verifier names each breach it claims to find. Erasing a tenant is {@link
 * TenantEraseCases}.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface MaintenanceCases extends LayoutCase {
  /** Markers a {@link #reclaimProgressesPastOwedHooksAtTheHead} pass visits. */
  int RECLAIM_LIMIT = 20;

  /**
   * Reclaim always progresses: the first {@code 10 × limit} cleared hooks each still owe a sink
   * that was dead-lettered (so their {@code 'c'} markers sit at the head of the range for good),
   * and the {@code 5 × limit} newer ones owe nothing. Within {@code ceil(15 × limit / limit) = 15}
   * passes of {@code limit} markers every newer hook is deleted and every owing one kept; once the
   * DLQ is purged the owing ones go too, within one more lap.
   */
  @Example
  default void reclaimProgressesPastOwedHooksAtTheHead() {
    int owing = 10 * RECLAIM_LIMIT;
    int free = 5 * RECLAIM_LIMIT;
    int bound = (owing + free + RECLAIM_LIMIT - 1) / RECLAIM_LIMIT;
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), QueueConfig.defaults());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < owing; i++) {
        hooks.add(d.newHook("acme", START + i, 2, 4));
      }
      for (int i = 0; i < free; i++) {
        hooks.add(d.newHook("acme", START + owing + i, 1, 4));
      }
      d.ingest().ingest(hooks);
      List<InflightRow> claimed =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, owing * 2 + free, Long.MAX_VALUE)
              .tick(START + 60_000)
              .claimed();
      assertThat(claimed).hasSize(owing * 2 + free);
      Transition settle = new Transition();
      for (InflightRow row : claimed) {
        DeliveryRow state = d.deliveryRow(row.key().seq(), row.key().sink());
        if (row.key().sink() == 2) {
          Deliveries.deadLetter(settle, row, state, START + 60_000, "src", "h", "410 gone");
        } else {
          Deliveries.delivered(settle, row);
        }
      }
      d.write(settle);
      long firstFree = owing + 1;

      int passes = 0;
      while (passes < bound
          && storedHookSeqs(t.store()).stream().anyMatch(seq -> seq >= firstFree)) {
        Reclaim.run(d.queue(), RECLAIM_LIMIT);
        passes++;
      }
      Set<Long> left = storedHookSeqs(t.store());
      assertThat(left)
          .as(
              "after %d passes of %d markers (bound %d), %d owing hooks at the head: the newer hooks"
                  + " nothing owes are all reclaimed, the owing ones all kept",
              passes, RECLAIM_LIMIT, bound, owing)
          .hasSize(owing)
          .allMatch(seq -> seq < firstFree);

      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.of(Purge.Kind.DEAD)))
          .isEqualTo(owing);
      for (int i = 0; i <= bound && !storedHookSeqs(t.store()).isEmpty(); i++) {
        Reclaim.run(d.queue(), RECLAIM_LIMIT);
      }
      assertThat(storedHookSeqs(t.store()))
          .as("once the DLQ is purged, every hook is reclaimed within a lap")
          .isEmpty();
      assertCountersEqualFold(t.store(), "after reclaim");
    }
  }

  /**
   * A reclaim pass starts where the last one stopped, also after it reached the end of the markers
   * (never at their head again, where the markers it deleted lie), and a marker put behind its
   * progress while it runs is visited by the next pass: of six one-sink hooks, 3, 4 and 5 are
   * delivered; the first pass reclaims them, and while it scans the markers (forced: when that scan
   * is closed) hook 1 is delivered, which marks hook 1 behind the pass. The next pass starts at
   * hook 1 and reclaims it; the one after starts just past hook 1's marker and finds nothing.
   */
  @Example
  default void reclaimResumesWhereItStoppedAndSeesMarkersPutBehindIt() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore store = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(store, queueConfig());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        hooks.add(d.newHook("acme", START + i, 1, 4));
      }
      List<Long> seqs = d.ingest().ingest(hooks);
      Map<Long, InflightRow> claimed = new HashMap<>();
      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 10, Long.MAX_VALUE)
          .tick(START + 60_000)
          .claimed()
          .forEach(row -> claimed.put(row.key().seq(), row));
      Transition settle = new Transition();
      for (int i = 2; i <= 4; i++) {
        Deliveries.delivered(settle, claimed.get(seqs.get(i)));
      }
      d.write(settle);
      byte[] clearedPrefix = KeyFamily.CLEARED.prefix();
      store.afterScan(
          scan ->
              scan.family().equals(Format3.INDEX)
                  && TransitionCase.startsWith(scan.lo(), clearedPrefix),
          () -> {
            Transition first = new Transition();
            Deliveries.delivered(first, claimed.get(seqs.get(0)));
            d.write(first);
          });
      store.clearReads();

      assertThat(Reclaim.pass(d.queue(), 10))
          .as("the first pass: hooks 3, 4 and 5")
          .isEqualTo(new Reclaim.Pass(3, 3, true));
      assertThat(Reclaim.pass(d.queue(), 10))
          .as("the next pass: hook 1, delivered while the first one ran")
          .isEqualTo(new Reclaim.Pass(1, 1, true));
      assertThat(Reclaim.pass(d.queue(), 10))
          .as("the pass after: nothing")
          .isEqualTo(new Reclaim.Pass(0, 0, true));
      List<byte[]> starts =
          store.scans().stream()
              .filter(
                  scan ->
                      scan.family().equals(Format3.INDEX)
                          && TransitionCase.startsWith(scan.lo(), clearedPrefix))
              .map(RecordingStore.ScanRead::lo)
              .toList();
      assertThat(starts)
          .as(
              "where the three passes' scans of the markers start: the head, hook 1, just past hook 1")
          .containsExactly(
              Keys.cleared(0), Keys.cleared(seqs.get(0)), Keys.cleared(seqs.get(0) + 1));
      assertThat(storedHookSeqs(store)).as("hooks left").containsExactly(seqs.get(1), seqs.get(5));
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  private static Set<Long> storedHookSeqs(ReadView view) {
    Set<Long> out = new TreeSet<>();
    KeyRange range = Keys.realKeysOf(KeyFamily.HOOK);
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(ByteBuffer.wrap(scan.next().key()).getLong());
      }
    }
    return out;
  }

  /**
   * Orphan drop: boot-time recovery removes an inflight row whose hook envelope is gone, with its
   * delivery row and its counts (inflight −1, bytes −size), and makes the other inflight rows due
   * again; counters equal a fold and the verifier finds nothing.
   */
  @Example
  default void recoveryDropsAnInflightRowWhoseHookIsGone() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START, 2, 10),
                  d.newHook("acme", START, 1, 7),
                  d.newHook("globex", START, 1, 5)));
      d.advance(1_000);
      assertThat(
              new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 100, Long.MAX_VALUE)
                  .tick(d.now())
                  .rowsClaimed())
          .as("every row claimed")
          .isEqualTo(4);
      long orphan = d.hooks().get(0).seq();
      store.write(new Batch().delete(Format3.HOOKS, Keys.hook(orphan)), Durability.SYNC);

      InflightRecovery.Result result = InflightRecovery.recoverInflight(d.queue(), d.now());
      assertThat(result.orphansDropped())
          .as("the two inflight rows of hook %d, whose envelope is gone", orphan)
          .isEqualTo(2);
      assertThat(result.recovered()).as("the other inflight rows, due again").isEqualTo(2);
      assertThat(d.inflightRows()).as("inflight rows after recovery").isEmpty();
      KeyRange orphanRows = Keys.deliveriesOf(orphan);
      try (Scan scan =
          store.scan(
              orphanRows.columnFamily(), orphanRows.lo(), orphanRows.hi(), Direction.FORWARD)) {
        assertThat(scan.hasNext())
            .as("a delivery row of the orphaned hook %d is left", orphan)
            .isFalse();
      }
      assertThat(d.queue().counters().read(store, ordOf(store, "acme")))
          .as("acme: the one recovered row, 7 bytes")
          .isEqualTo(new TenantCounts(1, 0, 0, 0, 7, 0));
      assertCountersEqualFold(store, "after recovery dropped the orphans");
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /**
   * The verifier names each breach it claims to find, and nothing on a clean queue: a queue with
   * due, inflight and dead rows of two tenants verifies clean; then, one at a time and each
   * repaired before the next, the store is damaged through the SPI (a missing format stamp or an
   * older one, a missing sentinel, a due row without its marker, a tenant's or the aggregate's
   * counter off by one, a negative counter, an index row without its delivery row, rows without
   * their hook, a dead row without its {@code 'X'} key or under another ordinal's, an {@code 'X'}
   * key without its dead row, a missing or stray {@code 't'} row, an {@code 'n'} row naming another
   * ordinal, rows under an erased ordinal and a row under another tenant's ordinal), and the
   * verifier reports exactly that breach, naming the row, key or counter.
   */
  @Example
  default void verifierNamesEachBreachAndNothingOnACleanQueue() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START, 2, 10),
                  d.newHook("globex", START, 1, 5),
                  d.newHook("acme", START, 1, 7)));
      List<InflightRow> claimed =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 100, Long.MAX_VALUE)
              .tick(START + 1_000)
              .claimed();
      assertThat(claimed).as("every row claimed").hasSize(4);
      Transition dlq = new Transition();
      for (InflightRow row : claimed) {
        if (row.key().seq() == 1 && row.key().sink() == 2) {
          Deliveries.deadLetter(
              dlq, row, d.deliveryRow(1, 2), START + 2_000, "src", "h", "410 gone");
        }
      }
      d.write(dlq);
      long later = START + 100 * DAY_MS;
      d.ingest().ingest(List.of(d.newHook("acme", later, 1, 3), d.newHook("globex", later, 1, 4)));
      long acme = ordOf(store, "acme");
      long globex = ordOf(store, "globex");
      assertThat(QueueVerifier.verify(store)).as("the verifier on a clean queue").isEmpty();

      DueKey acmeDue = new DueKey(acme, later, 4, 1);
      DueKey globexDue = new DueKey(globex, later, 5, 1);
      InflightKey globexInflight = new InflightKey(globex, 2, 1);
      DeadKey dead = new DeadKey(START + 2_000, 1, 2);
      byte[] deadValue = store.get(Format3.INDEX, Keys.dead(dead.at(), dead.seq(), dead.sink()));
      assertThat(deadValue).as("the dead row of hook 1, sink 2").isNotNull();
      FamilySentinels dueSentinels = Keys.family(KeyFamily.DUE);

      assertBreaches(
          store,
          new Batch().delete(Format3.DEFAULT, Keys.formatStamp()),
          "format-stamp: m:format is missing, expected 3");
      assertBreaches(
          store,
          new Batch().put(Format3.DEFAULT, Keys.formatStamp(), new FormatStampValue(2).encode()),
          "format-stamp: m:format is 2, expected 3");
      assertBreaches(
          store,
          new Batch().delete(dueSentinels.family().columnFamily(), dueSentinels.lo()),
          "sentinel: DUE lo sentinel " + Bytes.hex(dueSentinels.lo()) + " is missing");
      assertBreaches(
          store,
          new Batch().delete(dueSentinels.family().columnFamily(), dueSentinels.hi()),
          "sentinel: DUE hi sentinel " + Bytes.hex(dueSentinels.hi()) + " is missing");
      assertBreaches(
          store,
          new Batch().delete(Format3.INDEX, Keys.active(ActiveKey.bucketOf(later), acme)),
          "due-row-has-marker: due row "
              + acmeDue
              + " has no active marker 'A' "
              + ActiveKey.bucketOf(later)
              + " "
              + acme);
      assertBreaches(
          store,
          new Batch().merge(Format3.COUNTERS, Keys.counter(acme, CounterField.PENDING), 1),
          "counters-equal-fold: tenant ord "
              + acme
              + " PENDING counter is 2 but a fold of the rows gives 1");
      assertBreaches(
          store,
          new Batch().merge(Format3.COUNTERS, Keys.counter(0, CounterField.INFLIGHT), -1),
          "counters-equal-fold: aggregate (ord 0) INFLIGHT counter is 2 but a fold of the rows gives 3");
      assertBreaches(
          store,
          new Batch().merge(Format3.COUNTERS, Keys.counter(globex, CounterField.DEAD), -1),
          "counters-equal-fold: tenant ord "
              + globex
              + " DEAD counter is -1 but a fold of the rows gives 0",
          "counter-not-negative: tenant ord " + globex + " DEAD counter is -1");
      assertBreaches(
          store,
          new Batch().delete(Format3.DELIVERIES, Keys.delivery(2, 1)),
          "index-row-has-delivery-row: inflight row " + globexInflight + " has no delivery row");
      assertBreaches(
          store,
          new Batch().delete(Format3.HOOKS, Keys.hook(5)),
          "index-row-has-hook: rows of seq 5 have no hook envelope");
      assertBreaches(
          store,
          new Batch().delete(Format3.INDEX, Keys.deadByTenant(acme, dead.at(), 1, 2)),
          "dead-indexed-by-tenant: dead row " + dead + " of ord " + acme + " has no 'X' key");
      assertBreaches(
          store,
          new Batch()
              .delete(Format3.INDEX, Keys.deadByTenant(acme, dead.at(), 1, 2))
              .put(Format3.INDEX, Keys.deadByTenant(globex, dead.at(), 1, 2), EmptyValue.encode()),
          "dead-indexed-by-tenant: dead row "
              + dead
              + " of ord "
              + acme
              + " has an 'X' key under ord "
              + globex);
      assertBreaches(
          store,
          new Batch()
              .put(Format3.INDEX, Keys.deadByTenant(acme, dead.at(), 9, 1), EmptyValue.encode()),
          "dead-indexed-by-tenant: 'X' key " + acme + "/" + dead.at() + "/9/1 has no 'x' row");
      assertBreaches(
          store,
          new Batch()
              .put(
                  Format3.TENANTS,
                  Keys.tenantByOrd(3),
                  TenantByOrdValue.of(TenantId.of("ghost")).encode()),
          "ordinals-dense: 't' row for ordinal 3 at or above next_ord 3",
          "ordinals-unique: 't' 3 names 'ghost' but 'n' 'ghost' says null");
      assertBreaches(
          store,
          new Batch()
              .put(
                  Format3.TENANTS,
                  Keys.ordByTenant(TenantId.of("acme")),
                  new OrdinalValue(globex).encode()),
          "ordinals-unique: 't' " + acme + " names 'acme' but 'n' 'acme' says " + globex,
          "ordinals-unique: 'n' 'acme' says ordinal "
              + globex
              + " but 't' "
              + globex
              + " names globex");
      assertBreaches(
          store,
          new Batch().delete(Format3.TENANTS, Keys.tenantByOrd(globex)),
          "ordinals-dense: ordinal " + globex + " < next_ord 3 has no 't' row",
          "ordinals-unique: 'n' 'globex' says ordinal "
              + globex
              + " but 't' "
              + globex
              + " names null",
          "row-ordinal-assigned: due row "
              + globexDue
              + " is filed under ordinal "
              + globex
              + ", which was never assigned (no 't' row)",
          "row-ordinal-assigned: inflight row "
              + globexInflight
              + " is filed under ordinal "
              + globex
              + ", which was never assigned (no 't' row)");
      assertBreaches(
          store,
          new Batch()
              .put(Format3.TENANTS, Keys.tenantByOrd(globex), TenantByOrdValue.ERASED.encode())
              .delete(Format3.TENANTS, Keys.ordByTenant(TenantId.of("globex"))),
          "row-ordinal-assigned: due row "
              + globexDue
              + " is filed under ordinal "
              + globex
              + ", which is erased (its 't' row is a tombstone)",
          "row-ordinal-assigned: inflight row "
              + globexInflight
              + " is filed under ordinal "
              + globex
              + ", which is erased (its 't' row is a tombstone)");
      DueKey misfiled = new DueKey(globex, later, 4, 1);
      assertBreaches(
          store,
          new Batch()
              .delete(Format3.INDEX, Keys.due(acme, later, 4, 1))
              .put(
                  Format3.INDEX,
                  Keys.due(globex, later, 4, 1),
                  store.get(Format3.INDEX, Keys.due(acme, later, 4, 1)))
              .merge(Format3.COUNTERS, Keys.counter(acme, CounterField.PENDING), -1)
              .merge(Format3.COUNTERS, Keys.counter(acme, CounterField.BYTES), -3)
              .merge(Format3.COUNTERS, Keys.counter(globex, CounterField.PENDING), 1)
              .merge(Format3.COUNTERS, Keys.counter(globex, CounterField.BYTES), 3),
          "row-ordinal-matches-hook: due row "
              + misfiled
              + " is filed under ordinal "
              + globex
              + " (tenant 'globex') but hook seq 4 belongs to tenant 'acme'");
      assertThat(QueueVerifier.verify(store))
          .as("the verifier after every damage was repaired")
          .isEmpty();
    }
  }

  /**
   * Writes {@code damage}, checks that the verifier reports exactly {@code breaches} (as {@code
   * invariant: detail}, in any order), then undoes the damage: each put or deleted key gets its old
   * value back, each merge its negation.
   */
  private static void assertBreaches(Store store, Batch damage, String... breaches) {
    Batch repair = new Batch();
    List<Op> ops = new ArrayList<>(damage.ops());
    Collections.reverse(
        ops); // restores read the store before the damage; order matters only for a key touched
    // twice
    for (Op op : ops) {
      if (op instanceof Op.Put p) {
        restore(store, repair, p.family(), p.key());
      } else if (op instanceof Op.Delete del) {
        restore(store, repair, del.family(), del.key());
      } else if (op instanceof Op.Merge m) {
        repair.merge(m.family(), m.key(), -m.delta());
      } else {
        throw new IllegalArgumentException(
            "a damage of the verifier case is key by key, not " + op);
      }
    }
    store.write(damage, Durability.SYNC);
    List<String> found =
        QueueVerifier.verify(store).stream().map(QueueVerifier.Breach::toString).toList();
    store.write(repair, Durability.SYNC);
    assertThat(found).as("breaches after %s", damage.ops()).containsExactlyInAnyOrder(breaches);
  }

  private static void restore(ReadView view, Batch repair, String family, byte[] key) {
    byte[] old = view.get(family, key);
    if (old == null) {
      repair.delete(family, key);
    } else {
      repair.put(family, key, old);
    }
  }

  /**
   * Reclaim deletes exactly the hooks nothing owes, whichever way it finds what a hook owes, and
   * its passes walk the cleared markers as a cursor that never goes back to their head: 40 hooks
   * with the archive on, hook {@code i} (seq {@code i + 1}) with one sink delivered ({@code i % 4
   * == 0}: nothing owes it once archived), two sinks of which the second is still inflight ({@code
   * i % 4 == 1}: owed, with a cleared marker) or 20 sinks all inflight (owed; 20 delivery rows each
   * in the span of every pass, far more than a pass reads before it checks the hooks it did not
   * reach one by one). With seqs up to 20 archived (each archive settle marks its hook), a pass of
   * 8 markers reclaims 2 hooks, a pass of 12 from where it stopped reclaims 3, the next reaches the
   * end of the markers (those above seq 20 still owe the archive) and reclaims none, and one more
   * finds nothing. Once everything is archived, the archive's settles lower the cursor to seq 21,
   * and a pass from there reclaims the other 5 without visiting the owed markers below it again;
   * delivering hook 2's second sink marks hook 2 again and lowers the cursor to it, and the next
   * pass reclaims it. {@link Reclaim#backlog} agrees with the store before and after, and the
   * verifier finds nothing.
   */
  @Example
  default void reclaimDeletesExactlyTheHooksNothingOwes() {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        hooks.add(d.newHook("acme", START + i, i % 4 == 0 ? 1 : i % 4 == 1 ? 2 : 20, 4));
      }
      d.ingest().ingest(hooks);
      List<InflightRow> claimed =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 10_000, Long.MAX_VALUE)
              .tick(START + 60_000)
              .claimed();
      assertThat(claimed).as("every row claimed").hasSize(10 + 10 * 2 + 20 * 20);
      Transition settle = new Transition();
      InflightRow hookTwoSinkTwo = null;
      for (InflightRow row : claimed) {
        long i = row.key().seq() - 1;
        if (i % 4 == 0 || (i % 4 == 1 && row.key().sink() == 1)) {
          Deliveries.delivered(settle, row);
        } else if (row.key().seq() == 2) {
          hookTwoSinkTwo = row;
        }
      }
      d.write(settle);
      d.archiveWatermark(20);
      d.archiver().drain();
      assertThat(Reclaim.backlog(t.store()))
          .as("backlog: 40 hooks, free ones above seq 20 owe the archive")
          .isEqualTo(new Reclaim.Backlog(40, 35));
      assertThat(Reclaim.backlog(t.store()).unowed()).isEqualTo(5);

      assertThat(Reclaim.pass(d.queue(), 8))
          .as("markers 1 to 8: 1 and 5 owe nothing")
          .isEqualTo(new Reclaim.Pass(8, 2, false));
      assertThat(Reclaim.pass(d.queue(), 12))
          .as("markers 9 to 20: 9, 13 and 17 owe nothing")
          .isEqualTo(new Reclaim.Pass(12, 3, false));
      assertThat(Reclaim.pass(d.queue(), 12))
          .as("the ten markers above 20, all owing the archive: the end")
          .isEqualTo(new Reclaim.Pass(10, 0, true));
      assertThat(Reclaim.pass(d.queue(), 12))
          .as("nothing past the last marker")
          .isEqualTo(new Reclaim.Pass(0, 0, true));
      d.archiveWatermark(40);
      d.archiver().drain();
      assertThat(Reclaim.pass(d.queue(), 1_000))
          .as(
              "from 21, where the archive's settles lowered the cursor: the 20"
                  + " markers from 21 up, 5 of them owing nothing")
          .isEqualTo(new Reclaim.Pass(20, 5, true));
      Transition last = new Transition();
      Deliveries.delivered(last, hookTwoSinkTwo);
      d.write(last);
      assertThat(Reclaim.pass(d.queue(), 1_000))
          .as(
              "from 2, where delivering hook 2's second sink lowered the cursor:"
                  + " the 30 markers left from 2 up, hook 2 now owing nothing")
          .isEqualTo(new Reclaim.Pass(30, 1, true));

      Set<Long> expected = new TreeSet<>();
      for (long seq = 3; seq <= 40; seq++) {
        if ((seq - 1) % 4 != 0) {
          expected.add(seq);
        }
      }
      assertThat(storedHookSeqs(t.store()))
          .as("hooks left: every owed one, none of the free ones")
          .isEqualTo(expected);
      assertThat(Reclaim.backlog(t.store()))
          .as("backlog after reclaim")
          .isEqualTo(new Reclaim.Backlog(29, 29));
      assertThat(QueueVerifier.verify(t.store())).isEmpty();
    }
  }

  /**
   * Recovery counts only the rows it moved: three inflight rows, the third one's hook gone; a
   * settle of the first and the third commits between recovery's scan and its batch (forced: it
   * runs when recovery reads the hooks of its chunk). Recovery makes only the second due again,
   * reports one row recovered and no orphan dropped, and the counters equal a fold.
   */
  @Example
  default void recoveryCountsOnlyTheRowsItMoved() {
    try (TempDirStore t = openQueueStore()) {
      AtomicReference<Runnable> beforeHookRead = new AtomicReference<>();
      Store store =
          new ForwardingStore(t.store()) {
            @Override
            public List<byte[]> multiGet(String family, List<byte[]> keys) {
              Runnable race = family.equals(Format3.HOOKS) ? beforeHookRead.getAndSet(null) : null;
              if (race != null) {
                race.run();
              }
              return super.multiGet(family, keys);
            }
          };
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("acme", START, 1, 3),
                  d.newHook("acme", START, 1, 4),
                  d.newHook("acme", START, 1, 5)));
      List<InflightRow> claimed =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 100, Long.MAX_VALUE)
              .tick(START + 1_000)
              .claimed();
      assertThat(claimed).as("every row claimed").hasSize(3);
      store.write(new Batch().delete(Format3.HOOKS, Keys.hook(3)), Durability.SYNC);
      beforeHookRead.set(
          () -> {
            Transition settle = new Transition();
            claimed.stream()
                .filter(r -> r.key().seq() != 2)
                .forEach(r -> Deliveries.delivered(settle, r));
            d.write(settle);
          });

      InflightRecovery.Result result = InflightRecovery.recoverInflight(d.queue(), START + 2_000);

      assertThat(beforeHookRead.get()).as("the settle ran inside recovery").isNull();
      assertThat(List.of(result.recovered(), result.orphansDropped()))
          .as("rows recovered, orphans dropped")
          .isEqualTo(List.of(1L, 0L));
      assertThat(d.inflightRows()).as("inflight rows after recovery").isEmpty();
      assertThat(d.queue().counters().read(store, ordOf(store, "acme")))
          .as("acme: hook 2's row due again, 4 bytes")
          .isEqualTo(new TenantCounts(1, 0, 0, 0, 4, 0));
      assertCountersEqualFold(store, "after recovery raced by a settle");
    }
  }
}
