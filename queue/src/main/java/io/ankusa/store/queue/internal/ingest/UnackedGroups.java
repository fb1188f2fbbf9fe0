package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.maintenance.TenantErase;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The groups the writer has applied (or tried to) and not yet seen acknowledged: enough of each to
 * answer a duplicate from memory and to delete the group again if the queue is fenced. Owned by the
 * writer thread; not thread-safe.
 *
 * <p>A group enters before its write (so a write that failed after all is covered) and leaves once
 * {@code durableSeq} reaches its last seq. Memory: a long per hook, plus the dedupe keys; the
 * writer stops taking work while {@link io.ankusa.store.queue.config.WriterConfig#queueCapacity()}
 * hooks are here, so it is bounded.
 */
final class UnackedGroups {
  /** Hooks read per multiGet while deleting. */
  private static final int READ_CHUNK = 1000;

  /** A dedupe key a group wrote: its 'u' key, the seq it points to, and its 'e' key. */
  record DedupeEntry(DedupeRowKey key, long seq, byte[] expiryKey) {}

  /**
   * What one group wrote.
   *
   * @param firstSeq first seq assigned by the group
   * @param lastSeq last seq assigned; the group holds {@code lastSeq - firstSeq + 1} hooks
   * @param ords the ordinal of each hook, by {@code seq - firstSeq}
   * @param dedupe the dedupe keys written
   * @param createdOrdinals tenants this group gave an ordinal to
   */
  record AppliedGroup(
      long firstSeq,
      long lastSeq,
      long[] ords,
      List<DedupeEntry> dedupe,
      Map<TenantId, Long> createdOrdinals) {}

  private final ArrayDeque<AppliedGroup> groups = new ArrayDeque<>();
  private final Map<DedupeRowKey, Long> dedupeSeqs = new HashMap<>();

  /** Records {@code group}, before its write. */
  void add(AppliedGroup group) {
    groups.addLast(group);
    for (DedupeEntry e : group.dedupe()) {
      dedupeSeqs.put(e.key(), e.seq());
    }
  }

  /** Forgets the groups whose last seq is at or below {@code durableSeq}: they are acknowledged. */
  void pruneDurable(long durableSeq) {
    while (!groups.isEmpty() && groups.peekFirst().lastSeq() <= durableSeq) {
      for (DedupeEntry e : groups.pollFirst().dedupe()) {
        dedupeSeqs.remove(e.key());
      }
    }
  }

  /** The seq written under {@code key} by a group not yet acknowledged, or null. */
  Long seqOf(DedupeRowKey key) {
    return dedupeSeqs.get(key);
  }

  boolean isEmpty() {
    return groups.isEmpty();
  }

  void clear() {
    groups.clear();
    dedupeSeqs.clear();
  }

  /**
   * The fence repair: deletes, in ONE {@code SYNC} write, every row of every group with a seq above
   * {@code durableSeq} — hooks, delivery rows, due rows, archive obligations with their counts
   * reversed ({@link Deliveries#revertIngest}, only for hooks still in the store), dedupe and
   * expiry keys — and retires the ordinals those groups created ({@link TenantErase#retireOrdinal}:
   * {@code 'n'} deleted, {@code 't'} a tombstone, counters deleted) with {@code m:next_ord} put
   * past the highest of them, and puts {@code m:last_seq = lastSeq}: neither a seq nor an ordinal
   * is ever reused. Both are put rather than left alone because a store's recovery may have dropped
   * the unsynced writes that advanced them.
   *
   * <p>REQUIRES: the store's recovery for the failure has run ({@link Store#reportWriteFailure});
   * the caller is the writer and writes nothing else meanwhile. Returns how many hooks were
   * deleted.
   *
   * @throws io.ankusa.store.spi.StoreException if a read or the write fails; nothing is assumed
   *     done
   */
  int deleteUnacknowledged(DeliveryQueue queue, long durableSeq, long lastSeq) {
    try (TransitionGuard.Held held = queue.guard().exclusive()) { // nothing moves the rows it reads
      return deleteUnacknowledgedHeld(queue, durableSeq, lastSeq);
    }
  }

  private int deleteUnacknowledgedHeld(DeliveryQueue queue, long durableSeq, long lastSeq) {
    pruneDurable(durableSeq);
    Store store = queue.store();
    Transition t = new Transition();
    Batch tail = new Batch();
    long highestCreated = 0;
    int deleted = 0;
    for (AppliedGroup g : groups) {
      for (long from = g.firstSeq(); from <= g.lastSeq(); from += READ_CHUNK) {
        long to = Math.min(g.lastSeq(), from + READ_CHUNK - 1);
        List<byte[]> keys = new ArrayList<>((int) (to - from + 1));
        for (long seq = from; seq <= to; seq++) {
          keys.add(Keys.hook(seq));
        }
        List<byte[]> hooks = store.multiGet(Format3.HOOKS, keys);
        for (int i = 0; i < hooks.size(); i++) {
          byte[] envelope = hooks.get(i);
          if (envelope != null) {
            long seq = from + i;
            Deliveries.revertIngest(
                t,
                store,
                HookEnvelope.decodeAt(keys.get(i), envelope),
                g.ords()[(int) (seq - g.firstSeq())]);
            deleted++;
          }
        }
      }
      for (DedupeEntry e : g.dedupe()) {
        tail.delete(Format3.INDEX, e.key().rowKey());
        tail.delete(Format3.INDEX, e.expiryKey());
      }
      for (Map.Entry<TenantId, Long> created : g.createdOrdinals().entrySet()) {
        TenantErase.retireOrdinal(tail, created.getKey(), created.getValue());
        highestCreated = Math.max(highestCreated, created.getValue());
      }
    }
    // The reverted counter merges come first, so retiring an ordinal deletes its counters after
    // them.
    Batch batch = t.toBatch(queue.counters()).addAll(tail);
    if (highestCreated > 0) {
      long next = Math.max(highestCreated + 1, Tenants.nextOrdinal(store));
      batch.put(Format3.DEFAULT, Keys.nextOrd(), new NextOrdinalValue(next).encode());
    }
    batch.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(lastSeq).encode());
    store.write(batch, Durability.SYNC);
    return deleted;
  }
}
