package io.ankusa.store.lmdb;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import org.lmdbjava.Env;

/**
 * Turns lmdbjava's exceptions met while reading into the contract's: a full reader table is a
 * resource limit the caller can fix ({@link StoreException} naming {@code lmdb.maxReaders});
 * anything else met while reading data (a bad page, an I/O error, a panic) is {@link
 * StoreCorruptionException} naming the family and key, never a silent end of data (property {@code
 * scanNeverEndsEarlyOnCorruption}).
 */
final class LmdbErrors {
  private LmdbErrors() {}

  /**
   * The exception to throw for {@code cause}, met reading {@code family} at {@code key} ({@code
   * null} when not at a key) in {@code where} (a store or snapshot description).
   */
  static StoreException readFailed(
      String where, String family, byte[] key, RuntimeException cause) {
    if (cause instanceof StoreException se) {
      return se;
    }
    if (cause instanceof Env.ReadersFullException) {
      return readersFull(where, cause);
    }
    return new StoreCorruptionException(
        "reading family '"
            + family
            + "'"
            + (key == null ? "" : " at key " + Bytes.hex(key))
            + " of "
            + where
            + " failed: "
            + cause
            + "; the LMDB data file may be damaged: restore the store from a backup",
        cause);
  }

  /** Every reader slot is taken by open scans, snapshots and in-flight reads. */
  static StoreException readersFull(String where, RuntimeException cause) {
    return new StoreException(
        "all LMDB reader slots of "
            + where
            + " are in use (option "
            + LmdbSettings.MAX_READERS
            + "): close scans and snapshots you no longer need, or raise "
            + LmdbSettings.MAX_READERS,
        cause);
  }
}
