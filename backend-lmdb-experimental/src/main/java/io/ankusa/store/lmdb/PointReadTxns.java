package io.ankusa.store.lmdb;

import java.util.concurrent.atomic.AtomicReferenceArray;
import org.lmdbjava.Env;
import org.lmdbjava.Txn;

/**
 * Read transactions for point reads (get, multiGet, counter), kept between reads: a read renews one
 * that an earlier read reset, rather than beginning a new one. Beginning costs lmdbjava a key and
 * value holder in fresh native memory and LMDB a search of its reader table, a large share of a
 * point read for the backend and for a plain lmdbjava client alike
 * (docs/measurements/spi-overhead.md). Renewing costs neither.
 *
 * <p>A kept transaction is reset: it holds no snapshot, so it pins no pages and does not stop the
 * map from growing (LMDB forbids a remap only under an active transaction), but it keeps its reader
 * slot. At most {@link #capacity()} are kept, an eighth of the reader table at most, so they count
 * against {@code lmdb.maxReaders} (see {@link LmdbSettings}) but leave the rest to scans and
 * snapshots. Each slot of the pool sits on its own cache lines and a thread starts looking at its
 * own slot, so readers on different threads do not contend for the pool.
 *
 * <p>REQUIRES: {@link #begin} and {@link #end} are called under the shared side of the store's
 * handle gate, and {@link #closeAll} under its exclusive side before the environment closes
 * (lmdbjava refuses to free a transaction of a closed environment).
 */
final class PointReadTxns {
  /** References per slot: 16 × 4 or 8 bytes, so two slots never share a cache line. */
  private static final int STRIDE = 16;

  private final Env<MapBytes> env;
  private final int capacity;
  private final AtomicReferenceArray<Txn<MapBytes>> slots;

  PointReadTxns(Env<MapBytes> env) {
    this.env = env;
    this.capacity =
        Math.min(2 * Runtime.getRuntime().availableProcessors(), env.info().maxReaders / 8);
    this.slots = new AtomicReferenceArray<>(Math.max(1, capacity) * STRIDE);
  }

  /** How many reset transactions this keeps at most. */
  int capacity() {
    return capacity;
  }

  /** How many reset transactions are kept now (for tests). */
  int keptCount() {
    int n = 0;
    for (int s = 0; s < capacity; s++) {
      if (slots.get(s * STRIDE) != null) {
        n++;
      }
    }
    return n;
  }

  /** A read transaction at the newest state: a kept one renewed, else a new one. */
  Txn<MapBytes> begin(String where) {
    if (capacity == 0) {
      return LmdbStore.beginRead(env, where);
    }
    int start = firstSlot();
    for (int k = 0; k < capacity; k++) {
      int at = probe(start, k);
      Txn<MapBytes> kept = slots.get(at);
      if (kept != null && slots.compareAndSet(at, kept, null)) {
        try {
          kept.renew();
          return kept;
        } catch (RuntimeException e) {
          discard(kept); // a renew that failed: begin a new one below, which reports what is wrong
          break;
        }
      }
    }
    return LmdbStore.beginRead(env, where);
  }

  /**
   * Ends a read: keeps {@code txn} reset for a later read when there is room and the read went
   * well, else closes it. REQUIRES: every cursor opened in it is closed.
   */
  void end(Txn<MapBytes> txn, boolean readWentWell) {
    if (readWentWell && capacity > 0) {
      int start = firstSlot();
      for (int k = 0; k < capacity; k++) {
        int at = probe(start, k);
        if (slots.get(at) == null) {
          txn.reset();
          if (slots.compareAndSet(at, null, txn)) {
            return;
          }
          txn.renew(); // lost the slot to another thread: make it closable (lmdbjava frees only a
          // live one)
          break;
        }
      }
    }
    txn.close();
  }

  /** Frees every kept transaction and its reader slot. */
  void closeAll() {
    for (int s = 0; s < capacity; s++) {
      Txn<MapBytes> kept = slots.getAndSet(s * STRIDE, null);
      if (kept != null) {
        discard(kept);
      }
    }
  }

  /**
   * Frees a reset transaction. lmdbjava's close of a reset transaction skips LMDB's abort, which is
   * what frees it and its reader slot, so it is renewed first; if even that fails, closing the
   * environment frees the slot.
   */
  private static void discard(Txn<MapBytes> reset) {
    try {
      reset.renew();
    } catch (RuntimeException e) {
      return;
    }
    reset.close();
  }

  /** The slot a thread looks at first: its own, so threads on different slots do not contend. */
  private int firstSlot() {
    return (int) (Thread.currentThread().getId() % capacity);
  }

  /** The array index of the {@code k}-th slot a thread looks at, starting at {@code start}. */
  private int probe(int start, int k) {
    return ((start + k) % capacity) * STRIDE;
  }
}
