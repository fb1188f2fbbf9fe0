package io.ankusa.store.lmdb;

import io.ankusa.store.spi.FamilyCatalog;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import java.util.ArrayList;
import java.util.Arrays;
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
 * memory); every array returned is a fresh copy made by {@code ByteArrayProxy}.
 *
 * <p>Checksums (stores whose metadata says so, see {@link ValueChecksums}): every value read is
 * checked against its checksum, and a mismatch is {@link io.ankusa.store.spi.StoreCorruptionException}
 * naming the family and key. A point read that finds no entry for its key also checks the entries
 * on either side of where the key would be: a damaged key byte moves an entry away from its key, so
 * the miss is reported as corruption instead of as an absent key. A damaged key byte that leaves the
 * entry's bytes looking like another valid key is still caught, because the checksum covers the key.
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
    return inReadTxn((env, txn) -> {
      if (env.checksums() == ValueChecksums.NONE) {
        return read(env.dbi(family), txn, family, key);
      }
      try (Cursor<byte[]> cursor = openCursor(env, txn, family)) {
        return readChecked(env.checksums(), cursor, family, key);
      }
    });
  }

  /** All values from one transaction, hence one consistent state (property {@code multiGetKeepsOrderAndNulls}). */
  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    checkOpen();
    catalog.require(family);
    keys.forEach(k -> catalog.checkKey(family, k));
    return inReadTxn((env, txn) -> {
      List<byte[]> out = new ArrayList<>(keys.size());
      if (env.checksums() == ValueChecksums.NONE) {
        Dbi<byte[]> dbi = env.dbi(family);
        for (byte[] k : keys) {
          out.add(read(dbi, txn, family, k));
        }
        return out;
      }
      try (Cursor<byte[]> cursor = openCursor(env, txn, family)) {
        for (byte[] k : keys) {
          out.add(readChecked(env.checksums(), cursor, family, k));
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

  private byte[] read(Dbi<byte[]> dbi, Txn<byte[]> txn, String family, byte[] key) {
    try {
      return dbi.get(txn, key);
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(describe(), family, key, e);
    }
  }

  private Cursor<byte[]> openCursor(LmdbEnvironment env, Txn<byte[]> txn, String family) {
    try {
      return env.dbi(family).openCursor(txn);
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(describe(), family, null, e);
    }
  }

  /**
   * The checked value of {@code key}, or null when absent. On a miss, the entries just after and
   * just before where the key would sit are checked too (see the class comment).
   */
  private byte[] readChecked(ValueChecksums checksums, Cursor<byte[]> cursor, String family, byte[] key) {
    try {
      if (cursor.get(key, GetOp.MDB_SET_RANGE)) {
        byte[] found = cursor.key();
        byte[] value = checksums.open(describe(), family, found, cursor.val());
        if (Arrays.equals(found, key)) {
          return value;
        }
        if (cursor.prev()) {
          checksums.open(describe(), family, cursor.key(), cursor.val());
        }
      } else if (cursor.last()) {
        checksums.open(describe(), family, cursor.key(), cursor.val());
      }
      return null;
    } catch (RuntimeException e) {
      throw LmdbErrors.readFailed(describe(), family, key, e);
    }
  }
}
