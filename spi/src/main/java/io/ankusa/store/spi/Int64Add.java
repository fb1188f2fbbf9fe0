package io.ankusa.store.spi;

/**
 * The one merge law of the contract, and the one place its bytes are encoded.
 *
 * <p>A counters value is a signed 64-bit integer stored as exactly 8 bytes, little-endian: the
 * encoding of RocksDB's built-in {@code uint64add} operator, identical on every backend (property
 * {@code mergeBytesIdenticalOnEveryBackend}). {@code merge(f, k, delta)} replaces the value {@code
 * v} (0 when absent) with {@code v + delta}, two's-complement, wrapping on overflow (property
 * {@code mergeIsSigned64BitAdditionWithWrapAround}).
 *
 * <p>Pitfall this class exists for: RocksDB silently ignores an operand that is not exactly 8
 * bytes, and big-endian operands give wrong sums. Encode counters here and nowhere else.
 */
public final class Int64Add {
  /** Width of an encoded counter value and of every merge operand. */
  public static final int WIDTH = 8;

  private Int64Add() {}

  /** The 8-byte little-endian encoding of {@code value}. */
  public static byte[] encode(long value) {
    byte[] out = new byte[WIDTH];
    for (int i = 0; i < WIDTH; i++) {
      out[i] = (byte) (value >>> (8 * i));
    }
    return out;
  }

  /**
   * Decodes an 8-byte little-endian value.
   *
   * @throws StoreCorruptionException if {@code bytes} is not exactly 8 bytes long: a counters
   *     family holds nothing else, so another length means the data is damaged
   */
  public static long decode(String family, byte[] key, byte[] bytes) {
    if (bytes.length != WIDTH) {
      throw new StoreCorruptionException(
          "counter value in family '"
              + family
              + "' at key "
              + Bytes.hex(key)
              + " is "
              + bytes.length
              + " bytes, expected 8 (little-endian int64): the counters family is"
              + " damaged; restore it from a backup or rebuild the counters from a fold");
    }
    long v = 0;
    for (int i = WIDTH - 1; i >= 0; i--) {
      v = (v << 8) | (bytes[i] & 0xffL);
    }
    return v;
  }

  /** The law itself: {@code current + delta}, wrapping. {@code current} is 0 for an absent key. */
  public static long apply(long current, long delta) {
    return current + delta;
  }
}
