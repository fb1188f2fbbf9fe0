package io.ankusa.store.lmdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import java.util.ArrayList;
import java.util.List;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * The reads shared by the live store (a fresh read transaction per call) and a snapshot (its one
 * transaction): point reads, multi-gets in one transaction, counters. Subclasses say which
 * transaction a read runs in and how scans are opened.
 *
 * <p>Ownership: arrays passed in are only read during the call (lmdbjava copies them to native
 * memory); every array returned is a fresh copy, made once from the map ({@link MapBytes}) inside
 * the read's transaction.
 *
 * <p>Checksums (stores whose metadata says so, see {@link ValueChecksums}): every value read is
 * checked against its checksum, and a mismatch is {@link
 * io.ankusa.store.spi.StoreCorruptionException} naming the family and key. A point read that finds
 * no entry for its key also checks the entries on either side of where the key would be: a damaged
 * key byte moves an entry away from its key, so the miss is reported as corruption instead of as an
 * absent key. A damaged key byte that leaves the entry's bytes looking like another valid key is
 * still caught, because the checksum covers the key.
 */
abstract class LmdbReadView implements ReadView {
  /** Work done inside a read transaction; the transaction ends when the work returns. */
  interface TxnRead<R> {
    R apply(LmdbEnvironment env, Txn<MapBytes> txn);
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
    return inReadTxn(
        (env, txn) -> readChecked(env.checksums(), env.dbi(family), txn, null, family, key));
  }

  /**
   * All values from one transaction, hence one consistent state (property {@code
   * multiGetKeepsOrderAndNulls}).
   */
  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    checkOpen();
    catalog.require(family);
    catalog.checkKeys(family, keys);
    return inReadTxn(
        (env, txn) -> {
          List<byte[]> out = new ArrayList<>(keys.size());
          Dbi<MapBytes> dbi = env.dbi(family);
          ValueChecksums checksums = env.checksums();
          try (Cursor<MapBytes> misses =
              checksums == ValueChecksums.NONE ? null : openCursor(dbi, txn, family)) {
            for (byte[] k : keys) {
              out.add(readChecked(checksums, dbi, txn, misses, family, k));
            }
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

  private Cursor<MapBytes> openCursor(Dbi<MapBytes> dbi, Txn<MapBytes> txn, String family) {
    try {
      return dbi.openCursor(txn);
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(describe(), family, null, e);
    }
  }

  /**
   * The checked value of {@code key}, or null when absent. With checksums, a miss also checks the
   * entries just after and just before where the key would sit (see the class comment), through
   * {@code misses} when given, else a cursor opened for the purpose.
   */
  private byte[] readChecked(
      ValueChecksums checksums,
      Dbi<MapBytes> dbi,
      Txn<MapBytes> txn,
      Cursor<MapBytes> misses,
      String family,
      byte[] key) {
    try {
      MapBytes stored = dbi.get(txn, MapBytes.of(key));
      if (stored != null) {
        return checksums.open(describe(), family, key, stored);
      }
      if (checksums == ValueChecksums.NONE) {
        return null;
      }
      if (misses != null) {
        checkNeighbours(checksums, misses, family, key);
      } else {
        try (Cursor<MapBytes> cursor = dbi.openCursor(txn)) {
          checkNeighbours(checksums, cursor, family, key);
        }
      }
      return null;
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(describe(), family, key, e);
    }
  }

  /**
   * Checks the entry at or after {@code key} and the one before it (the last entry when none is
   * after).
   */
  private void checkNeighbours(
      ValueChecksums checksums, Cursor<MapBytes> cursor, String family, byte[] key) {
    if (cursor.get(MapBytes.of(key), GetOp.MDB_SET_RANGE)) {
      checksums.open(describe(), family, cursor.key().copy(), cursor.val());
      if (cursor.prev()) {
        checksums.open(describe(), family, cursor.key().copy(), cursor.val());
      }
    } else if (cursor.last()) {
      checksums.open(describe(), family, cursor.key().copy(), cursor.val());
    }
  }
}
