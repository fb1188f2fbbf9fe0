package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded audit row key {@code 'a' seq:64 at:64} ({@link KeyFamily#AUDIT}); the tenant is a field
 * of the row. Build keys with {@link Keys#audit(long, long)}.
 *
 * @param seq the audit sequence, non-negative
 * @param at epoch milliseconds, non-negative
 */
public record AuditKey(long seq, long at) {
  static final int LENGTH = 17;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public AuditKey {
    Fields.requireNonNegative("seq", seq);
    Fields.requireNonNegative("at", at);
  }

  /**
   * Decodes an audit key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 17 bytes starting
   *     with {@code 'a'}, or a field is out of range
   */
  public static AuditKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.AUDIT, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.AUDIT, key, () -> new AuditKey(u64(key, 1), u64(key, 9)));
  }
}
