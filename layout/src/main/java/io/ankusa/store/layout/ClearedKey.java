package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded cleared hook key {@code 'c' seq:64} ({@link KeyFamily#CLEARED}). Build keys with {@link
 * Keys#cleared(long)}.
 *
 * @param seq the hook's sequence, non-negative
 */
public record ClearedKey(long seq) {
  static final int LENGTH = 9;

  /** REQUIRES: {@code seq >= 0}, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public ClearedKey {
    Fields.requireNonNegative("seq", seq);
  }

  /**
   * Decodes a cleared hook key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not {@code 'c' seq:64}
   *     or seq is out of range
   */
  public static ClearedKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.CLEARED, key, LENGTH);
    return LayoutCorruption.decodedKey(KeyFamily.CLEARED, key, () -> new ClearedKey(u64(key, 1)));
  }
}
