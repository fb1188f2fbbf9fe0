package io.ankusa.store.lmdb;

import io.ankusa.store.kit.ChunkedScan;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * A scan over {@code [lo, hi)} of one family, walking an LMDB cursor in a read transaction: the
 * transaction is the scan's consistent state (property {@code scanSeesOneStateWhileWritesGoOn}).
 *
 * <p>A scan of the live store owns its read transaction and is registered with the store's {@link
 * LongLivedReaders}; it releases the transaction as soon as it reaches the end of its range, and at
 * the latest on {@link #close()}. A scan of a snapshot uses the snapshot's transaction and is
 * closed with it.
 *
 * <p>Entries are read in chunks ({@link ChunkedScan}: {@value ChunkedScan#FIRST_CHUNK} first,
 * doubling up to {@value ChunkedScan#MAX_CHUNK}), each under the scan's monitor (the snapshot's,
 * for a scan of a snapshot, because an LMDB transaction serves one thread at a time) and the shared
 * side of the environment's handle gate, taken once per chunk: a close of the scan, its snapshot or
 * its store waits for a running chunk, so the cursor is never freed under it (property {@code
 * closeWaitsForARunningScanChunk} in {@code ScanGuardTest}). Between chunks each {@code
 * hasNext}/{@code next} reads one volatile field to learn whether the scan was closed. Entries are
 * fresh copies. Used by one thread at a time.
 *
 * <p>Bounds are checked here with unsigned byte comparison, which is LMDB's default key order
 * ({@code memcmp}); the cursor is positioned with {@code MDB_SET_RANGE}. A cursor error met on the
 * way throws {@link io.ankusa.store.spi.StoreCorruptionException} naming the family and the last
 * key read (once the entries read before it were returned), and every later {@code hasNext} throws
 * it again: the scan never ends early (property {@code scanNeverEndsEarlyOnCorruption}). So does an
 * entry whose checksum does not match ({@link ValueChecksums}), in stores that keep checksums.
 */
final class LmdbScan extends ChunkedScan implements LongLivedReaders.Reader {
  /**
   * Test seam: run while a chunk is being read, with the monitor and the shared side of the
   * environment's handle gate held, before the cursor is touched. Null in production.
   */
  static volatile Runnable whileReadingChunk;

  private final LmdbStore store;
  private final Object monitor;
  private final LmdbSnapshot snapshot;
  private final LmdbStore.EnvironmentEpoch epoch;
  private final String where;
  private final String family;
  private final byte[] lo;
  private final byte[] hi;
  private final Direction direction;
  private Txn<MapBytes> txn;
  private Cursor<MapBytes> cursor;
  // Read and written under the monitor while a chunk is read; otherwise by the scan's one thread.
  private boolean started;
  private boolean exhausted;
  private byte[] lastKey;

  /** Null while open; otherwise why it was closed. Written under the monitor. */
  private volatile String closedReason;

  private LmdbScan(
      LmdbStore store,
      LmdbSnapshot snapshot,
      String family,
      byte[] lo,
      byte[] hi,
      Direction direction) {
    super(family);
    this.store = store;
    this.snapshot = snapshot;
    this.epoch = store.epoch();
    this.where = snapshot == null ? store.describe() : snapshot.describe();
    this.monitor = snapshot == null ? this : snapshot;
    this.family = family;
    this.lo = lo.clone();
    this.hi = hi == null ? null : hi.clone();
    this.direction = direction;
    this.exhausted = hi != null && Bytes.compare(lo, hi) >= 0;
  }

  /** A scan of the live store with its own read transaction. REQUIRES: arguments checked. */
  static LmdbScan onStore(
      LmdbStore store, String family, byte[] lo, byte[] hi, Direction direction) {
    LmdbScan scan = new LmdbScan(store, null, family, lo, hi, direction);
    synchronized (scan) {
      store.readers().register(scan);
      try {
        store.shared(
            env -> {
              scan.txn = LmdbStore.beginRead(env, store.describe());
              scan.cursor = env.dbi(family).openCursor(scan.txn);
              return null;
            });
      } catch (RuntimeException e) {
        store.releasing(scan::releaseNative);
        store.readers().deregister(scan);
        throw e instanceof StoreException
            ? e
            : LmdbErrors.readFailed(store.describe(), family, null, e);
      }
    }
    return scan;
  }

  /**
   * A scan in a snapshot's transaction. REQUIRES: the caller holds the snapshot's monitor and the
   * shared side of the environment's handle gate; arguments checked.
   */
  static LmdbScan onSnapshot(
      LmdbStore store,
      LmdbSnapshot snapshot,
      Txn<MapBytes> txn,
      LmdbEnvironment env,
      String family,
      byte[] lo,
      byte[] hi,
      Direction direction) {
    LmdbScan scan = new LmdbScan(store, snapshot, family, lo, hi, direction);
    try {
      scan.cursor = env.dbi(family).openCursor(txn);
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(snapshot.describe(), family, null, e);
    }
    return scan;
  }

  /**
   * Reads the next chunk holding the monitor and the shared side of the environment's handle gate
   * once: {@link #closeBecause} (from the store's close or reopen, a map growth, or the snapshot's
   * close) waits for it, so the cursor and transaction are never freed under a running chunk. A
   * cursor error ends the chunk and is recorded with {@link #stoppedOn}.
   */
  @Override
  protected int readChunk(Entry[] into) {
    synchronized (monitor) {
      checkOpen(); // closed while we waited for the monitor
      return store.shared(
          env -> {
            Runnable hook = whileReadingChunk;
            if (hook != null) {
              hook.run();
            }
            int n = 0;
            ValueChecksums checksums = env.checksums();
            while (n < into.length && !exhausted) {
              Entry e;
              try {
                e = advance(checksums);
              } catch (StoreException failed) {
                stoppedOn(failed);
                break;
              }
              if (e != null) {
                into[n++] = e;
              }
            }
            return n;
          });
    }
  }

  /**
   * One cursor step: the entry met, or null at the end of the range (the transaction is then given
   * back). The entry met is checked against its checksum before its key is compared with the
   * range's end, so a damaged key can never pass for the end of the range. REQUIRES: the monitor
   * and the shared side of the environment's handle gate are held.
   */
  private Entry advance(ValueChecksums checksums) {
    try {
      boolean found;
      if (!started) {
        started = true;
        found = position();
      } else {
        found = direction == Direction.FORWARD ? cursor.next() : cursor.prev();
      }
      if (found) {
        byte[] key = cursor.key().copy();
        byte[] value = checksums.open(where(), family, key, cursor.val());
        if (inRange(key)) {
          lastKey = key;
          return new Entry(key, value);
        }
      }
      exhausted = true;
      releaseNative();
      if (snapshot == null) {
        store.readers().deregister(this);
      }
      return null;
    } catch (RuntimeException e) {
      exhausted = true;
      throw LmdbErrors.readFailed(where(), family, lastKey, e);
    }
  }

  private boolean position() {
    if (direction == Direction.FORWARD) {
      return lo.length == 0 ? cursor.first() : cursor.get(MapBytes.of(lo), GetOp.MDB_SET_RANGE);
    }
    if (hi == null) {
      return cursor.last();
    }
    // The first key >= hi, then one step back; no key >= hi means the range ends at the last key.
    return cursor.get(MapBytes.of(hi), GetOp.MDB_SET_RANGE) ? cursor.prev() : cursor.last();
  }

  private boolean inRange(byte[] key) {
    if (direction == Direction.FORWARD) {
      return hi == null || Bytes.compare(key, hi) < 0;
    }
    return Bytes.compare(key, lo) >= 0;
  }

  @Override
  public void close() {
    closeBecause("scan of family '" + family + "' is closed");
  }

  @Override
  public void closeBecause(String reason) {
    synchronized (monitor) {
      if (closedReason != null) {
        return;
      }
      closedReason = reason;
      store.releasing(this::releaseNative);
      if (snapshot == null) {
        store.readers().deregister(this);
      } else {
        snapshot.forget(this);
      }
    }
  }

  /** Closes the cursor and, for a store scan, aborts the transaction. Idempotent. */
  private void releaseNative() {
    if (cursor != null) {
      cursor.close();
      cursor = null;
    }
    if (txn != null) {
      txn.close();
      txn = null;
    }
  }

  @Override
  protected void checkOpen() {
    String reason = closedReason;
    if (reason == null) {
      reason = epoch.endedBecause();
    }
    if (reason != null) {
      throw new StoreClosedException(reason);
    }
  }

  /** What error messages name: the store or the snapshot; built once, not for every entry. */
  private String where() {
    return where;
  }
}
