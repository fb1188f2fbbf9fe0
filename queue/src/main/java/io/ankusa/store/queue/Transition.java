package io.ankusa.store.queue;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.spi.Batch;
import java.util.HashSet;
import java.util.Set;

/**
 * One batch under construction: the row and index ops of one or more transitions, their counter
 * deltas, and the active markers already put (coalesced per tenant and second). {@link
 * #toBatch(Counters)} closes it into the single {@link Batch} that moves the rows and their counts
 * together. Built by {@link Deliveries}' op builders; not thread-safe.
 */
public final class Transition {
  private final Batch ops = new Batch();
  private final CounterDeltas deltas = new CounterDeltas();
  private final Set<ActiveKey> markers = new HashSet<>();
  private int transitions;

  /** The row and index ops so far, without the counter merges. */
  Batch ops() {
    return ops;
  }

  /** The counter deltas so far, coalesced. */
  public CounterDeltas deltas() {
    return deltas;
  }

  /** Whether {@code marker} was not yet put in this batch (and records that it now is). */
  boolean firstMarker(ActiveKey marker) {
    return markers.add(marker);
  }

  void counted() {
    transitions++;
  }

  /** How many transitions this batch carries. */
  public int transitions() {
    return transitions;
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
