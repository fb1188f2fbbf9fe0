package io.ankusa.store.queue.internal.counter;

import io.ankusa.store.layout.CounterField;
import java.util.Arrays;

/**
 * Counter deltas gathered while a batch is built, coalesced per (ord, field): a batch that moves
 * 500 rows of one tenant writes one merge per counter, not 500. Not thread-safe: one per batch.
 *
 * <p>Kept in an open-addressing table of primitive longs, not a map of boxed ones: every row a
 * transition moves adds two or three deltas here, on the writer's and the dispatcher's threads.
 */
public final class CounterDeltas {
  private static final int FIRST_CAPACITY = 16;

  /** (ord, field code) packed as {@code ord << 8 | code}, in the slots {@link #used} marks. */
  private long[] keys = new long[FIRST_CAPACITY];

  /** The sum of the deltas of the key in the same slot. */
  private long[] sums = new long[FIRST_CAPACITY];

  private boolean[] used = new boolean[FIRST_CAPACITY];
  private int size;

  /** Adds {@code delta} to {@code field} of tenant {@code ord}. */
  public void add(long ord, CounterField field, long delta) {
    if (delta == 0) {
      return;
    }
    long key = (ord << 8) | field.code();
    int slot = slotOf(key, keys, used);
    if (used[slot]) {
      sums[slot] += delta;
      return;
    }
    used[slot] = true;
    keys[slot] = key;
    sums[slot] = delta;
    if (++size * 2 > keys.length) {
      grow();
    }
  }

  /**
   * Calls {@code sink} once per (ord, field) with a non-zero sum, ord ascending (then field code).
   */
  void forEach(DeltaSink sink) {
    long[] packed = new long[size];
    int n = 0;
    for (int i = 0; i < keys.length; i++) {
      if (used[i]) {
        packed[n++] = keys[i];
      }
    }
    // Ordinals are 32-bit, so packed keys are non-negative and sort as (ord, code).
    Arrays.sort(packed);
    for (long key : packed) {
      long sum = sums[slotOf(key, keys, used)];
      if (sum != 0) {
        sink.accept(key >>> 8, CounterField.ofCode((int) (key & 0xff)), sum);
      }
    }
  }

  /** Whether every sum is zero (no delta added, or they cancelled out). */
  public boolean isEmpty() {
    for (int i = 0; i < keys.length; i++) {
      if (used[i] && sums[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** The slot of {@code key}: where it is, or the free slot where it goes (linear probing). */
  private static int slotOf(long key, long[] keys, boolean[] used) {
    int mask = keys.length - 1;
    long h = key * 0x9E3779B97F4A7C15L;
    int slot = (int) (h ^ (h >>> 32)) & mask;
    while (used[slot] && keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldSums = sums;
    boolean[] oldUsed = used;
    keys = new long[oldKeys.length * 2];
    sums = new long[oldKeys.length * 2];
    used = new boolean[oldKeys.length * 2];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldUsed[i]) {
        int slot = slotOf(oldKeys[i], keys, used);
        used[slot] = true;
        keys[slot] = oldKeys[i];
        sums[slot] = oldSums[i];
      }
    }
  }

  /** Receives one coalesced delta. */
  @FunctionalInterface
  interface DeltaSink {
    void accept(long ord, CounterField field, long delta);
  }
}
