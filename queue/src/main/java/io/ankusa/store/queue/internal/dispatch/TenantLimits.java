package io.ankusa.store.queue.internal.dispatch;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.OptionalLong;

/**
 * Per-tenant dispatch limits, stored in the store ({@code m:tenant_limits:<ord>}, docs/storage.md)
 * so they survive restarts and apply on every node that opens it: the tenant's weight in the
 * dispatcher's rounds, its most inflight rows, its most rows per tick. A tenant without the key has
 * {@link TenantLimitsValue#DEFAULTS}. Written with SYNC; read by a dispatcher tick with one point
 * read per tenant it visits. An erase of the tenant deletes them with its ordinal ({@link
 * io.ankusa.store.queue.internal.maintenance.TenantErase}).
 */
public final class TenantLimits {
  private TenantLimits() {}

  /**
   * Sets {@code tenant}'s limits (durable when this returns).
   *
   * @throws StoreArgumentException if the tenant has no ordinal (it never ingested, or was erased):
   *     set its limits once it has ingested a hook
   */
  public static void set(DeliveryQueue queue, TenantId tenant, TenantLimitsValue limits) {
    OptionalLong ord = Tenants.ord(queue.store(), tenant);
    if (ord.isEmpty()) {
      throw new StoreArgumentException(
          "tenant '"
              + tenant.value()
              + "' has no ordinal: it has never ingested a"
              + " hook or was erased; set its limits once it has ingested one");
    }
    set(queue, ord.getAsLong(), limits);
  }

  /**
   * Sets the limits of ordinal {@code ord} (durable when this returns); {@code DEFAULTS} deletes
   * the key.
   */
  public static void set(DeliveryQueue queue, long ord, TenantLimitsValue limits) {
    Batch batch = new Batch();
    if (limits.equals(TenantLimitsValue.DEFAULTS)) {
      batch.delete(Format3.DEFAULT, Keys.tenantLimits(ord));
    } else {
      batch.put(Format3.DEFAULT, Keys.tenantLimits(ord), limits.encode());
    }
    queue.store().write(batch, Durability.SYNC);
  }

  /** The limits of ordinal {@code ord}: its stored value, or the defaults. */
  public static TenantLimitsValue of(ReadView view, long ord) {
    byte[] key = Keys.tenantLimits(ord);
    byte[] v = view.get(Format3.DEFAULT, key);
    return v == null ? TenantLimitsValue.DEFAULTS : TenantLimitsValue.decodeAt(key, v);
  }

  /** Deletes the limits of a retired ordinal, in the caller's batch. */
  public static void deleteIn(Batch batch, long ord) {
    batch.delete(Format3.DEFAULT, Keys.tenantLimits(ord));
  }
}
