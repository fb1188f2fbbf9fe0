package io.ankusa.store.queue;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the next scan of each tenant's due rows starts: {@code ord -> (at, seq, sink)}, in memory only
 * (never persisted; one table per {@link DeliveryQueue}). A dispatcher's tick claims a tenant's rows in
 * key order and leaves tombstones behind until compaction; resuming at the last claimed key seeks past
 * them instead of walking them on every later tick.
 *
 * <p>Invariant: no claimable due row of a tenant sorts before its cursor. Claims only delete rows, so
 * they keep it. Every batch that puts due rows lowers the cursor of each tenant it puts rows for to the
 * start of the earliest second it touched ({@link #lower}, called by {@link DeliveryQueue#write} and by
 * the ingest paths after their write), and a row above the durable watermark is never passed ({@link
 * DueIndex#claimable}). A tick that read a cursor and then advances it replaces it only if nobody lowered
 * it meanwhile ({@link #advance}): the entry is compared by identity, and {@link #lower} replaces it — so a
 * row put while a tick scanned, behind the tick's progress, is found by the next tick. A tenant with no
 * entry is scanned from its first key, which is always correct: after a restart, after {@link #evict}
 * (the tenant drained), or when the table never saw it.
 *
 * <p>Thread-safe: {@link #advance} and {@link #evict} run under the tenant's {@link TransitionGuard}
 * stripe; {@link #lower} from any thread, without it. Memory: one entry per tenant whose rows were put or
 * claimed since it last drained.
 */
public final class DueCursors {
  /** One cursor; compared by identity, so a replaced entry is never mistaken for the one a tick read. */
  static final class Cursor {
    /** Where the scan starts (inclusive), or null: at the tenant's first key. */
    final DueKey start;

    Cursor(DueKey start) {
      this.start = start;
    }
  }

  private static final Cursor HEAD = null;
  private final ConcurrentHashMap<Long, Cursor> cursors = new ConcurrentHashMap<>();

  /** The cursor of {@code ord} as it is now (null: none, scan from the tenant's first key). */
  Cursor read(long ord) {
    return cursors.get(ord);
  }

  /**
   * Moves the cursor of {@code ord} to {@code next}, if it is still {@code read} (the entry the caller
   * read before its scan); if another thread lowered it meanwhile, the lowered entry stays.
   */
  void advance(long ord, Cursor read, DueKey next) {
    cursors.compute(ord, (o, current) -> current == read ? new Cursor(next) : current);
  }

  /** Forgets the cursor of {@code ord} (it drained), unless another thread lowered it since {@code read}. */
  void evict(long ord, Cursor read) {
    if (read == HEAD) {
      cursors.computeIfPresent(ord, (o, current) -> current.start == null ? null : current);
    } else {
      cursors.remove(ord, read);
    }
  }

  /**
   * A batch put due rows of tenant {@code ord} in second {@code bucket}: the cursor moves back to that
   * second's start if it is past it. A tenant without an entry gets one that starts at its first key, so
   * a tick that read no entry before this put cannot install one past the new row.
   */
  void lower(long ord, long bucket) {
    long at = bucket * ActiveKey.BUCKET_MILLIS;
    cursors.compute(ord, (o, current) -> {
      if (current == null) {
        return new Cursor(null);
      }
      if (current.start == null || current.start.at() < at) {
        return current;
      }
      return new Cursor(new DueKey(ord, at, 0, 0));
    });
  }

  /** Lowers the cursors of every tenant and second {@code t} put a due row in. */
  void lowerFor(Transition t) {
    for (ActiveKey marker : t.markersPut()) {
      lower(marker.ord(), marker.bucket());
    }
  }

  /** How many tenants have an entry (tests and gauges). */
  public int size() {
    return cursors.size();
  }
}
