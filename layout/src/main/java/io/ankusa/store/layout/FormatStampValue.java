package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

/**
 * The value of {@code m:format}: {@code format:32} (4 bytes), the layout format the store is in.
 * Comparing it with the code's format (and refusing a newer one) is the queue's format guard, not
 * this codec's.
 *
 * @param format 1..{@link Integer#MAX_VALUE}
 */
public record FormatStampValue(int format) {
  static final String SHAPE = "format:32 (4 bytes)";

  /** The stamp of a format-3 store. */
  public static final FormatStampValue FORMAT_3 = new FormatStampValue(Format3.FORMAT);

  /** REQUIRES: {@code format >= 1}. */
  public FormatStampValue {
    if (format < 1) {
      throw new io.ankusa.store.spi.StoreArgumentException(
          "format " + format + " is out of range 1.." + Integer.MAX_VALUE);
    }
  }

  /** The 4-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[4];
    putU32(v, 0, format);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static FormatStampValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value of {@code m:format}; {@code key} is named in errors and may be null.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 4 bytes, 0, or above {@link
   *     Integer#MAX_VALUE}
   */
  public static FormatStampValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.META, key, value, SHAPE, 4);
    long format = u32(value, 0);
    if (format > Integer.MAX_VALUE) {
      throw LayoutCorruption.value(KeyFamily.META, key, value, SHAPE, "holds format " + format);
    }
    return LayoutCorruption.decodedValue(
        KeyFamily.META, key, value, SHAPE, () -> new FormatStampValue((int) format));
  }
}
