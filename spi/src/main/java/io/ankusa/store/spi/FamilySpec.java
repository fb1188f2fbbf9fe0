package io.ankusa.store.spi;

import java.util.regex.Pattern;

/**
 * One family (a RocksDB column family, an LMDB named database, a sorted map) a store is opened
 * with.
 *
 * @param name lower-case letters, digits, {@code _} and {@code -}, 1..64 characters; {@code
 *     "default"} is a family like any other
 * @param counters whether the family holds {@link Int64Add} counters: only such a family accepts
 *     {@link Op.Merge}, and every value in it is 8 bytes
 * @param writeBufferHint bytes of write buffer the backend may give the family; 0 lets the backend
 *     choose. A hint, not a promise
 * @param compress whether the backend may compress the family's data at rest
 */
public record FamilySpec(String name, boolean counters, long writeBufferHint, boolean compress) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9_-]{1,64}");

  public FamilySpec {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new StoreArgumentException(
          "family name '" + name + "' is not valid: use 1..64 of [a-z0-9_-]");
    }
    if (writeBufferHint < 0) {
      throw new StoreArgumentException(
          "family '"
              + name
              + "': writeBufferHint "
              + writeBufferHint
              + " is negative; use 0 for the default");
    }
  }

  /** A plain, compressed family with the backend's default buffer. */
  public static FamilySpec plain(String name) {
    return new FamilySpec(name, false, 0, true);
  }

  /** A counters family: merges allowed, not compressed (8-byte values do not compress). */
  public static FamilySpec counters(String name, long writeBufferHint) {
    return new FamilySpec(name, true, writeBufferHint, false);
  }
}
