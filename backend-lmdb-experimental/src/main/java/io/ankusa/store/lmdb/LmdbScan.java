package io.ankusa.store.lmdb;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import java.util.NoSuchElementException;
import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * A scan over {@code [lo, hi)} of one family, walking an LMDB cursor in a read transaction: the
 * transaction is the scan's consistent state (property {@code scanSeesOneStateWhileWritesGoOn}).
 *
 * <p>A scan of the live store owns its read transaction and is registered with the store's {@link
 * LongLivedReaders}; it releases the transaction as soon as it reaches the end of its range, and at
 * the latest on {@link #close()}. A scan of a snapshot uses the snapshot's transaction and is closed
 * with it; its steps synchronize on the snapshot, because an LMDB transaction serves one thread at a
 * time.
 *
 * <p>Bounds are checked here with unsigned byte comparison, which is LMDB's default key order
 * ({@code memcmp}); the cursor is positioned with {@code MDB_SET_RANGE}. A cursor error met on the
 * way throws {@link io.ankusa.store.spi.StoreCorruptionException} naming the family and the last key
 * read, and every later {@code hasNext} throws it again: the scan never ends early (property {@code
 * scanNeverEndsEarlyOnCorruption}). So does an entry whose checksum does not match ({@link
 * ValueChecksums}), in stores that keep checksums.
 */
final class LmdbScan implements Scan, LongLivedReaders.Reader {
  private final LmdbStore store;
  private final Object monitor;
  private final LmdbSnapshot snapshot;
  private final String family;
  private final byte[] lo;
  private final byte[] hi;
  private final Direction direction;
  private Txn<byte[]> txn;
  private Cursor<byte[]> cursor;
  private boolean started;
  private boolean exhausted;
  private Entry pending;
  private byte[] lastKey;
  private StoreException failure;
  private String closedReason;

  private LmdbScan(LmdbStore store, LmdbSnapshot snapshot, String family, byte[] lo, byte[] hi, Direction direction) {
    this.store = store;
    this.snapshot = snapshot;
    this.monitor = snapshot == null ? this : snapshot;
    this.family = family;
    this.lo = lo.clone();
    this.hi = hi == null ? null : hi.clone();
    this.direction = direction;
    this.exhausted = hi != null && Bytes.compare(lo, hi) >= 0;
  }

  /** A scan of the live store with its own read transaction. REQUIRES: arguments checked. */
  static LmdbScan onStore(LmdbStore store, String family, byte[] lo, byte[] hi, Direction direction) {
    LmdbScan scan = new LmdbScan(store, null, family, lo, hi, direction);
    synchronized (scan) {
      store.readers().register(scan);
      try {
        store.shared(env -> {
          scan.txn = LmdbStore.beginRead(env, store.describe());
          scan.cursor = env.dbi(family).openCursor(scan.txn);
          return null;
        });
      } catch (RuntimeException e) {
        store.releasing(scan::releaseNative);
        store.readers().deregister(scan);
        throw e instanceof StoreException ? e : LmdbErrors.readFailed(store.describe(), family, null, e);
      }
    }
    return scan;
  }

  /**
   * A scan in a snapshot's transaction. REQUIRES: the caller holds the snapshot's monitor and the
   * store's shared lock; arguments checked.
   */
  static LmdbScan onSnapshot(LmdbStore store, LmdbSnapshot snapshot, Txn<byte[]> txn, LmdbEnvironment env,
      String family, byte[] lo, byte[] hi, Direction direction) {
    LmdbScan scan = new LmdbScan(store, snapshot, family, lo, hi, direction);
    try {
      scan.cursor = env.dbi(family).openCursor(txn);
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(snapshot.describe(), family, null, e);
    }
    return scan;
  }

  @Override
  public boolean hasNext() {
    synchronized (monitor) {
      checkOpen();
      if (failure != null) {
        throw failure;
      }
      if (pending != null) {
        return true;
      }
      if (exhausted) {
        return false;
      }
      store.shared(env -> {
        advance(env.checksums());
        return null;
      });
      return pending != null;
    }
  }

  @Override
  public Entry next() {
    synchronized (monitor) {
      if (!hasNext()) {
        throw new NoSuchElementException("scan of family '" + family + "' is at the end of its range");
      }
      Entry e = pending;
      pending = null;
      return e;
    }
  }

  /**
   * One cursor step. The entry met is checked against its checksum before its key is compared with
   * the range's end, so a damaged key can never pass for the end of the range. REQUIRES: the monitor
   * and the store's shared lock are held.
   */
  private void advance(ValueChecksums checksums) {
    try {
      boolean found;
      if (!started) {
        started = true;
        found = position();
      } else {
        found = direction == Direction.FORWARD ? cursor.next() : cursor.prev();
      }
      if (found) {
        byte[] key = cursor.key();
        byte[] value = checksums.open(where(), family, key, cursor.val());
        if (inRange(key)) {
          pending = new Entry(key, value);
          lastKey = key;
          return;
        }
      }
      exhausted = true;
      releaseNative();
      if (snapshot == null) {
        store.readers().deregister(this);
      }
    } catch (RuntimeException e) {
      failure = LmdbErrors.readFailed(where(), family, lastKey, e);
      throw failure;
    }
  }

  private boolean position() {
    if (direction == Direction.FORWARD) {
      return lo.length == 0 ? cursor.first() : cursor.get(lo, GetOp.MDB_SET_RANGE);
    }
    if (hi == null) {
      return cursor.last();
    }
    // The first key >= hi, then one step back; no key >= hi means the range ends at the last key.
    return cursor.get(hi, GetOp.MDB_SET_RANGE) ? cursor.prev() : cursor.last();
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
      pending = null;
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

  private void checkOpen() {
    if (closedReason != null) {
      throw new StoreClosedException(closedReason);
    }
  }

  private String where() {
    return snapshot == null ? store.describe() : snapshot.describe();
  }
}
