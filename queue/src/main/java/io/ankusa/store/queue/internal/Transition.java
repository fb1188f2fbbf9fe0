package io.ankusa.store.queue.internal;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.counter.CounterDeltas;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One batch under construction: the row and index ops of one or more transitions, their counter
 * deltas, and the active markers already put (coalesced per tenant and second). {@link
 * #toBatch(Counters)} closes it into the single {@link Batch} that moves the rows and their counts
 * together. Built by {@link Deliveries}' op builders; not thread-safe.
 *
 * <p>Every transition is also recorded as a {@link Step}: the rows it read, with the values it
 * read, and how to build it again. {@link DeliveryQueue#write} re-reads those rows under the {@link
 * TransitionGuard} and writes only the steps whose rows are still as read; after the write {@link
 * #applied(int)} says which were. Ingest and the writer's fence repair read nothing they then
 * expect (ingest only adds new keys; the repair reads under every stripe): their steps always hold.
 */
public final class Transition {
  /** {@link Step#hookSeq()} of a step that does not rewrite a hook envelope. */
  static final long NO_HOOK = -1;

  /** The transitions, one per {@link Deliveries} builder. */
  public enum Kind {
    INGEST,
    REVERT_INGEST,
    CLAIM,
    DELIVERED,
    RETRY,
    DEAD_LETTER,
    REVIVE,
    RECOVER_INFLIGHT,
    ORPHAN_DROP,
    EXPAND,
    PURGE_DUE,
    PURGE_DEAD,
    ARCHIVE_SETTLE,
    ARCHIVE_DROP,
    /**
     * A claim and its outcome in one step: a synchronous handler's answer (no inflight row is
     * written).
     */
    CLAIM_DELIVERED,
    CLAIM_RETRY,
    CLAIM_DEAD_LETTER;

    /** Whether this transition makes an inflight row (a claim) rather than consuming one. */
    boolean createsInflight() {
      return this == CLAIM;
    }
  }

  /**
   * A row a step read: in {@code family} under {@code key}, with {@code value} (equal bytes),
   * present with any value ({@code value} null, {@code absent} false), absent ({@code absent}
   * true), or as {@code custom} accepts it when given. The common cases carry no lambda: the
   * dispatcher builds one per claimed row.
   */
  record Expected(
      String family,
      byte[] key,
      byte[] value,
      boolean absent,
      Predicate<byte[]> custom,
      String what) {
    static Expected equalTo(String family, byte[] key, byte[] value, String what) {
      return new Expected(family, key, value, false, null, what);
    }

    static Expected present(String family, byte[] key, String what) {
      return new Expected(family, key, null, false, null, what);
    }

    static Expected absent(String family, byte[] key, String what) {
      return new Expected(family, key, null, true, null, what);
    }

    static Expected matching(String family, byte[] key, Predicate<byte[]> holds, String what) {
      return new Expected(family, key, null, false, holds, what);
    }

    boolean holds(byte[] found) {
      if (custom != null) {
        return custom.test(found);
      }
      if (absent) {
        return found == null;
      }
      return found != null && (value == null || Arrays.equals(found, value));
    }

    @Override
    public String toString() {
      return what + " " + Bytes.hex(key);
    }
  }

  /**
   * One guarded transition of this batch.
   *
   * @param kind what it is
   * @param ord the tenant whose rows it moves (its lock stripe)
   * @param hookSeq the hook whose envelope it rewrites, or {@link #NO_HOOK}
   * @param readAs the rows it read, built when the guard re-reads them (a claim read and written
   *     under its stripe is never re-read, so its expectation is never built); {@link
   *     #READ_NOTHING} for a step that expects no row
   * @param inflight the inflight row it makes (a claim) or consumes (a settle, recovery, orphan
   *     drop), or null: what {@link KnownClaims} records and forgets
   * @param build appends its ops and deltas to a transition: how a batch without the dropped steps
   *     is built
   */
  record Step(
      Kind kind,
      long ord,
      long hookSeq,
      Supplier<List<Expected>> readAs,
      InflightRow inflight,
      Consumer<Transition> build) {
    /**
     * The rows it read; it is written only while they are still as read. Built anew on each call.
     */
    List<Expected> expected() {
      return readAs.get();
    }

    /** Whether it read rows it expects (so its write takes stripes and re-checks). */
    boolean expectsRows() {
      return readAs != READ_NOTHING;
    }
  }

  /** {@link Step#readAs()} of a step that expects no row (ingest, the fence repair). */
  static final Supplier<List<Expected>> READ_NOTHING = List::of;

  private final Batch ops = new Batch();
  private final CounterDeltas deltas = new CounterDeltas();

  /**
   * Each marker put, with the earliest {@code at} of the due rows this batch puts in its second.
   */
  private final Map<ActiveKey, Long> markers = new HashMap<>();

  /** The lowest seq whose cleared marker this batch puts; {@link Long#MAX_VALUE} when none. */
  private long lowestCleared = Long.MAX_VALUE;

  private final List<Step> steps = new ArrayList<>(0);
  private BitSet rejected;
  private boolean guarded;
  private boolean readUnderStripes;

  /** The row and index ops so far, without the counter merges. */
  Batch ops() {
    return ops;
  }

  /** The counter deltas so far, coalesced. */
  public CounterDeltas deltas() {
    return deltas;
  }

  /**
   * Whether {@code marker} was not yet put in this batch (and records that it now is, for a row at
   * {@code at}).
   */
  boolean firstMarker(ActiveKey marker, long at) {
    Long earliest = markers.get(marker);
    if (earliest == null) {
      markers.put(marker, at);
      return true;
    }
    if (at < earliest) {
      markers.put(marker, at);
    }
    return false;
  }

  /**
   * The active markers this batch puts — a tenant and second for every due row it puts — each with
   * the earliest {@code at} of those rows.
   */
  Map<ActiveKey, Long> markersPut() {
    return markers;
  }

  /** Puts the cleared marker of hook {@code seq} ({@code 'c' seq}, for reclaim) and records it. */
  void putCleared(long seq) {
    ops.put(Format3.INDEX, Keys.cleared(seq), EmptyValue.encode());
    lowestCleared = Math.min(lowestCleared, seq);
  }

  /**
   * The lowest seq whose cleared marker this batch puts, or {@link Long#MAX_VALUE} when it puts
   * none.
   */
  long lowestClearedPut() {
    return lowestCleared;
  }

  /** Adds a step and builds it into this batch; a step that expects nothing always holds. */
  void step(
      Kind kind, long ord, long hookSeq, List<Expected> expected, Consumer<Transition> build) {
    step(
        new Step(
            kind, ord, hookSeq, expected.isEmpty() ? READ_NOTHING : () -> expected, null, build));
  }

  /** Adds {@code step} and builds it into this batch. */
  void step(Step step) {
    steps.add(step);
    guarded |= step.expectsRows();
    step.build().accept(this);
  }

  List<Step> steps() {
    return steps;
  }

  /**
   * Marks this batch as built from rows read while the caller held the stripes of its steps ({@link
   * TransitionGuard#lockTenant}), and to be written before letting go: the write then skips the
   * re-check. A batch so marked but written without the stripes held is re-checked as usual.
   */
  public Transition readUnderStripes(boolean read) {
    this.readUnderStripes = read;
    return this;
  }

  public boolean readUnderStripes() {
    return readUnderStripes;
  }

  /** Whether a step of this batch expects a row (so the write takes stripes and re-checks). */
  boolean guarded() {
    return guarded;
  }

  /** Records which steps the guard dropped; called once per write. */
  void rejected(BitSet dropped) {
    this.rejected = dropped;
  }

  /**
   * Whether the {@code step}-th guarded transition of this batch (in the order the builders were
   * called) was written: false when its rows had moved when the batch was written (another
   * transition got there first), true otherwise. Only meaningful after {@link DeliveryQueue#write}.
   */
  public boolean applied(int step) {
    return rejected == null || !rejected.get(step);
  }

  /** A new batch with every step but those in {@code dropped}, built again. */
  Transition without(BitSet dropped) {
    Transition kept = new Transition();
    for (int i = 0; i < steps.size(); i++) {
      if (!dropped.get(i)) {
        kept.step(steps.get(i));
      }
    }
    return kept;
  }

  /** The dropped steps and the rows they expected, for the log. */
  String describeRejected() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; rejected != null && i < steps.size(); i++) {
      if (rejected.get(i)) {
        sb.append(sb.length() == 0 ? "" : "; ")
            .append(steps.get(i).kind())
            .append(" expecting ")
            .append(steps.get(i).expected());
      }
    }
    return sb.toString();
  }

  public boolean isEmpty() {
    return ops.isEmpty() && deltas.isEmpty();
  }

  /** The batch to write: every op in order, then one merge per (ord, field) and the aggregate's. */
  public Batch toBatch(Counters counters) {
    Batch batch = new Batch().addAll(ops);
    counters.ops(deltas, batch);
    return batch;
  }
}
