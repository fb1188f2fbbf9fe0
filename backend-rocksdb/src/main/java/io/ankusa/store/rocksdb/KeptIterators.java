package io.ankusa.store.rocksdb;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.rocksdb.RocksDBException;

/**
 * Iterators of closed forward scans of the live store, kept for the next scan of the same family
 * and upper bound. Making a RocksDB iterator builds a merging iterator over every memtable and
 * level of the family; {@link org.rocksdb.RocksIterator#refresh()} on a kept one, when no flush or
 * compaction has installed a new version of the family since, only moves it to the latest sequence
 * number. The queue's short scans repeat the same few ranges (the markers up to now's second, a
 * tenant's due rows), so the gauge and dispatch ticks mostly skip that build, and a refresh and
 * seek costs clearly less than a new iterator and seek (docs/measurements/gate.md).
 *
 * <p>A refreshed iterator reads the state as of the refresh, which is the state a new iterator
 * would pin at the same moment: a scan opened after a write sees it (property {@code
 * aScanOnAKeptIteratorSeesWritesSinceItWasKept} in {@code KeptIteratorsTest}).
 *
 * <p>At most {@value #SLOTS} are kept, in slots picked by family and bound (two candidate slots per
 * range; a third range evicts). A slot is taken and given back with a compare-and-set, so an
 * iterator belongs to one scan or to this pool, never to two scans, and no caller waits on a lock.
 * An idle iterator pins the memtables and files of the version it last read, so it is kept at most
 * {@link #MAX_IDLE_NANOS} idle: a take finds an older one closed, and {@link #expire} (run by every
 * write) closes the ones that outlived it. A read-only store keeps none: RocksDB refuses to refresh
 * its iterators.
 *
 * <p>Owned by one {@link RocksDbEngine}. REQUIRES for {@link #close()}: no scan of the engine is
 * open or closing (the store closes its engine under its exclusive gate).
 */
final class KeptIterators implements AutoCloseable {
  /** Most iterators kept idle. A power of two. */
  static final int SLOTS = 16;

  /** Longest an iterator is kept idle: 1 s. */
  static final long MAX_IDLE_NANOS = 1_000_000_000L;

  private final boolean enabled;
  private final AtomicReferenceArray<ScanIterator> slots = new AtomicReferenceArray<>(SLOTS);
  private final LongAdder reuses = new LongAdder();

  /** No {@link #expire} sweep runs before this time. */
  private volatile long nextSweepNanos;

  /**
   * @param enabled false for a read-only engine, whose iterators cannot be refreshed
   */
  KeptIterators(boolean enabled) {
    this.enabled = enabled;
  }

  /** Whether scans give their iterators back here. */
  boolean enabled() {
    return enabled;
  }

  /**
   * A kept iterator over {@code family} up to {@code hi}, refreshed to the latest state and now the
   * caller's; null when none is kept, the kept one was idle too long, or its refresh failed (it is
   * then closed, and the caller makes a new one, which reports any lasting failure).
   */
  ScanIterator take(String family, byte[] hi, long nowNanos) {
    if (!enabled) {
      return null;
    }
    int i = slotOf(family, hi);
    for (int probe = 0; probe < 2; probe++) {
      int slot = i ^ probe;
      ScanIterator kept = slots.get(slot);
      if (kept != null && kept.covers(family, hi) && slots.compareAndSet(slot, kept, null)) {
        if (nowNanos - kept.idleSinceNanos > MAX_IDLE_NANOS) {
          kept.close();
          return null;
        }
        try {
          kept.iterator.refresh();
        } catch (RocksDBException e) {
          kept.close();
          return null;
        }
        reuses.increment();
        return kept;
      }
    }
    return null;
  }

  /**
   * Takes {@code it} in, idle from {@code nowNanos}, closing the iterator it evicts. REQUIRES: the
   * caller owns {@code it}, it is {@link ScanIterator#reusable}, its scan ended with no error, and
   * the caller holds the store's gate (so the engine is open).
   */
  void keep(ScanIterator it, long nowNanos) {
    it.idleSinceNanos = nowNanos;
    int i = slotOf(it.family, it.hi);
    if (slots.compareAndSet(i, null, it) || slots.compareAndSet(i ^ 1, null, it)) {
      return;
    }
    ScanIterator evicted = slots.getAndSet(i, it);
    if (evicted != null) {
      evicted.close();
    }
  }

  /**
   * Closes the iterators idle longer than {@link #MAX_IDLE_NANOS}; sweeps at most once per that
   * period, so a caller on a hot path pays one volatile read otherwise.
   */
  void expire(long nowNanos) {
    if (nowNanos - nextSweepNanos < 0) {
      return;
    }
    nextSweepNanos = nowNanos + MAX_IDLE_NANOS;
    for (int slot = 0; slot < SLOTS; slot++) {
      ScanIterator kept = slots.get(slot);
      if (kept != null
          && nowNanos - kept.idleSinceNanos > MAX_IDLE_NANOS
          && slots.compareAndSet(slot, kept, null)) {
        kept.close();
      }
    }
  }

  /** How many iterators are idle here now. */
  int idle() {
    int n = 0;
    for (int slot = 0; slot < SLOTS; slot++) {
      n += slots.get(slot) == null ? 0 : 1;
    }
    return n;
  }

  /** How many scans have run on a kept iterator since the engine opened. */
  long reuses() {
    return reuses.sum();
  }

  /** Closes every idle iterator. */
  @Override
  public void close() {
    for (int slot = 0; slot < SLOTS; slot++) {
      ScanIterator kept = slots.getAndSet(slot, null);
      if (kept != null) {
        kept.close();
      }
    }
  }

  /**
   * The first of the two slots a range may be kept in; the other is this one with its low bit
   * flipped.
   */
  static int slotOf(String family, byte[] hi) {
    int h = family.hashCode() * 31 + Arrays.hashCode(hi);
    return (h ^ (h >>> 16)) & (SLOTS - 1);
  }
}
