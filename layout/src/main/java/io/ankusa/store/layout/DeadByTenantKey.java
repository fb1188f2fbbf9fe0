package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded dead-by-tenant key {@code 'X' ord:32 at:64 seq:64 sink:16} ({@link
 * KeyFamily#DEAD_BY_TENANT}), the companion of the {@code 'x'} key with the same {@code at seq
 * sink}. Build keys with {@link Keys#deadByTenant}, from {@code Deliveries} only.
 *
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 * @param at when the delivery was dead-lettered, non-negative
 * @param seq the hook's sequence, non-negative
 * @param sink the sink, 0..65535
 */
public record DeadByTenantKey(long ord, long at, long seq, int sink) {
  static final int LENGTH = 23;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public DeadByTenantKey {
    Fields.requireTenantOrd(ord);
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
  }

  /**
   * Decodes a dead-by-tenant key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 23 bytes starting
   *     with {@code 'X'}, or a field is out of range
   */
  public static DeadByTenantKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.DEAD_BY_TENANT, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.DEAD_BY_TENANT,
        key,
        () -> new DeadByTenantKey(u32(key, 1), u64(key, 5), u64(key, 13), u16(key, 21)));
  }
}
