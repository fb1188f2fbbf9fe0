package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

/**
 * The value of {@code m:next_ord}: {@code next:32} (4 bytes), the ordinal the next new tenant gets.
 * {@code next - 1} tenants exist; {@code next = 0xFFFFFFFF} means every ordinal is taken.
 *
 * @param next 1..4294967295
 */
public record NextOrdinalValue(long next) {
  static final String SHAPE = "next:32 (4 bytes, 1..4294967295)";

  /** The value of a store with no tenant yet. */
  public static final NextOrdinalValue FIRST = new NextOrdinalValue(1);

  /** REQUIRES: {@code 1 <= next <= 0xFFFFFFFF}. */
  public NextOrdinalValue {
    if (next < 1 || next > Fields.MAX_U32) {
      throw new io.ankusa.store.spi.StoreArgumentException(
          "next ordinal " + next + " is out of range 1.." + Fields.MAX_U32);
    }
  }

  /** How many tenants have been given an ordinal: {@code next - 1}. */
  public long tenantCount() {
    return next - 1;
  }

  /** The 4-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[4];
    putU32(v, 0, next);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static NextOrdinalValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value of {@code m:next_ord}; {@code key} is named in errors and may be null.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 4 bytes or 0
   */
  public static NextOrdinalValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.META, key, value, SHAPE, 4);
    return LayoutCorruption.decodedValue(
        KeyFamily.META, key, value, SHAPE, () -> new NextOrdinalValue(u32(value, 0)));
  }
}
