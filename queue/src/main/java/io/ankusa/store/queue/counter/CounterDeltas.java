package io.ankusa.store.queue.counter;

import io.ankusa.store.layout.CounterField;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counter deltas gathered while a batch is built, coalesced per (ord, field): a batch that moves
 * 500 rows of one tenant writes one merge per counter, not 500. Not thread-safe: one per batch.
 */
public final class CounterDeltas {
  /** (ord, field code) packed as {@code ord << 8 | code}, to the sum of its deltas. */
  private final Map<Long, Long> sums = new TreeMap<>();

  /** Adds {@code delta} to {@code field} of tenant {@code ord}. */
  public void add(long ord, CounterField field, long delta) {
    if (delta != 0) {
      sums.merge((ord << 8) | field.code(), delta, Long::sum);
    }
  }

  /** Calls {@code sink} once per (ord, field) with a non-zero sum, ord ascending. */
  void forEach(DeltaSink sink) {
    sums.forEach((packed, sum) -> {
      if (sum != 0) {
        sink.accept(packed >>> 8, CounterField.ofCode((int) (packed & 0xff)), sum);
      }
    });
  }

  public boolean isEmpty() {
    return sums.values().stream().allMatch(v -> v == 0);
  }

  /** Receives one coalesced delta. */
  @FunctionalInterface
  interface DeltaSink {
    void accept(long ord, CounterField field, long delta);
  }
}
