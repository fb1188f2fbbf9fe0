package io.ankusa.store.queue;

import io.ankusa.store.layout.ClearedKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes hooks that no delivery row and no archive obligation still owes. Transitions that finish
 * a delivery put a cleared marker {@code 'c' seq}; reclaim visits them, and for each hook with no
 * delivery row left and no {@code 'a'} obligation deletes the envelope and the marker in one batch.
 * A marker whose hook still owes something is left for a later run. No counters move.
 */
public final class Reclaim {
  private Reclaim() {}

  /** Visits up to {@code limit} cleared markers; returns how many hooks were deleted. */
  public static int run(DeliveryQueue queue, int limit) {
    KeyRange cleared = Keys.realKeysOf(KeyFamily.CLEARED);
    List<Long> seqs = new ArrayList<>();
    try (Scan scan = queue.store().scan(cleared.columnFamily(), cleared.lo(), cleared.hi(), Direction.FORWARD)) {
      while (seqs.size() < limit && scan.hasNext()) {
        seqs.add(ClearedKey.decode(scan.next().key()).seq());
      }
    }
    Batch batch = new Batch();
    int deleted = 0;
    try (TransitionGuard.Held held = queue.guard().lockHooks(seqs)) { // no expand between check and delete
      for (long seq : seqs) {
        KeyRange rows = Keys.deliveriesOf(seq);
        if (QueueFormat.any(queue.store(), rows) || queue.store().get(Format3.INDEX, Keys.archive(seq)) != null) {
          continue;
        }
        batch.delete(Format3.HOOKS, Keys.hook(seq));
        batch.delete(Format3.INDEX, Keys.cleared(seq));
        deleted++;
      }
      if (!batch.isEmpty()) {
        queue.store().write(batch, Durability.NO_SYNC);
      }
    }
    return deleted;
  }
}
