package io.ankusa.store.lmdb;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreCorruptionException;

/**
 * How values are stored in a store's family DBIs: as given ({@link #NONE}, stores of metadata
 * format 1, written before checksums existed or with {@code lmdb.checksums=false}), or followed by
 * a 4-byte big-endian CRC32C over the key and the value ({@link #CRC32C}, metadata format 2). The
 * store records which one in its own metadata DBI, so every reopen reads its values the way they
 * were written, whatever the options say.
 *
 * <p>With checksums, a flipped or zeroed byte in a stored key or value is met as a mismatch when
 * the entry is read (get, multiGet, scans, snapshots, the read of a merge) and raised as {@link
 * StoreCorruptionException}. What this cannot see: damage to LMDB's own structure (page headers,
 * branch pages, the free list), which the check at open reads instead ({@link DataFileCheck}).
 *
 * <p>Stateless and thread-safe. Arrays passed in are not kept; every array returned is fresh.
 */
enum ValueChecksums {
  /** Values stored as given. */
  NONE {
    @Override
    MapBytes seal(byte[] key, byte[] value) {
      return MapBytes.of(value);
    }

    @Override
    byte[] open(String where, String family, byte[] key, MapBytes stored) {
      return stored.copy();
    }
  },
  /** Values stored with a CRC32C of key and value appended. */
  CRC32C {
    @Override
    MapBytes seal(byte[] key, byte[] value) {
      return MapBytes.sealed(value, crc(key, value, value.length));
    }

    /** One copy, of the value alone; the checksum is read where it is stored. */
    @Override
    byte[] open(String where, String family, byte[] key, MapBytes stored) {
      if (stored.size() < CHECKSUM_BYTES) {
        throw mismatch(
            where,
            family,
            key,
            "a stored value of " + stored.size() + " bytes is too short to hold its checksum");
      }
      int length = stored.size() - CHECKSUM_BYTES;
      byte[] value = stored.copy(length);
      int recorded = stored.intAt(length);
      int computed = crc(key, value, length);
      if (recorded != computed) {
        throw mismatch(
            where,
            family,
            key,
            String.format("checksum mismatch (stored %08x, computed %08x)", recorded, computed));
      }
      return value;
    }
  };

  /** Bytes a checksum adds to every stored value. */
  static final int CHECKSUM_BYTES = 4;

  /**
   * What to store for {@code value} under {@code key}: bytes going in that wrap {@code value}, not
   * a copy (with a checksum, as the trailer of {@link MapBytes#sealed}). REQUIRES: {@code value} is
   * not modified until the put that takes them has returned.
   */
  abstract MapBytes seal(byte[] key, byte[] value);

  /**
   * The value a stored entry holds, checked against its checksum: a fresh array. REQUIRES: {@code
   * stored} is still valid (see {@link MapBytes}).
   *
   * @throws StoreCorruptionException naming the family and key when the entry is damaged
   */
  abstract byte[] open(String where, String family, byte[] key, MapBytes stored);

  private static int crc(byte[] key, byte[] value, int valueLength) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(key);
    crc.update(value, 0, valueLength);
    return (int) crc.getValue();
  }

  private static StoreCorruptionException mismatch(
      String where, String family, byte[] key, String what) {
    return new StoreCorruptionException(
        "reading family '"
            + family
            + "' at key "
            + Bytes.hex(key)
            + " of "
            + where
            + ": "
            + what
            + "; the key or value was damaged on disk: restore the store from a backup");
  }
}
