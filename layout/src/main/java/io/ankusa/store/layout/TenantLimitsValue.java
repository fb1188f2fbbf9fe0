package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU16;
import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

import io.ankusa.store.spi.StoreArgumentException;

/**
 * The value of {@code m:tenant_limits:<ord>} ({@link Keys#tenantLimits}): how the dispatcher treats
 * one tenant, {@code weight:16 max_inflight:32 rows_per_tick:32} (10 bytes). A tenant without the
 * key has {@link #DEFAULTS}.
 *
 * @param weight the tenant's share of each dispatch round, in quanta: 1 .. 65 535
 * @param maxInflight most rows the tenant may have inflight at once; 0 = no limit
 * @param rowsPerTick most rows one dispatcher tick claims for the tenant; 0 = no limit
 */
public record TenantLimitsValue(int weight, long maxInflight, long rowsPerTick) {
  static final String SHAPE = "weight:16 max_inflight:32 rows_per_tick:32 (10 bytes)";

  /** Weight 1, no inflight limit, no per-tick limit: what a tenant without the key gets. */
  public static final TenantLimitsValue DEFAULTS = new TenantLimitsValue(1, 0, 0);

  /** REQUIRES: weight 1..65 535; maxInflight and rowsPerTick 0 .. 2³²−1. */
  public TenantLimitsValue {
    if (weight < 1 || weight > Fields.MAX_SINK) {
      throw new StoreArgumentException(
          "tenant weight " + weight + " is outside 1.." + Fields.MAX_SINK);
    }
    Fields.requireU32("max inflight", maxInflight);
    Fields.requireU32("rows per tick", rowsPerTick);
  }

  /** Whether the tenant may have at most {@link #maxInflight} rows inflight. */
  public boolean limitsInflight() {
    return maxInflight > 0;
  }

  /** Whether one tick claims at most {@link #rowsPerTick} rows of the tenant. */
  public boolean limitsRowsPerTick() {
    return rowsPerTick > 0;
  }

  /** The 10-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[10];
    putU32(v, putU32(v, putU16(v, 0, weight), maxInflight), rowsPerTick);
    return v;
  }

  /**
   * Decodes the value stored at key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 10 bytes or the weight is 0
   */
  public static TenantLimitsValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.META, key, value, SHAPE, 10);
    return LayoutCorruption.decodedValue(
        KeyFamily.META,
        key,
        value,
        SHAPE,
        () -> new TenantLimitsValue(u16(value, 0), u32(value, 2), u32(value, 6)));
  }
}
