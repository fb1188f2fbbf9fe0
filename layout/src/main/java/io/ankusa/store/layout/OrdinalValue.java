package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

/**
 * The value of an ordinal-by-tenant key {@code 'n' tenant_id}: {@code ord:32} (4 bytes).
 *
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 */
public record OrdinalValue(long ord) {
  static final String SHAPE = "ord:32 (4 bytes, 1..4294967294)";

  /** REQUIRES: ord 1..MAX_ORDINAL. */
  public OrdinalValue {
    Fields.requireTenantOrd(ord);
  }

  /** The 4-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[4];
    putU32(v, 0, ord);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static OrdinalValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at {@code 'n'} key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 4 bytes or ord is 0 or 0xFFFFFFFF
   */
  public static OrdinalValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.ORD_BY_TENANT, key, value, SHAPE, 4);
    return LayoutCorruption.decodedValue(
        KeyFamily.ORD_BY_TENANT, key, value, SHAPE, () -> new OrdinalValue(u32(value, 0)));
  }
}
