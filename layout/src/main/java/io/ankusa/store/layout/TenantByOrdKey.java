package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u32;

/**
 * A decoded tenant-by-ordinal key {@code 't' ord:32} ({@link KeyFamily#TENANT_BY_ORD}); its value
 * is {@link TenantByOrdValue}. Build keys with {@link Keys#tenantByOrd(long)}.
 *
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 */
public record TenantByOrdKey(long ord) {
  static final int LENGTH = 5;

  /** REQUIRES: ord in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public TenantByOrdKey {
    Fields.requireTenantOrd(ord);
  }

  /**
   * Decodes a tenant-by-ordinal key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 5 bytes starting
   *     with {@code 't'}, or ord is 0 or 0xFFFFFFFF
   */
  public static TenantByOrdKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.TENANT_BY_ORD, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.TENANT_BY_ORD, key, () -> new TenantByOrdKey(u32(key, 1)));
  }
}
