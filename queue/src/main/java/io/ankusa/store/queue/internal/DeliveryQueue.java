package io.ankusa.store.queue.internal;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.migration.QueueFormat;
import io.ankusa.store.queue.internal.tenant.OrdinalCache;
import io.ankusa.store.queue.internal.tenant.TenantAllocator;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;

/**
 * The queue on one open {@link Store}: its settings, counters, tenant allocator and the write path
 * every transition takes. The store must have been opened with {@link Format3#families()}; {@link
 * #open} checks or creates the format-3 layout. The queue does not own the store: close the store
 * after the queue's users are done.
 *
 * <p>Open one queue per store and share it between the writer, the dispatcher and maintenance: the
 * {@link TransitionGuard} that keeps two transitions from moving the same rows at once is this
 * object's, so transitions through two queues on one store are not ordered against each other. (A
 * second {@link io.ankusa.store.queue.internal.ingest.QueueWriter} on the same store is refused,
 * whichever queue it goes through.)
 */
public final class DeliveryQueue {
  private final Store store;
  private final QueueConfig config;
  private final Counters counters;
  private final OrdinalCache ordinalCache = new OrdinalCache();
  private final TenantAllocator allocator;

  /**
   * Where the next {@link io.ankusa.store.queue.internal.maintenance.Reclaim#pass} starts (a seq; 0
   * = the head of {@code 'c'}). In memory only.
   */
  private final ScanCursor reclaimCursor = new ScanCursor();

  /**
   * Where the next scan of the active markers starts (a bucket; 0 = their head). In memory only.
   */
  private final ScanCursor markerFloor = new ScanCursor();

  private final TransitionGuard guard;

  /** Where each tenant's next dispatch scan starts. In memory only. */
  private final DueCursors dueCursors = new DueCursors();

  private DeliveryQueue(Store store, QueueConfig config, TransitionGuard guard) {
    this.store = store;
    this.config = config;
    this.guard = guard;
    this.counters = new Counters(config);
    this.allocator = new TenantAllocator(ordinalCache, config.tenantsMax());
  }

  /**
   * The queue on {@code store}, laying out a new store as format 3 and migrating a format-2 one (or
   * resuming an interrupted migration) first.
   *
   * @throws io.ankusa.store.spi.StoreFormatException if the store is newer than format 3 or of a
   *     format no migration leaves
   */
  public static DeliveryQueue open(Store store, QueueConfig config) {
    return open(store, config, new TransitionGuard());
  }

  /**
   * {@link #open(Store, QueueConfig)} with the {@link TransitionGuard} given: for the conformance
   * suite, whose mutants pass a guard that lets some transitions through unchecked. Services use
   * the two-argument open.
   */
  public static DeliveryQueue open(Store store, QueueConfig config, TransitionGuard guard) {
    QueueFormat.openOrCreate(store, config);
    return new DeliveryQueue(store, config, guard);
  }

  public Store store() {
    return store;
  }

  public QueueConfig config() {
    return config;
  }

  public Counters counters() {
    return counters;
  }

  /**
   * The tenant → ordinal cache this queue's allocator fills as it finds or creates tenants (the
   * conformance suite reads it to check what is cached; the store stays the truth).
   */
  public OrdinalCache ordinalCache() {
    return ordinalCache;
  }

  /**
   * The allocator; only the writer (or {@link io.ankusa.store.queue.internal.ingest.DirectIngest})
   * may use it, from one thread.
   */
  public TenantAllocator allocator() {
    return allocator;
  }

  /**
   * The reclaim cursor: the seq the next {@link
   * io.ankusa.store.queue.internal.maintenance.Reclaim#pass} starts at, lowered by every transition
   * written here that puts a cleared marker behind it; see {@link
   * io.ankusa.store.queue.internal.maintenance.Reclaim}.
   */
  public ScanCursor reclaimCursor() {
    return reclaimCursor;
  }

  /**
   * Where the next scan of the active markers starts: the bucket before which no marker lies (the
   * dispatcher's scan moves it to the first marker it sees; every write of a marker lowers it); see
   * {@link io.ankusa.store.queue.internal.index.ActiveIndex#activeTenants}.
   */
  public ScanCursor markerFloor() {
    return markerFloor;
  }

  /**
   * The guard that serializes conflicting transitions of this queue (one per queue: open one queue
   * per store).
   */
  public TransitionGuard guard() {
    return guard;
  }

  /**
   * Writes one transition batch (ops, then its coalesced counter merges), as one atomic batch,
   * through the {@link TransitionGuard}: under the lock stripes of its tenants, each step whose
   * rows are no longer as its builder read them is dropped and the rest is written. Returns how
   * many steps were dropped; {@link Transition#applied} names them. No-op when empty. Thread-safe:
   * any thread may write any transition at any time; a conflicting one loses cleanly (property
   * {@code conflictingTransitionsKeepCountersExact}).
   */
  public int write(Transition t, Durability durability) {
    int dropped = guard.write(store, counters, t, durability);
    dueRowsWritten(t);
    long cleared = t.lowestClearedPut();
    if (cleared != Long.MAX_VALUE) {
      reclaimCursor.lower(cleared);
    }
    return dropped;
  }

  /**
   * Tells the dispatch cursors and the marker floor that {@code t}'s batch, now written, put due
   * rows (in the tenants and seconds of its markers), so no cursor stays past them ({@link
   * DueCursors}, {@link #markerFloor}). {@link #write} does this itself. REQUIRES: every caller
   * that writes a {@link Transition} putting due rows past {@link #write} (the ingest paths, which
   * write it inside a larger batch) calls this after the write.
   */
  public void dueRowsWritten(Transition t) {
    if (!t.markersPut().isEmpty()) {
      dueCursors.lowerFor(t);
      long lowest = Long.MAX_VALUE;
      for (ActiveKey marker : t.markersPut().keySet()) {
        lowest = Math.min(lowest, marker.bucket());
      }
      markerFloor.lower(lowest);
    }
  }

  /** The dispatch cursors of this queue ({@link DueCursors}). */
  public DueCursors dueCursors() {
    return dueCursors;
  }

  /** The highest seq ever assigned ({@code m:last_seq}). */
  public long lastSeq() {
    byte[] key = Keys.lastSeq();
    byte[] v = store.get(Format3.DEFAULT, key);
    return v == null ? 0 : LastSeqValue.decodeAt(key, v).seq();
  }
}
