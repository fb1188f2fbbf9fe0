package io.ankusa.store.rocksdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.ReadOptions;

/**
 * A frozen view: a RocksDB snapshot and the read options that read at it, with the same read code
 * as the live store ({@link RocksDbReadView}). Writes made after it are never visible through it
 * (property {@code snapshotDoesNotSeeLaterWrites}).
 *
 * <p>Safe to use from several threads: reads hold its shared lock, {@link #close()} its exclusive
 * lock, so the native objects are never freed under a read. Closing it closes the scans opened on
 * it; closing or reopening the store closes it. Lock order: the store's lock, then this one's.
 */
final class RocksDbSnapshot extends RocksDbReadView implements Snapshot, OpenResource {
  private final RocksDbStore store;
  private final RocksDbEngine engine;
  private final org.rocksdb.Snapshot snapshot;
  private final ReadOptions options;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Set<OpenResource> scans = ConcurrentHashMap.newKeySet();

  /** Null while open; otherwise why it was closed. Guarded by {@link #lock}. */
  private volatile String closedBecause;

  /**
   * REQUIRES: the caller holds the shared side of the store's gate and {@code engine} is its
   * current one.
   */
  RocksDbSnapshot(RocksDbStore store, RocksDbEngine engine) {
    this.store = store;
    this.engine = engine;
    this.snapshot = engine.db.getSnapshot();
    this.options = new ReadOptions().setVerifyChecksums(true).setSnapshot(snapshot);
  }

  @Override
  FamilyCatalog catalog() {
    return store.catalog();
  }

  @Override
  RocksDbEngine enter() {
    store.enter();
    lock.readLock().lock();
    if (closedBecause != null) {
      lock.readLock().unlock();
      store.exit();
      throw new StoreClosedException(closedBecause);
    }
    return engine;
  }

  @Override
  void exit() {
    lock.readLock().unlock();
    store.exit();
  }

  @Override
  ReadOptions pointReads(RocksDbEngine e) {
    return options;
  }

  @Override
  org.rocksdb.Snapshot frozenAt() {
    return snapshot;
  }

  @Override
  Set<OpenResource> openScans() {
    return scans;
  }

  @Override
  RocksDbStore store() {
    return store;
  }

  /**
   * Releases the snapshot and closes its scans. Idempotent; never throws after the store closed.
   */
  @Override
  public void close() {
    if (lock.getReadHoldCount() > 0) {
      throw new StoreArgumentException(
          "close of a snapshot of RocksDB store "
              + store.directory()
              + " called from"
              + " inside a visit of it; nothing was done: close it after the visit returns");
    }
    store.gate().enterShared();
    try {
      invalidate("snapshot is closed");
    } finally {
      store.gate().exitShared();
    }
  }

  @Override
  public void invalidate(String reason) {
    lock.writeLock().lock();
    try {
      if (closedBecause != null) {
        return;
      }
      closedBecause = reason;
      for (OpenResource scan : List.copyOf(scans)) {
        scan.invalidate(reason.replace("snapshot", "scan of a snapshot"));
      }
      store.untrack(this);
      options.close();
      engine.db.releaseSnapshot(snapshot);
    } finally {
      lock.writeLock().unlock();
    }
  }
}
