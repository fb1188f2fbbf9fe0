package io.ankusa.store.layout;

import java.util.Arrays;
import java.util.Objects;

/**
 * A decoded ordinal-by-tenant key {@code 'n' tenant_id} ({@link KeyFamily#ORD_BY_TENANT}); its
 * value is {@link OrdinalValue}. Build keys with {@link Keys#ordByTenant(TenantId)}.
 *
 * @param tenantId the tenant
 */
public record OrdByTenantKey(TenantId tenantId) {

  /** REQUIRES: non-null tenant. */
  public OrdByTenantKey {
    Objects.requireNonNull(tenantId, "tenantId");
  }

  /**
   * Decodes an ordinal-by-tenant key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} does not start with {@code
   *     'n'} or the rest is not a valid tenant id (1..255 bytes of UTF-8 without NUL)
   */
  public static OrdByTenantKey decode(byte[] key) {
    LayoutCorruption.requireKeyPrefix(KeyFamily.ORD_BY_TENANT, key, 2);
    return LayoutCorruption.decodedKey(
        KeyFamily.ORD_BY_TENANT,
        key,
        () -> new OrdByTenantKey(TenantId.fromUtf8(Arrays.copyOfRange(key, 1, key.length))));
  }
}
