package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU64;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * The value of {@code m:last_seq}: {@code seq:64} (8 bytes), the highest seq ever assigned.
 *
 * @param seq non-negative
 */
public record LastSeqValue(long seq) {
  static final String SHAPE = "seq:64 (8 bytes)";

  /** REQUIRES: seq non-negative. */
  public LastSeqValue {
    Fields.requireNonNegative("seq", seq);
  }

  /** The 8-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[8];
    putU64(v, 0, seq);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static LastSeqValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 8 bytes or seq is negative
   */
  public static LastSeqValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.META, key, value, SHAPE, 8);
    return LayoutCorruption.decodedValue(
        KeyFamily.META, key, value, SHAPE, () -> new LastSeqValue(u64(value, 0)));
  }
}
