package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u32;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded active-tenant marker {@code 'A' bucket:64 ord:32} ({@link KeyFamily#ACTIVE}): "tenant
 * {@code ord} has something due in second {@code bucket}". Build keys with {@link Keys#active},
 * from {@code Deliveries} only.
 *
 * @param bucket the second, {@link #bucketOf(long) at / 1000}, non-negative
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 */
public record ActiveKey(long bucket, long ord) {
  static final int LENGTH = 13;

  /** Milliseconds per bucket. */
  public static final long BUCKET_MILLIS = 1000;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public ActiveKey {
    Fields.requireNonNegative("bucket", bucket);
    Fields.requireTenantOrd(ord);
  }

  /** The bucket of a due time: {@code at / 1000}. REQUIRES: {@code at >= 0}. */
  public static long bucketOf(long at) {
    return Fields.requireNonNegative("at", at) / BUCKET_MILLIS;
  }

  /**
   * Decodes an active marker; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 13 bytes starting
   *     with {@code 'A'}, or a field is out of range
   */
  public static ActiveKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.ACTIVE, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.ACTIVE, key, () -> new ActiveKey(u64(key, 1), u32(key, 9)));
  }
}
