package io.ankusa.store.queue;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The active index: a marker {@code 'A' (at/1000) ord} for every (tenant, second) that has a due row
 * (DESIGN §4). Invariant: no due row without a marker. Writers only ever put markers (the due-row
 * builder puts one with every due row); only the dispatcher deletes them, in {@link #cleanup}, and
 * only in the delete-then-verify order that keeps the invariant under any interleaving with writers.
 */
public final class ActiveIndex {
  /** How many markers {@link #activeTenants} returns by default. */
  public static final int DEFAULT_LIMIT = 4096;
  /** How many stale markers {@link #oldestDueAgeMs} skips before giving up. */
  public static final int STALE_MARKER_SKIP = 32;

  private ActiveIndex() {}

  /**
   * The first {@code limit} markers with {@code bucket <= now / 1000}, oldest second first: who has
   * something due now. The cost depends on the markers returned, never on idle tenants or the
   * backlog.
   */
  public static List<ActiveKey> activeTenants(ReadView view, long now, int limit) {
    KeyRange range = Keys.activeUpTo(ActiveKey.bucketOf(now));
    List<ActiveKey> out = new ArrayList<>(Math.min(limit, 1024));
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (out.size() < limit && scan.hasNext()) {
        out.add(ActiveKey.decode(scan.next().key()));
      }
    }
    return out;
  }

  /**
   * Cleanup after the dispatcher claimed from tenant {@code ord}, whose markers in {@code
   * scannedBuckets} it saw in {@link #activeTenants}:
   *
   * <ol>
   *   <li>{@code first = firstDue(ord)};
   *   <li>delete the scanned markers with a bucket before {@code first}'s bucket (before now's
   *       bucket when the tenant has no due row) — never the current second's;
   *   <li>for each bucket just deleted, if the tenant now has a due row in that second, put its marker
   *       back.
   * </ol>
   *
   * A writer that commits a due row between (2) and (3) is seen by (3), whichever deleted bucket it
   * lands in (several writers may land in several); one that commits before (1) is seen by (1); its
   * own marker put after our delete survives. So no interleaving leaves a due row without a marker
   * (properties {@code cleanupDoesNotLoseAMarkerToAConcurrentEnqueue} and {@code
   * conflictingTransitionsKeepCountersExact}).
   *
   * @return how many markers were deleted and not put back
   */
  public static int cleanup(Store store, long ord, List<Long> scannedBuckets, long now) {
    return cleanup(store, ord, scannedBuckets, now, () -> {});
  }

  /**
   * {@link #cleanup(Store, long, List, long)} with {@code betweenDeleteAndVerify} run after step 2's
   * delete is written and before step 3 reads: the seam a test uses to commit a writer's batch in
   * the one window where a careless cleanup would lose its marker.
   */
  public static int cleanup(Store store, long ord, List<Long> scannedBuckets, long now, Runnable betweenDeleteAndVerify) {
    long nowBucket = ActiveKey.bucketOf(now);
    DueRow first = DueIndex.firstDue(store, ord);
    long keepFrom = first == null ? nowBucket : Math.min(ActiveKey.bucketOf(first.key().at()), nowBucket);
    List<ActiveKey> deleted = new ArrayList<>();
    Batch delete = new Batch();
    for (long bucket : scannedBuckets) {
      if (bucket < keepFrom) {
        ActiveKey marker = new ActiveKey(bucket, ord);
        Deliveries.deleteMarker(delete, marker);
        deleted.add(marker);
      }
    }
    if (deleted.isEmpty()) {
      return 0;
    }
    store.write(delete, Durability.NO_SYNC);
    betweenDeleteAndVerify.run();
    // One scan from the first deleted second to the end of the last: empty unless a writer committed
    // into those seconds since (1), which all lay before the tenant's first due row.
    Set<Long> emptied = new HashSet<>();
    long lowest = Long.MAX_VALUE;
    long highest = Long.MIN_VALUE;
    for (ActiveKey marker : deleted) {
      emptied.add(marker.bucket());
      lowest = Math.min(lowest, marker.bucket());
      highest = Math.max(highest, marker.bucket());
    }
    KeyRange range = Keys.dueOfBetween(ord, lowest * ActiveKey.BUCKET_MILLIS,
        (highest + 1) * ActiveKey.BUCKET_MILLIS - 1);
    Batch putBack = new Batch();
    int restored = 0;
    try (Scan scan = store.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        long bucket = ActiveKey.bucketOf(DueKey.decode(scan.next().key()).at());
        if (emptied.remove(bucket)) {
          Deliveries.putMarker(putBack, new ActiveKey(bucket, ord));
          restored++;
        }
      }
    }
    if (restored > 0) {
      store.write(putBack, Durability.NO_SYNC);
    }
    return deleted.size() - restored;
  }

  /**
   * Age of the oldest due row, from the first marker verified against that tenant's first due row
   * (TEN-1.a §5): a stale marker (its tenant has no due row in that second any more) is skipped, at
   * most {@value #STALE_MARKER_SKIP} of them; when the next marker is stale too, its bucket start is
   * reported — exact to a second, and O(1) however many stale markers a slow cleanup left. 0 when
   * nothing is due.
   */
  public static long oldestDueAgeMs(ReadView view, long now) {
    KeyRange range = Keys.activeUpTo(ActiveKey.bucketOf(now));
    int skipped = 0;
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        ActiveKey marker = ActiveKey.decode(scan.next().key());
        DueRow first = DueIndex.firstDue(view, marker.ord());
        if (first != null && ActiveKey.bucketOf(first.key().at()) == marker.bucket()) {
          return Math.max(0, now - first.key().at());
        }
        if (skipped == STALE_MARKER_SKIP) {
          return Math.max(0, now - marker.bucket() * ActiveKey.BUCKET_MILLIS);
        }
        skipped++;
      }
    }
    return 0;
  }

  /**
   * Boot-time repair: for every tenant whose counters say it has due rows, makes sure its first due
   * row has its marker. A crash between cleanup's delete and its put-back (step 3) can persist the
   * delete alone; the row it strands is always the tenant's first due row, which this restores.
   * Cost: one counters read per tenant plus one seek per tenant with due rows.
   *
   * @return markers put back
   */
  public static int repair(Store store, Counters counters) {
    long tenants = Tenants.count(store);
    Batch puts = new Batch();
    int repaired = 0;
    for (long ord = 1; ord <= tenants && ord <= Fields.MAX_ORDINAL; ord++) {
      if (counters.read(store, ord).due() <= 0) {
        continue;
      }
      DueRow first = DueIndex.firstDue(store, ord);
      if (first == null) {
        continue;
      }
      ActiveKey marker = new ActiveKey(ActiveKey.bucketOf(first.key().at()), ord);
      if (store.get(Format3.INDEX, Deliveries.markerKey(marker)) == null) {
        Deliveries.putMarker(puts, marker);
        repaired++;
      }
    }
    if (repaired > 0) {
      store.write(puts, Durability.SYNC);
    }
    return repaired;
  }

  /** Every marker (tests and verify): the whole {@code 'A'} family, oldest first. */
  public static List<ActiveKey> all(ReadView view) {
    KeyRange range = Keys.realKeysOf(KeyFamily.ACTIVE);
    List<ActiveKey> out = new ArrayList<>();
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(ActiveKey.decode(scan.next().key()));
      }
    }
    return out;
  }
}
