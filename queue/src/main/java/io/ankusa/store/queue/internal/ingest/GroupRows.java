package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Batch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of one writer group, built before anything is written: each stored hook with its due
 * rows and counter deltas ({@link Deliveries#ingest} into one {@link Transition}), its dedupe and
 * expiry keys, and the ordinal of each seq, for the unacknowledged-group record. Seqs are
 * consecutive from {@link #firstSeq()}. Writer thread only.
 */
final class GroupRows {
  private final long firstSeq;
  private final long[] ords;
  private final Transition transition = new Transition();
  private final Batch dedupeOps = new Batch();
  private final List<UnackedGroups.DedupeEntry> dedupeEntries = new ArrayList<>();
  private int hooks;

  /** An empty group whose first hook gets {@code firstSeq}; at most {@code capacity} hooks. */
  GroupRows(long firstSeq, int capacity) {
    this.firstSeq = firstSeq;
    this.ords = new long[capacity];
  }

  /** Adds the hook of {@code p} under {@code seq} (the next seq) and tenant ordinal {@code ord}. */
  void add(PendingIngest p, long seq, long ord, boolean archive, long dedupeExpiresAt) {
    ords[(int) (seq - firstSeq)] = ord;
    hooks++;
    HookEnvelope.setEncodedSeq(p.encoded(), seq);
    Deliveries.ingest(transition, p.hook().withSeq(seq), p.encoded(), ord, archive);
    if (p.dedupe() != null) {
      byte[] expiryKey = Keys.expiry(dedupeExpiresAt, p.tenant(), p.dedupe().idempotencyKey());
      dedupeOps.put(Format3.INDEX, p.dedupe().rowKey(), new DedupeValue(seq).encode());
      dedupeOps.put(Format3.INDEX, expiryKey, EmptyValue.encode());
      dedupeEntries.add(new UnackedGroups.DedupeEntry(p.dedupe(), seq, expiryKey));
    }
  }

  /**
   * A new batch of the rows, their counter deltas (merged per {@code counters}' layout) and the
   * dedupe keys; the caller adds the group's other puts to it (the ops of one group touch disjoint
   * keys, so their order in the batch does not matter), which spares copying every row op once
   * more.
   */
  Batch toBatch(Counters counters) {
    return transition.toBatch(counters).addAll(dedupeOps);
  }

  long firstSeq() {
    return firstSeq;
  }

  int hooks() {
    return hooks;
  }

  /** The ordinal of each stored seq, from {@link #firstSeq()}. */
  long[] ords() {
    return Arrays.copyOf(ords, hooks);
  }

  List<UnackedGroups.DedupeEntry> dedupeEntries() {
    return dedupeEntries;
  }

  Transition transition() {
    return transition;
  }
}
