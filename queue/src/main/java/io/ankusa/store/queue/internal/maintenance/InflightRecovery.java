package io.ankusa.store.queue.internal.maintenance;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.List;

/**
 * Boot-time recovery, before any dispatcher runs: every inflight row was claimed by a dispatcher
 * that is gone, so it is made due again at {@code now} (kind 0) — or dropped with its delivery row
 * if its hook no longer exists (orphan drop). Then {@link ActiveIndex#repair} restores any marker a
 * crash took in the middle of a cleanup. In chunks of 500 rows per SYNC batch; each chunk's scan
 * starts at the last row of the previous one, so recovery never walks the tombstones of the rows it
 * already moved.
 */
public final class InflightRecovery {
  private static final int CHUNK = 500;

  private InflightRecovery() {}

  /** Recovers every inflight row; returns the counts. */
  public static Result recoverInflight(DeliveryQueue queue, long now) {
    KeyRange all = Keys.realKeysOf(KeyFamily.INFLIGHT);
    long recovered = 0;
    long dropped = 0;
    KeyRange range = all;
    while (true) {
      List<InflightRow> chunk = new ArrayList<>(CHUNK);
      try (Scan scan =
          queue.store().scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
        while (chunk.size() < CHUNK && scan.hasNext()) {
          Entry e = scan.next();
          chunk.add(
              new InflightRow(
                  InflightKey.decode(e.key()), InflightValue.decodeAt(e.key(), e.value())));
        }
      }
      if (chunk.isEmpty()) {
        break;
      }
      List<byte[]> hookKeys = new ArrayList<>(chunk.size());
      chunk.forEach(r -> hookKeys.add(Keys.hook(r.key().seq())));
      List<byte[]> hooks = queue.store().multiGet(Format3.HOOKS, hookKeys);
      Transition t = new Transition();
      for (int i = 0; i < chunk.size(); i++) {
        if (hooks.get(i) == null) {
          Deliveries.orphanDrop(t, chunk.get(i));
        } else {
          Deliveries.recoverInflight(t, chunk.get(i), now);
        }
      }
      queue.write(t, Durability.SYNC);
      InflightKey last = chunk.get(chunk.size() - 1).key();
      range = Keys.inflightFrom(last.ord(), last.seq(), last.sink());
      for (int i = 0; i < chunk.size(); i++) {
        if (t.applied(i)) { // else a settle got there first: the row is no longer inflight
          if (hooks.get(i) == null) {
            dropped++;
          } else {
            recovered++;
          }
        }
      }
    }
    int markers = ActiveIndex.repair(queue.store(), queue.counters());
    return new Result(recovered, dropped, markers);
  }

  /** What recovery did: rows made due again, orphans dropped, markers repaired. */
  public record Result(long recovered, long orphansDropped, int markersRepaired) {}
}
