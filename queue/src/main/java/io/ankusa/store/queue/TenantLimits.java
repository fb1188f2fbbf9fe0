package io.ankusa.store.queue;

import io.ankusa.store.spi.StoreArgumentException;

/**
 * How the dispatcher treats one tenant. Stored in the store, so it survives restarts.
 *
 * @param weight the tenant's share of each dispatch round against the others: 1 .. 65 535 (default
 *     1)
 * @param maxInflight most deliveries of the tenant in flight at once; 0 = no limit (the default)
 * @param rowsPerTick most deliveries of the tenant one dispatcher tick takes; 0 = no limit (the
 *     default)
 */
public record TenantLimits(int weight, long maxInflight, long rowsPerTick) {
  /**
   * Weight 1, no inflight limit, no per-tick limit: what a tenant gets until its limits are set.
   */
  public static final TenantLimits DEFAULTS = new TenantLimits(1, 0, 0);

  /** REQUIRES: weight 1 .. 65 535; maxInflight and rowsPerTick 0 .. 4 294 967 295. */
  public TenantLimits {
    if (weight < 1 || weight > 0xFFFF) {
      throw new StoreArgumentException("tenant weight " + weight + " is outside 1..65535");
    }
    if (maxInflight < 0
        || maxInflight > 0xFFFF_FFFFL
        || rowsPerTick < 0
        || rowsPerTick > 0xFFFF_FFFFL) {
      throw new StoreArgumentException(
          "tenant maxInflight "
              + maxInflight
              + " and rowsPerTick "
              + rowsPerTick
              + " must each be within 0..4294967295 (0: no limit)");
    }
  }
}
