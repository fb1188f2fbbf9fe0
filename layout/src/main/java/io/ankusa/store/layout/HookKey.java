package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded hook envelope key {@code seq:64} ({@link KeyFamily#HOOK}). Build keys with {@link
 * Keys#hook(long)}.
 *
 * @param seq the hook's sequence, non-negative
 */
public record HookKey(long seq) {
  static final int LENGTH = 8;

  /** REQUIRES: {@code seq >= 0}, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public HookKey {
    Fields.requireNonNegative("seq", seq);
  }

  /**
   * Decodes a hook envelope key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not {@code seq:64} or
   *     seq is out of range
   */
  public static HookKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.HOOK, key, LENGTH);
    return LayoutCorruption.decodedKey(KeyFamily.HOOK, key, () -> new HookKey(u64(key, 0)));
  }
}
