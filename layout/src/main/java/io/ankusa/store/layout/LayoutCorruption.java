package io.ankusa.store.layout;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.function.Supplier;

/**
 * The decoders' checks and their one error shape: a key or value the codec cannot have written is
 * {@link StoreCorruptionException} naming the key family, the column family, the key (and value) in
 * hex, the expected shape and what to do.
 */
final class LayoutCorruption {
  private static final String ADVICE =
      " The store is damaged or was written by other code: stop writing to it, restore it from a"
          + " backup, or run `ankusa-store verify` to list what else is affected.";

  private LayoutCorruption() {}

  /** A key of {@code family} that is not well formed. */
  static StoreCorruptionException key(KeyFamily family, byte[] key, String problem) {
    return new StoreCorruptionException(
        family
            + " key "
            + Bytes.hex(key)
            + " in family '"
            + family.columnFamily()
            + "' "
            + problem
            + "; expected "
            + family.shape()
            + "."
            + ADVICE);
  }

  /**
   * A value stored under a key of {@code family} that is not well formed; {@code key} may be null.
   */
  static StoreCorruptionException value(
      KeyFamily family, byte[] key, byte[] value, String valueShape, String problem) {
    return new StoreCorruptionException(
        family
            + " value "
            + Bytes.hex(value)
            + (key == null ? "" : " at key " + Bytes.hex(key))
            + " in family '"
            + family.columnFamily()
            + "' "
            + problem
            + "; expected "
            + valueShape
            + "."
            + ADVICE);
  }

  /** Checks {@code key} has the family's prefix and exactly {@code length} bytes. */
  static void requireKeyShape(KeyFamily family, byte[] key, int length) {
    if (key == null) {
      throw new StoreArgumentException("cannot decode a null " + family + " key");
    }
    if (!family.startsWithPrefix(key)) {
      throw key(family, key, "does not start with the family's prefix");
    }
    if (key.length != length) {
      throw key(family, key, "is " + key.length + " bytes");
    }
  }

  /** Checks {@code key} has the family's prefix and at least {@code minLength} bytes. */
  static void requireKeyPrefix(KeyFamily family, byte[] key, int minLength) {
    if (key == null) {
      throw new StoreArgumentException("cannot decode a null " + family + " key");
    }
    if (!family.startsWithPrefix(key)) {
      throw key(family, key, "does not start with the family's prefix");
    }
    if (key.length < minLength) {
      throw key(family, key, "is " + key.length + " bytes, shorter than " + minLength);
    }
  }

  /**
   * Builds a decoded key; a field out of its range (the record's constructor refuses it with {@link
   * StoreArgumentException}) is corruption of that key.
   */
  static <T> T decodedKey(KeyFamily family, byte[] key, Supplier<T> build) {
    try {
      return build.get();
    } catch (StoreArgumentException e) {
      throw key(family, key, "holds a field out of range (" + e.getMessage() + ")");
    }
  }

  /** Checks a value is exactly {@code length} bytes. */
  static void requireValueLength(
      KeyFamily family, byte[] key, byte[] value, String valueShape, int length) {
    if (value == null) {
      throw new StoreArgumentException("cannot decode a null " + family + " value");
    }
    if (value.length != length) {
      throw value(family, key, value, valueShape, "is " + value.length + " bytes");
    }
  }

  /** Builds a decoded value; a field out of range is corruption of that value. */
  static <T> T decodedValue(
      KeyFamily family, byte[] key, byte[] value, String valueShape, Supplier<T> build) {
    try {
      return build.get();
    } catch (StoreArgumentException e) {
      throw value(
          family, key, value, valueShape, "holds a field out of range (" + e.getMessage() + ")");
    }
  }
}
