package io.ankusa.store.queue.internal.tenant;

import io.ankusa.store.spi.StoreException;

/**
 * A request would create tenant number {@code tenants.max + 1} (outcome {@code TENANT_LIMIT}). An
 * embedding HTTP service answers it with 503 and {@code Retry-After: 300}. Nothing was written and
 * no ordinal was created; existing tenants are never refused. Only raising {@code tenants.max}
 * makes room: ordinals are permanent, so erasing a tenant does not give its number back.
 */
public final class TenantLimitException extends StoreException {
  private static final long serialVersionUID = 1L;
  private final String tenant;
  private final long tenantsMax;

  public TenantLimitException(String tenant, long tenantsMax) {
    super(
        "tenant '"
            + tenant
            + "' would be tenant number "
            + (tenantsMax + 1)
            + " but tenants.max is "
            + tenantsMax
            + ": refused (TENANT_LIMIT); raise tenants.max to admit more (ordinals are permanent: erasing a tenant"
            + " does not free its number)");
    this.tenant = tenant;
    this.tenantsMax = tenantsMax;
  }

  public String tenant() {
    return tenant;
  }

  public long tenantsMax() {
    return tenantsMax;
  }
}
