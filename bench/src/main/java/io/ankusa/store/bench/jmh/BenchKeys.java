package io.ankusa.store.bench.jmh;

import java.nio.ByteBuffer;

/**
 * The keys and values the engine benches use: 16-byte keys whose byte order is their number's
 * order.
 */
public final class BenchKeys {
  /** Bytes of every value. */
  public static final int VALUE_BYTES = 100;

  private BenchKeys() {}

  /** Key number {@code n}: {@code 'k'}, seven zero bytes, {@code n} as 8 bytes big-endian. */
  public static byte[] key(long n) {
    return ByteBuffer.allocate(16).put((byte) 'k').position(8).putLong(n).array();
  }

  /** Keys {@code 0..count-1}. */
  public static byte[][] keys(int count) {
    byte[][] keys = new byte[count][];
    for (int i = 0; i < count; i++) {
      keys[i] = key(i);
    }
    return keys;
  }

  /** A value of {@link #VALUE_BYTES} bytes, not all zero (so LZ4 has some work). */
  public static byte[] value(long seed) {
    byte[] v = new byte[VALUE_BYTES];
    long x = seed * 0x9E3779B97F4A7C15L + 1;
    for (int i = 0; i < v.length; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      v[i] = (byte) (i < VALUE_BYTES / 2 ? x : 'v');
    }
    return v;
  }

  /** Writes {@code keys} with values to {@code target} in unsynced batches of 1 000. */
  public static void load(EngineTarget target, byte[][] keys) {
    for (int from = 0; from < keys.length; from += 1000) {
      int n = Math.min(1000, keys.length - from);
      byte[][] k = new byte[n][];
      byte[][] v = new byte[n][];
      for (int i = 0; i < n; i++) {
        k[i] = keys[from + i];
        v[i] = value(from + i);
      }
      target.putAll(k, v, false);
    }
  }
}
