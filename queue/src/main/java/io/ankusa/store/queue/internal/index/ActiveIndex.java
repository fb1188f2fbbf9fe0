package io.ankusa.store.queue.internal.index;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * The active index: a marker {@code 'A' (at/1000) ord} for every (tenant, second) that has a due
 * row (docs/storage.md). Invariant: no due row without a marker. Writers only put markers (the
 * due-row builder puts one with every due row); only the dispatcher deletes them, in {@link
 * #cleanup}, and only in the delete-then-verify order that keeps the invariant under any
 * interleaving with writers.
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
    return activeTenants(view, 0, now, limit);
  }

  /**
   * {@link #activeTenants(ReadView, long, int)} from second {@code fromBucket} on: how the
   * dispatcher starts at its queue's {@link
   * io.ankusa.store.queue.internal.DeliveryQueue#markerFloor}, before which no marker lies, instead
   * of walking the deletions of the markers earlier cleanups removed (which an LSM engine keeps
   * until compaction). REQUIRES: no marker the caller must see has a bucket before {@code
   * fromBucket}.
   */
  public static List<ActiveKey> activeTenants(ReadView view, long fromBucket, long now, int limit) {
    KeyRange range = Keys.activeBetween(fromBucket, ActiveKey.bucketOf(now));
    List<ActiveKey> out = new ArrayList<>(Math.min(limit, 1024));
    if (limit <= 0) {
      return out;
    }
    // A visit, not a scan: each key is decoded at once, so the backend need not copy it.
    view.visit(
        range.columnFamily(),
        range.lo(),
        range.hi(),
        Direction.FORWARD,
        (key, value) -> {
          out.add(ActiveKey.decode(key));
          return out.size() < limit;
        });
    return out;
  }

  /**
   * Cleanup after the dispatcher claimed from tenant {@code ord}, whose markers in {@code
   * scannedBuckets} it saw in {@link #activeTenants}:
   *
   * <ol>
   *   <li>{@code first = firstDue(ord)}; if it is due, its marker was not among {@code
   *       scannedBuckets} and is missing, put it back (see {@link #restoreUnseenHeadMarker});
   *   <li>delete the scanned markers with a bucket before {@code first}'s bucket (before now's
   *       bucket when the tenant has no due row) — never the current second's;
   *   <li>read the tenant's due rows in the seconds just deleted (one range, from the first deleted
   *       second to the end of the last) and put back the marker of every deleted second that holds
   *       one.
   * </ol>
   *
   * No due row was in those seconds at (1), so the rows (3) finds are exactly those writers
   * committed meanwhile, however many and in however many seconds: one committed before (1) is seen
   * by (1); one committed between (1) and (2) lost its marker to (2) and is seen by (3); one
   * committed after (2) keeps its own marker. So no interleaving leaves a due row without a marker
   * (properties {@code cleanupDoesNotLoseAMarkerToAConcurrentEnqueue}, {@code
   * cleanupKeepsTheMarkersOfConcurrentEnqueuesInTwoSeconds}).
   *
   * @return how many markers were deleted and not put back
   */
  public static int cleanup(Store store, long ord, List<Long> scannedBuckets, long now) {
    return cleanup(store, ord, scannedBuckets, now, () -> {});
  }

  /**
   * {@link #cleanup(Store, long, List, long)} with {@code betweenDeleteAndVerify} run after step
   * 2's delete is written and before step 3 reads: the seam a test uses to commit a writer's batch
   * in the one window where a careless cleanup would lose its marker.
   */
  public static int cleanup(
      Store store, long ord, List<Long> scannedBuckets, long now, Runnable betweenDeleteAndVerify) {
    return cleanup(store, ord, scannedBuckets, now, null, betweenDeleteAndVerify);
  }

  /**
   * {@link #cleanup(Store, long, List, long)} with step 1 reading the tenant's first due row from
   * {@code firstFrom} on (null: its first key) — the dispatcher passes its cursor, so step 1 does
   * not walk the tombstones of rows it already claimed. A row put behind {@code firstFrom} before
   * step 1 is not seen there; then its second's marker may be deleted in step 2, and step 3, which
   * reads the deleted seconds whole, puts it back — the same as for a row committed between steps 1
   * and 2.
   */
  public static int cleanup(
      Store store,
      long ord,
      List<Long> scannedBuckets,
      long now,
      DueKey firstFrom,
      Runnable betweenDeleteAndVerify) {
    return cleanupAll(
        store,
        List.of(new TenantMarkers(ord, scannedBuckets, firstFrom)),
        now,
        betweenDeleteAndVerify);
  }

  /**
   * The markers of one tenant that a tick saw, for {@link #cleanupAll}.
   *
   * @param ord the tenant
   * @param scannedBuckets the seconds of its markers the tick saw
   * @param firstFrom where step 1 reads its first due row from (null: its first key), unless {@code
   *     headSeen}
   * @param headSeen whether step 1 takes {@code head} instead of reading the store
   * @param head with {@code headSeen}: the tenant's first due row, as the dispatcher's own scan saw
   *     it (null when none is due up to the end of the tick's second)
   */
  public record TenantMarkers(
      long ord, List<Long> scannedBuckets, DueKey firstFrom, boolean headSeen, DueKey head) {
    /**
     * Markers whose tenant's first due row step 1 reads from {@code firstFrom} on (null: its first
     * key).
     */
    public TenantMarkers(long ord, List<Long> scannedBuckets, DueKey firstFrom) {
      this(ord, scannedBuckets, firstFrom, false, null);
    }

    /**
     * Markers whose tenant's first due row the dispatcher's scan of it saw ({@link
     * DueIndex.Visit#head()}), so step 1 reads nothing: the tick's claims were written after that
     * scan and before this cleanup, and whatever a writer committed since is caught by step 3,
     * which reads the deleted seconds whole.
     */
    public static TenantMarkers seenByScan(long ord, List<Long> scannedBuckets, DueKey head) {
      return new TenantMarkers(ord, scannedBuckets, null, true, head);
    }

    /**
     * The tenant's first due row's key for step 1 (null: none), read from {@code view} unless seen.
     */
    DueKey firstDue(ReadView view) {
      if (headSeen) {
        return head;
      }
      DueRow first =
          firstFrom == null
              ? DueIndex.firstDue(view, ord)
              : DueIndex.firstDueFrom(view, ord, firstFrom);
      return first == null ? null : first.key();
    }
  }

  /**
   * {@link #cleanup(Store, long, List, long, DueKey, Runnable)} for several tenants at once, with
   * each step's writes for all of them in one batch: step 1 for every tenant (a head marker
   * restored goes into step 2's batch), one batch deleting every tenant's stale markers, then step
   * 3 for every tenant and one batch of put-backs. Each tenant's delete is written before its
   * verify reads, which is all the argument above needs, so the guarantee is the same; a tick that
   * visited twenty tenants writes two batches instead of forty. Returns the markers deleted and not
   * put back, over all tenants.
   */
  public static int cleanupAll(
      Store store, List<TenantMarkers> tenants, long now, Runnable betweenDeleteAndVerify) {
    return cleanupAll(store, tenants, now, betweenDeleteAndVerify, bucket -> {});
  }

  /**
   * {@link #cleanupAll(Store, List, long, Runnable)} telling {@code markerPut} the bucket of every
   * marker it puts (a head marker restored, a marker put back), after the write that puts it: how
   * the dispatcher keeps its queue's {@link
   * io.ankusa.store.queue.internal.DeliveryQueue#markerFloor} at or below every marker.
   */
  public static int cleanupAll(
      Store store,
      List<TenantMarkers> tenants,
      long now,
      Runnable betweenDeleteAndVerify,
      LongConsumer markerPut) {
    long nowBucket = ActiveKey.bucketOf(now);
    Batch delete = new Batch();
    long lowestRestored = Long.MAX_VALUE;
    Map<Long, NavigableSet<Long>> deletedByTenant = new LinkedHashMap<>();
    for (TenantMarkers t : tenants) {
      long ord = t.ord();
      DueKey first = t.firstDue(store);
      if (first != null
          && restoreUnseenHeadMarker(
              store, delete, ord, ActiveKey.bucketOf(first.at()), t.scannedBuckets(), nowBucket)) {
        lowestRestored = Math.min(lowestRestored, ActiveKey.bucketOf(first.at()));
      }
      long keepFrom =
          first == null ? nowBucket : Math.min(ActiveKey.bucketOf(first.at()), nowBucket);
      NavigableSet<Long> deleted = new TreeSet<>();
      for (long bucket : t.scannedBuckets()) {
        if (bucket < keepFrom && deleted.add(bucket)) {
          Deliveries.deleteMarker(delete, new ActiveKey(bucket, ord));
        }
      }
      if (!deleted.isEmpty()) {
        deletedByTenant.put(ord, deleted);
      }
    }
    if (!delete.isEmpty()) {
      store.write(delete, Durability.NO_SYNC);
    }
    if (lowestRestored != Long.MAX_VALUE) {
      markerPut.accept(lowestRestored);
    }
    if (deletedByTenant.isEmpty()) {
      return 0;
    }
    betweenDeleteAndVerify.run();
    Batch putBack = new Batch();
    int kept = 0;
    long lowestPutBack = Long.MAX_VALUE;
    for (Map.Entry<Long, NavigableSet<Long>> e : deletedByTenant.entrySet()) {
      Set<Long> refilled = bucketsWithDueRows(store, e.getKey(), e.getValue());
      for (long bucket : refilled) {
        Deliveries.putMarker(putBack, new ActiveKey(bucket, e.getKey()));
        lowestPutBack = Math.min(lowestPutBack, bucket);
      }
      kept += e.getValue().size() - refilled.size();
    }
    if (!putBack.isEmpty()) {
      store.write(putBack, Durability.NO_SYNC);
      markerPut.accept(lowestPutBack);
    }
    return kept;
  }

  /**
   * Puts the marker of the tenant's first due row back if it is missing, when that row is due (its
   * bucket at or before now's) and its marker was not among those the tick saw: one point read,
   * only in that case. This is how rows a crash stranded in the middle of a cleanup (its delete
   * persisted, its put-back lost) are reached: they sit at the head of the tenant's due rows,
   * boot's {@link #repair} restores the first one's marker, and each cleanup then restores the next
   * one's as the dispatcher claims its way through them. Returns whether it put the marker.
   */
  private static boolean restoreUnseenHeadMarker(
      Store store,
      Batch into,
      long ord,
      long headBucket,
      List<Long> scannedBuckets,
      long nowBucket) {
    if (headBucket > nowBucket || scannedBuckets.contains(headBucket)) {
      return false;
    }
    ActiveKey marker = new ActiveKey(headBucket, ord);
    if (store.get(Format3.INDEX, Deliveries.markerKey(marker)) == null) {
      Deliveries.putMarker(into, marker);
      return true;
    }
    return false;
  }

  /**
   * The buckets among {@code buckets} (sorted, non-empty, all before now's) in which tenant {@code
   * ord} has a due row: one scan of its {@code 'D'} range from the first bucket's start to the last
   * bucket's end.
   */
  private static Set<Long> bucketsWithDueRows(ReadView view, long ord, NavigableSet<Long> buckets) {
    long fromBucket = buckets.first();
    long toBucket = buckets.last();
    KeyRange range =
        Keys.dueOfBetween(
            ord,
            fromBucket * ActiveKey.BUCKET_MILLIS,
            toBucket * ActiveKey.BUCKET_MILLIS + (ActiveKey.BUCKET_MILLIS - 1));
    Set<Long> out = new TreeSet<>();
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        long bucket = ActiveKey.bucketOf(DueKey.decode(scan.next().key()).at());
        if (buckets.contains(bucket)) {
          out.add(bucket);
        }
      }
    }
    return out;
  }

  /**
   * Age of the oldest due row, from the first marker verified against that tenant's first due row:
   * a stale marker (its tenant has no due row in that second any more) is skipped, at most {@value
   * #STALE_MARKER_SKIP} of them; when the next marker is stale too, its bucket start is reported —
   * exact to a second, and O(1) however many stale markers a slow cleanup left. 0 when nothing is
   * due. Each tenant's first due row is read from its first key.
   */
  public static long oldestDueAgeMs(ReadView view, long now) {
    return oldestDueAgeMs(view, now, ord -> null);
  }

  /**
   * {@link #oldestDueAgeMs(ReadView, long)}, reading each tenant's first due row from {@code
   * from.apply(ord)} (null: its first key) — the queue passes its dispatch cursors, before which no
   * due row sorts (see {@code DueCursors}), so the read seeks past the tombstones of the
   * dispatcher's claims instead of walking them, as cleanup's does. A row put behind a cursor is
   * seen once its writer has lowered the cursor, right after its write; until then the tenant's
   * marker for that second reads as stale. REQUIRES: no due row of a tenant sorts before the key
   * {@code from} gives for it, other than such a row.
   */
  public static long oldestDueAgeMs(ReadView view, long now, LongFunction<DueKey> from) {
    return oldestDueAgeMs(view, 0, now, from);
  }

  /**
   * {@link #oldestDueAgeMs(ReadView, long, LongFunction)} reading the markers from second {@code
   * fromBucket} on (the queue's marker floor; see {@link #activeTenants(ReadView, long, long,
   * int)}).
   */
  public static long oldestDueAgeMs(
      ReadView view, long fromBucket, long now, LongFunction<DueKey> from) {
    KeyRange range = Keys.activeBetween(fromBucket, ActiveKey.bucketOf(now));
    // A visit: each marker is decoded at once, and the tenant's first due row is read inside it.
    long[] age = {0};
    int[] skipped = {0};
    view.visit(
        range.columnFamily(),
        range.lo(),
        range.hi(),
        Direction.FORWARD,
        (key, value) -> {
          ActiveKey marker = ActiveKey.decode(key);
          DueKey start = from.apply(marker.ord());
          DueRow first =
              start == null
                  ? DueIndex.firstDue(view, marker.ord())
                  : DueIndex.firstDueFrom(view, marker.ord(), start);
          if (first != null && ActiveKey.bucketOf(first.key().at()) == marker.bucket()) {
            age[0] = Math.max(0, now - first.key().at());
            return false;
          }
          if (skipped[0] == STALE_MARKER_SKIP) {
            age[0] = Math.max(0, now - marker.bucket() * ActiveKey.BUCKET_MILLIS);
            return false;
          }
          skipped[0]++;
          return true;
        });
    return age[0];
  }

  /**
   * Boot-time repair: for every tenant whose counters say it has due rows, makes sure its first due
   * row has its marker. A crash between cleanup's delete and its put-back (step 3) can persist the
   * delete alone; the rows it strands are those writers committed into the deleted seconds during
   * that cleanup, all ahead of the tenant's other due rows. This restores the first one's marker;
   * later cleanups restore the next ones' as the dispatcher reaches them ({@link #cleanup},
   * property {@code aCrashInsideCleanupStrandsNoRowForGood}). Cost: one counters read per tenant
   * plus one seek per tenant with due rows.
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
