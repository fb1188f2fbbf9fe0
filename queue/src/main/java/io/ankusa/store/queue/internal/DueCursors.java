package io.ankusa.store.queue.internal;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the next scan of each tenant's due rows starts: {@code ord -> (at, seq, sink)}, in memory
 * only (never persisted; one table per {@link DeliveryQueue}). A dispatcher's tick claims a
 * tenant's rows in key order and leaves tombstones behind until compaction; resuming at the last
 * claimed key seeks past them instead of walking them on every later tick.
 *
 * <p>Invariant: no claimable due row of a tenant sorts before its cursor. Claims only delete rows,
 * so they keep it. Every batch that puts due rows lowers the cursor of each tenant it puts rows for
 * to the earliest {@code at} it put ({@link #lower}, called by {@link DeliveryQueue#write} and by
 * the ingest paths after their write), and a row above the durable watermark is never passed
 * ({@link io.ankusa.store.queue.internal.index.DueIndex#claimable}). A put may land while a tick
 * scans, behind the tick's progress: so {@link #start} also starts recording the puts, and {@link
 * #advance} moves the cursor no further than the lowest of them. A tenant with no entry is scanned
 * from its first key, which is always correct: after a restart, after {@link #evict} forgot a
 * drained tenant (only once more than {@value #KEPT_DRAINED} tenants have entries), or when no tick
 * scanned it yet. Only a scan makes an entry ({@link #start}); a put to a tenant without one makes
 * none.
 *
 * <p>Thread-safe: {@link #start}, {@link #advance} and {@link #evict} run under the tenant's {@link
 * TransitionGuard} stripe (one scan of a tenant at a time); {@link #lower} from any thread, without
 * it. Each call is one atomic update of the tenant's entry. Memory: one entry per tenant scanned
 * since it last drained (or put to since), plus up to {@value #KEPT_DRAINED} drained ones.
 */
public final class DueCursors {
  private static final Comparator<DueKey> ORDER =
      Comparator.comparingLong(DueKey::at)
          .thenComparingLong(DueKey::seq)
          .thenComparingInt(DueKey::sink);

  /** One tenant's cursor; mutated only inside the map's atomic updates. */
  private static final class Cursor {
    /**
     * Where the next scan starts (inclusive); null: at the tenant's first key. Volatile for {@link
     * #peek}.
     */
    volatile DueKey start;

    /**
     * Whether a put landed since the current scan started, and the lowest such position (null: the
     * head).
     */
    boolean putSinceStart;

    DueKey lowestPut;
  }

  /** How many tenants may keep a cursor after they drained. */
  static final int KEPT_DRAINED = 1 << 16;

  private final ConcurrentHashMap<Long, Cursor> cursors = new ConcurrentHashMap<>();

  /**
   * Where tenant {@code ord}'s scan starts now (null: its first key); from here until {@link
   * #advance} or {@link #evict}, puts of the tenant are recorded. A tenant without an entry gets
   * one here (at its first key), so every scan under way has an entry for {@link #lower} to record
   * into.
   */
  public DueKey start(long ord) {
    DueKey[] start = new DueKey[1];
    cursors.compute(
        ord,
        (o, c) -> {
          Cursor out = c == null ? new Cursor() : c;
          start[0] = out.start;
          out.putSinceStart = false;
          out.lowestPut = null;
          return out;
        });
    return start[0];
  }

  /** Where tenant {@code ord}'s next scan would start (null: its first key), recording nothing. */
  public DueKey peek(long ord) {
    Cursor c = cursors.get(ord);
    return c == null ? null : c.start;
  }

  /**
   * The scan that {@link #start} began stopped at {@code next} (inclusive: the next scan starts
   * there); the cursor moves there, or to the lowest put that landed meanwhile if that is lower.
   */
  public void advance(long ord, DueKey next) {
    cursors.compute(
        ord,
        (o, c) -> {
          Cursor out = c == null ? new Cursor() : c;
          out.start = c != null && c.putSinceStart ? lower(next, c.lowestPut) : next;
          out.putSinceStart = false;
          out.lowestPut = null;
          return out;
        });
  }

  /**
   * The scan that {@link #start} began reached the end of what is due without claiming past {@code
   * next}: the tenant drained. It keeps its cursor (at {@code next}, or lower if a put landed
   * meanwhile) while the table holds at most {@link #KEPT_DRAINED} tenants, so a tenant that drains
   * on every tick does not walk the tombstones of its earlier claims on every tick; past that, a
   * drained tenant's cursor is forgotten (unless a put landed meanwhile), which keeps the table's
   * memory bounded by the tenants with work plus {@value #KEPT_DRAINED}.
   */
  public void evict(long ord, DueKey next) {
    boolean keep = cursors.size() <= KEPT_DRAINED;
    cursors.computeIfPresent(
        ord,
        (o, c) -> {
          if (!c.putSinceStart && !keep) {
            return null;
          }
          c.start = c.putSinceStart ? lower(next, c.lowestPut) : next;
          c.putSinceStart = false;
          c.lowestPut = null;
          return c;
        });
  }

  /**
   * A batch put due rows of tenant {@code ord}, the earliest at {@code earliestAt}: the cursor
   * moves back to {@code (earliestAt, 0, 0)} if it is past it, and a scan under way records the
   * put. A tenant without an entry gets none: no scan of it is under way ({@link #start} makes the
   * entry of every scan), and its next scan starts at its first key anyway. Making one here would
   * fill the table with tenants that were only written to (every tenant of a large queue), and past
   * {@value #KEPT_DRAINED} entries {@link #evict} would forget the cursors of the tenants that are
   * dispatched, which then walk their claims' tombstones on every tick.
   */
  public void lower(long ord, long earliestAt) {
    DueKey at = new DueKey(ord, earliestAt, 0, 0);
    cursors.computeIfPresent(
        ord,
        (o, c) -> {
          c.start = lower(c.start, at);
          c.lowestPut = c.putSinceStart ? lower(c.lowestPut, at) : at;
          c.putSinceStart = true;
          return c;
        });
  }

  /** Lowers the cursors of every tenant and second {@code t} put a due row in. */
  void lowerFor(Transition t) {
    for (Map.Entry<ActiveKey, Long> marker : t.markersPut().entrySet()) {
      lower(marker.getKey().ord(), marker.getValue());
    }
  }

  /** The lower of two positions; null is the head, below every key. */
  private static DueKey lower(DueKey a, DueKey b) {
    if (a == null || b == null) {
      return null;
    }
    return ORDER.compare(a, b) <= 0 ? a : b;
  }
}
