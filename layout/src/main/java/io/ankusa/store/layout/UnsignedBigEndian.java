package io.ankusa.store.layout;

/**
 * Fixed-width unsigned big-endian integers, the only integer encoding of the layout's keys and
 * values: with it, unsigned byte order of the encodings is numeric order of the values (property
 * {@code byteOrderIsNumericOrder}).
 *
 * <p>These methods do not range-check; the builders check with {@link Fields} first. Readers take
 * the array and an offset and do not retain the array.
 */
public final class UnsignedBigEndian {
  private UnsignedBigEndian() {}

  /**
   * Writes the low 16 bits of {@code value} at {@code out[off..off+2)}; returns {@code off + 2}.
   */
  public static int putU16(byte[] out, int off, int value) {
    out[off] = (byte) (value >>> 8);
    out[off + 1] = (byte) value;
    return off + 2;
  }

  /**
   * Writes the low 32 bits of {@code value} at {@code out[off..off+4)}; returns {@code off + 4}.
   */
  public static int putU32(byte[] out, int off, long value) {
    out[off] = (byte) (value >>> 24);
    out[off + 1] = (byte) (value >>> 16);
    out[off + 2] = (byte) (value >>> 8);
    out[off + 3] = (byte) value;
    return off + 4;
  }

  /** Writes the 64 bits of {@code value} at {@code out[off..off+8)}; returns {@code off + 8}. */
  public static int putU64(byte[] out, int off, long value) {
    for (int i = 0; i < 8; i++) {
      out[off + i] = (byte) (value >>> (56 - 8 * i));
    }
    return off + 8;
  }

  /** The unsigned 16-bit value at {@code in[off..off+2)}. */
  public static int u16(byte[] in, int off) {
    return ((in[off] & 0xff) << 8) | (in[off + 1] & 0xff);
  }

  /** The unsigned 32-bit value at {@code in[off..off+4)}, 0..4294967295. */
  public static long u32(byte[] in, int off) {
    return ((in[off] & 0xffL) << 24)
        | ((in[off + 1] & 0xffL) << 16)
        | ((in[off + 2] & 0xffL) << 8)
        | (in[off + 3] & 0xffL);
  }

  /** The 64 bits at {@code in[off..off+8)}; negative when the top bit is set. */
  public static long u64(byte[] in, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (in[off + i] & 0xffL);
    }
    return v;
  }
}
