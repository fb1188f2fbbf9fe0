package io.ankusa.store.lmdb;

import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.file.Path;

/**
 * How the check at open ({@link DataFileCheck}) words what it found wrong with one {@code
 * data.mdb}: the file, its length, what is wrong, and what to do.
 *
 * @param file the data file
 * @param size its length in bytes when the check read it
 */
record DamagedDataFile(Path file, long size) {
  /** Damage other than a cut: {@code what} says what is impossible in the file. */
  StoreCorruptionException because(String what) {
    return new StoreCorruptionException(
        "the LMDB data file "
            + file
            + " ("
            + size
            + " bytes) is damaged: "
            + what
            + ". It was not opened: restore the store from a backup");
  }

  /** A file shorter than its pages: {@code what} says which page lies past the end. */
  StoreCorruptionException cutShort(String what) {
    return new StoreCorruptionException(
        "the LMDB data file "
            + file
            + " is damaged: it is "
            + size
            + " bytes long and "
            + what
            + "; the file was cut short (a copy cut short, a full disk, a bad restore). It was not opened: restore"
            + " the store from a backup");
  }
}
