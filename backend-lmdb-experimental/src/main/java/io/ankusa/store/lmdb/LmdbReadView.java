package io.ankusa.store.lmdb;

import io.ankusa.store.spi.FamilyCatalog;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import java.util.ArrayList;
import java.util.List;
import org.lmdbjava.Dbi;
import org.lmdbjava.Txn;

/**
 * The reads shared by the live store (a fresh read transaction per call) and a snapshot (its one
 * transaction): point reads, multi-gets in one transaction, counters. Subclasses say which
 * transaction a read runs in and how scans are opened.
 *
 * <p>Ownership: arrays passed in are only read during the call (lmdbjava copies them to native
 * memory); every array returned is a fresh copy made by {@code ByteArrayProxy}.
 */
abstract class LmdbReadView implements ReadView {
  /** Work done inside a read transaction; the transaction ends when the work returns. */
  interface TxnRead<R> {
    R apply(LmdbEnvironment env, Txn<byte[]> txn);
  }

  final FamilyCatalog catalog;

  LmdbReadView(FamilyCatalog catalog) {
    this.catalog = catalog;
  }

  /** Throws StoreClosedException when this view or its store is closed. */
  abstract void checkOpen();

  /** Runs {@code work} in this view's read transaction. */
  abstract <R> R inReadTxn(TxnRead<R> work);

  /** What to call this view in messages. */
  abstract String describe();

  @Override
  public byte[] get(String family, byte[] key) {
    checkOpen();
    catalog.require(family);
    catalog.checkKey(family, key);
    return inReadTxn((env, txn) -> read(env.dbi(family), txn, family, key));
  }

  /** All values from one transaction, hence one consistent state (property {@code multiGetKeepsOrderAndNulls}). */
  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    checkOpen();
    catalog.require(family);
    catalog.checkKeys(family, keys);
    return inReadTxn((env, txn) -> {
      Dbi<byte[]> dbi = env.dbi(family);
      List<byte[]> out = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        out.add(read(dbi, txn, family, k));
      }
      return out;
    });
  }

  @Override
  public long counter(String family, byte[] key) {
    checkOpen();
    catalog.requireCounters(family);
    byte[] v = get(family, key);
    return v == null ? 0 : Int64Add.decode(family, key, v);
  }

  private byte[] read(Dbi<byte[]> dbi, Txn<byte[]> txn, String family, byte[] key) {
    try {
      return dbi.get(txn, key);
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(describe(), family, key, e);
    }
  }
}
