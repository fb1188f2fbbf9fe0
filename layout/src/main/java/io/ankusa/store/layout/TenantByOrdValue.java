package io.ankusa.store.layout;

import io.ankusa.store.spi.StoreArgumentException;

/**
 * The value of a tenant-by-ordinal key {@code 't' ord}: the tenant id's UTF-8 bytes, or empty when
 * the tenant was erased (a tombstone: the ordinal stays taken, so a straggling row is never
 * attributed to another tenant).
 *
 * @param tenant the tenant, or null for an erased tenant's tombstone
 */
public record TenantByOrdValue(TenantId tenant) {
  /** The tombstone of an erased tenant. */
  public static final TenantByOrdValue ERASED = new TenantByOrdValue(null);

  static final String SHAPE = "tenant id (1..255 bytes of UTF-8 without NUL) or empty (erased)";

  /** The value naming {@code tenant}. REQUIRES: non-null. */
  public static TenantByOrdValue of(TenantId tenant) {
    if (tenant == null) {
      throw new StoreArgumentException(
          "tenant is null; use TenantByOrdValue.ERASED for a tombstone");
    }
    return new TenantByOrdValue(tenant);
  }

  /** Whether this is an erased tenant's tombstone. */
  public boolean isErased() {
    return tenant == null;
  }

  /** The encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    return tenant == null ? new byte[0] : tenant.bytes();
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static TenantByOrdValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at {@code 't'} key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if non-empty and not a valid tenant id
   */
  public static TenantByOrdValue decodeAt(byte[] key, byte[] value) {
    if (value == null) {
      throw new StoreArgumentException("cannot decode a null TENANT_BY_ORD value");
    }
    if (value.length == 0) {
      return ERASED;
    }
    return LayoutCorruption.decodedValue(
        KeyFamily.TENANT_BY_ORD,
        key,
        value,
        SHAPE,
        () -> new TenantByOrdValue(TenantId.fromUtf8(value)));
  }
}
