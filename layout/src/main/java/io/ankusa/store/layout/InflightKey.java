package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded inflight key {@code 'F' ord:32 seq:64 sink:16} ({@link KeyFamily#INFLIGHT}). Build keys
 * with {@link Keys#inflight}, from {@code Deliveries} only.
 *
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 * @param seq the hook's sequence, non-negative
 * @param sink the sink, 0..65535
 */
public record InflightKey(long ord, long seq, int sink) {
  static final int LENGTH = 15;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public InflightKey {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
  }

  /**
   * Decodes an inflight key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 15 bytes starting
   *     with {@code 'F'}, or a field is out of range
   */
  public static InflightKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.INFLIGHT, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.INFLIGHT, key, () -> new InflightKey(u32(key, 1), u64(key, 5), u16(key, 13)));
  }
}
