package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded due key {@code 'D' ord:32 at:64 seq:64 sink:16} ({@link KeyFamily#DUE}). Build keys
 * with {@link Keys#due}, from {@code Deliveries} only.
 *
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 * @param at when the delivery is due, epoch milliseconds, non-negative
 * @param seq the hook's sequence, non-negative
 * @param sink the sink, 0..65535
 */
public record DueKey(long ord, long at, long seq, int sink) {
  static final int LENGTH = 23;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public DueKey {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
  }

  /**
   * Decodes a due key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 23 bytes starting
   *     with {@code 'D'}, or a field is out of range (message: family, hex, expected shape)
   */
  public static DueKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.DUE, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.DUE, key, () -> new DueKey(u32(key, 1), u64(key, 5), u64(key, 13), u16(key, 21)));
  }
}
