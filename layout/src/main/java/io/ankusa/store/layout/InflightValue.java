package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

/**
 * The value of an inflight key: {@code size:32} (4 bytes).
 *
 * @param size the delivery's size in bytes, 0..4294967295
 */
public record InflightValue(long size) {
  static final String SHAPE = "size:32 (4 bytes)";

  /** REQUIRES: size u32. */
  public InflightValue {
    Fields.requireU32("size", size);
  }

  /** The 4-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[4];
    putU32(v, 0, size);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static InflightValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at inflight key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 4 bytes
   */
  public static InflightValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.INFLIGHT, key, value, SHAPE, 4);
    return new InflightValue(u32(value, 0));
  }
}
