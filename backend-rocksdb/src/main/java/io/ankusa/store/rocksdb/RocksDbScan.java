package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * A scan over {@code [lo, hi)} of one column family: a RocksDB iterator with {@code
 * iterate_lower_bound}/{@code iterate_upper_bound}, reading one engine snapshot so it sees one state
 * whatever is written meanwhile (property {@code scanSeesOneStateWhileWritesGoOn}).
 *
 * <p>The end-of-range rule: whenever the iterator stops being valid, {@link RocksIterator#status()}
 * is checked, and a failure is thrown as {@link StoreCorruptionException} — the scan never ends
 * early because of corruption or an I/O error (property {@code scanNeverEndsEarlyOnCorruption},
 * and {@code CorruptionTest}).
 *
 * <p>Owns: the iterator, its read options, the two bound slices and, for a scan of the live store,
 * the engine snapshot; all are freed by {@link #close()} or when the store closes or reopens.
 * Entries are fresh copies. Used by one thread at a time; every call holds the store's shared lock
 * so the engine cannot close underneath it.
 */
final class RocksDbScan implements Scan, OpenResource {
  private final RocksDbStore store;
  private final RocksDbEngine engine;
  private final String family;
  private final Direction direction;
  private final Set<OpenResource> registry;
  private final RocksIterator iterator;
  private final ReadOptions options;
  private final Slice lower;
  private final Slice upper;
  /** The engine snapshot this scan created and must release; null when it reads a Snapshot's. */
  private final org.rocksdb.Snapshot owned;
  /** Null while open; otherwise why it was closed. Guarded by this. */
  private String closedBecause;
  private byte[] lastKey;

  private RocksDbScan(RocksDbStore store, RocksDbEngine engine, String family, Direction direction,
      Set<OpenResource> registry, RocksIterator iterator, ReadOptions options, Slice lower, Slice upper,
      org.rocksdb.Snapshot owned) {
    this.store = store;
    this.engine = engine;
    this.family = family;
    this.direction = direction;
    this.registry = registry;
    this.iterator = iterator;
    this.options = options;
    this.lower = lower;
    this.upper = upper;
    this.owned = owned;
  }

  /**
   * Opens and positions a scan. REQUIRES: the caller holds the store's shared lock and checked the
   * arguments; {@code hi == null} means unbounded; {@code frozen} is the snapshot to read, or null to
   * pin a fresh one.
   */
  static RocksDbScan open(RocksDbStore store, RocksDbEngine engine, String family, byte[] lo, byte[] hi,
      Direction direction, org.rocksdb.Snapshot frozen, Set<OpenResource> registry) {
    org.rocksdb.Snapshot owned = frozen == null ? engine.db.getSnapshot() : null;
    ReadOptions options = new ReadOptions().setVerifyChecksums(true).setSnapshot(frozen == null ? owned : frozen);
    Slice lower = lo.length == 0 ? null : new Slice(lo.clone());
    Slice upper = hi == null ? null : new Slice(hi.clone());
    if (lower != null) {
      options.setIterateLowerBound(lower);
    }
    if (upper != null) {
      options.setIterateUpperBound(upper);
    }
    RocksIterator it = engine.db.newIterator(engine.handle(family), options);
    RocksDbScan scan = new RocksDbScan(store, engine, family, direction, registry, it, options, lower, upper, owned);
    if (direction == Direction.FORWARD) {
      if (lo.length == 0) {
        it.seekToFirst();
      } else {
        it.seek(lo);
      }
    } else if (hi == null) {
      it.seekToLast();
    } else {
      // With iterate_upper_bound set, seekForPrev(hi) lands on the last key < hi.
      it.seekForPrev(hi);
    }
    registry.add(scan);
    return scan;
  }

  @Override
  public boolean hasNext() {
    Lock lock = store.sharedLock();
    lock.lock();
    try {
      synchronized (this) {
        checkOpen();
        return validOrThrow();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Entry next() {
    Lock lock = store.sharedLock();
    lock.lock();
    try {
      synchronized (this) {
        checkOpen();
        if (!validOrThrow()) {
          throw new NoSuchElementException("scan of family '" + family + "' is at the end of its range");
        }
        byte[] key = iterator.key();
        byte[] value = iterator.value();
        lastKey = key;
        if (direction == Direction.FORWARD) {
          iterator.next();
        } else {
          iterator.prev();
        }
        return new Entry(key, value); // both fresh arrays made by RocksJava
      }
    } finally {
      lock.unlock();
    }
  }

  /** True at an entry; false only at the true end; throws if the iterator stopped on an error. */
  private boolean validOrThrow() {
    if (iterator.isValid()) {
      return true;
    }
    try {
      iterator.status();
    } catch (RocksDBException e) {
      throw new StoreCorruptionException(
          "scan of family '" + family + "' in RocksDB store " + engine.dir + " stopped "
              + (lastKey == null ? "before its first entry" : "after key " + Bytes.hex(lastKey))
              + " on an error (" + e.getMessage() + "); the range was not read to its end: restore the"
              + " store from a backup or run RocksDB's repair tool (ldb repair)", e);
    }
    return false;
  }

  private void checkOpen() {
    if (closedBecause != null) {
      throw new StoreClosedException(closedBecause);
    }
  }

  @Override
  public void close() {
    Lock lock = store.sharedLock();
    lock.lock();
    try {
      invalidate("scan of family '" + family + "' is closed");
    } finally {
      lock.unlock();
    }
  }

  @Override
  public synchronized void invalidate(String reason) {
    if (closedBecause != null) {
      return;
    }
    closedBecause = reason;
    registry.remove(this);
    iterator.close();
    options.close();
    if (lower != null) {
      lower.close();
    }
    if (upper != null) {
      upper.close();
    }
    if (owned != null) {
      engine.db.releaseSnapshot(owned);
    }
  }
}
