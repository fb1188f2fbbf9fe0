package io.ankusa.store.lmdb;

import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.StoreClosedException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;
import org.lmdbjava.Txn;

/**
 * A snapshot is one LMDB read transaction held open: LMDB's MVCC keeps the pages it sees alive, so
 * writes made after it are never visible through it (property {@code
 * snapshotDoesNotSeeLaterWrites}).
 *
 * <p>Safe to use from several threads: reads and scan steps synchronize on the snapshot, because an
 * LMDB transaction serves one thread at a time ({@code MDB_NOTLS} lets that thread change). Closing
 * the snapshot closes its scans and aborts the transaction, freeing its reader slot; closing the
 * store, or {@link LmdbStore#reportWriteFailure}, closes it too. While it is open the map cannot
 * grow (see {@link LmdbStore}): close snapshots promptly.
 */
final class LmdbSnapshot extends LmdbReadView implements Snapshot, LongLivedReaders.Reader {
  private final LmdbStore store;

  /** "snapshot of lmdb store DIR", built once (see {@link LmdbStore#describe()}). */
  private final String description;

  private final Set<LmdbScan> scans = new LinkedHashSet<>();
  private Txn<MapBytes> txn;
  private String closedReason;

  private LmdbSnapshot(LmdbStore store) {
    super(store.catalog);
    this.store = store;
    this.description = "snapshot of " + store.describe();
  }

  static LmdbSnapshot open(LmdbStore store) {
    LmdbSnapshot snapshot = new LmdbSnapshot(store);
    synchronized (snapshot) {
      store.readers().register(snapshot);
      try {
        store.shared(
            env -> {
              snapshot.txn = LmdbStore.beginRead(env, store.describe());
              return null;
            });
      } catch (RuntimeException e) {
        store.readers().deregister(snapshot);
        throw e;
      }
    }
    return snapshot;
  }

  @Override
  synchronized void checkOpen() {
    if (closedReason != null) {
      throw new StoreClosedException(closedReason);
    }
  }

  @Override
  <R> R inReadTxn(TxnRead<R> work) {
    synchronized (this) {
      checkOpen();
      return store.shared(env -> work.apply(env, txn));
    }
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    synchronized (this) {
      checkOpen();
      catalog.checkScan(family, lo, hi, direction);
      LmdbScan scan =
          store.shared(
              env -> LmdbScan.onSnapshot(store, this, txn, env, family, lo, hi, direction));
      scans.add(scan);
      return scan;
    }
  }

  /**
   * Called by a scan of this snapshot when it closes. REQUIRES: this snapshot's monitor is held.
   */
  void forget(LmdbScan scan) {
    scans.remove(scan);
  }

  @Override
  String describe() {
    return description;
  }

  @Override
  public void close() {
    closeBecause("snapshot of " + store.describe() + " is closed");
  }

  @Override
  public synchronized void closeBecause(String reason) {
    if (closedReason != null) {
      return;
    }
    closedReason = reason;
    for (LmdbScan scan : new ArrayList<>(scans)) {
      scan.closeBecause(reason);
    }
    store.releasing(
        () -> {
          if (txn != null) {
            txn.close();
            txn = null;
          }
        });
    store.readers().deregister(this);
  }
}
