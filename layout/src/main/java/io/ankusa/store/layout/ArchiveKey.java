package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded archive obligation key {@code 'a' seq:64} ({@link KeyFamily#ARCHIVE}). Build keys with
 * {@link Keys#archive(long)}.
 *
 * @param seq the hook's sequence, non-negative
 */
public record ArchiveKey(long seq) {
  static final int LENGTH = 9;

  /** REQUIRES: {@code seq >= 0}, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public ArchiveKey {
    Fields.requireNonNegative("seq", seq);
  }

  /**
   * Decodes a archive obligation key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not {@code 'a' seq:64}
   *     or seq is out of range
   */
  public static ArchiveKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.ARCHIVE, key, LENGTH);
    return LayoutCorruption.decodedKey(KeyFamily.ARCHIVE, key, () -> new ArchiveKey(u64(key, 1)));
  }
}
