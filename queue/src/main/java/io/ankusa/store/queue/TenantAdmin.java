package io.ankusa.store.queue;

import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.TenantErase;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.StoreException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;

/**
 * Tenant administration of a {@link WebhookQueue}: dispatch limits, per-tenant counts, purge,
 * erase. Tenants are named by their id as ingested ({@code null} means {@code "default"}).
 * Thread-safe.
 */
public final class TenantAdmin {
  private final DeliveryQueue queue;
  private final QueueWriter writer;

  TenantAdmin(DeliveryQueue queue, QueueWriter writer) {
    this.queue = queue;
    this.writer = writer;
  }

  /**
   * {@code tenant}'s dispatch limits ({@link TenantLimits#DEFAULTS} until set, or for a tenant
   * never seen).
   */
  public TenantLimits limits(String tenant) {
    OptionalLong ord = Tenants.ord(queue.store(), TenantId.of(tenant));
    if (ord.isEmpty()) {
      return TenantLimits.DEFAULTS;
    }
    TenantLimitsValue v =
        io.ankusa.store.queue.internal.dispatch.TenantLimits.of(queue.store(), ord.getAsLong());
    return new TenantLimits(v.weight(), v.maxInflight(), v.rowsPerTick());
  }

  /**
   * Sets {@code tenant}'s dispatch limits, durable when this returns; the dispatcher applies them
   * from its next tick.
   *
   * @throws io.ankusa.store.spi.StoreArgumentException if the tenant has never ingested a hook (or
   *     was erased): set its limits once it has
   */
  public void setLimits(String tenant, TenantLimits limits) {
    Objects.requireNonNull(limits, "limits");
    io.ankusa.store.queue.internal.dispatch.TenantLimits.set(
        queue,
        TenantId.of(tenant),
        new TenantLimitsValue(limits.weight(), limits.maxInflight(), limits.rowsPerTick()));
  }

  /** {@code tenant}'s deliveries, from its counters (all zero for a tenant never seen). */
  public TenantStats stats(String tenant) {
    OptionalLong ord = Tenants.ord(queue.store(), TenantId.of(tenant));
    if (ord.isEmpty()) {
      return new TenantStats(0, 0, 0, 0, 0);
    }
    TenantCounts c = queue.counters().read(queue.store(), ord.getAsLong());
    return new TenantStats(c.pending(), c.scheduled(), c.inflight(), c.dead(), c.bytes());
  }

  /**
   * Purges every due and dead delivery of {@code tenant} (in flight ones are left to finish);
   * returns how many went. Durable when it returns.
   */
  public long purge(String tenant) {
    return Purge.purgeTenant(
        queue, TenantId.of(tenant), EnumSet.of(Purge.Kind.DUE, Purge.Kind.DEAD));
  }

  /**
   * Erases {@code tenant}: its ordinal, counters, limits and idempotency keys go (a returning
   * tenant of the same id starts afresh, under a new ordinal). Runs on the queue's writer thread
   * between two groups, so no hook of the tenant is being ingested meanwhile. Returns false for a
   * tenant never seen (or erased).
   *
   * @throws io.ankusa.store.spi.StoreArgumentException if the tenant still has deliveries: {@link
   *     #purge} it first and let its in-flight deliveries be answered
   */
  public boolean erase(String tenant) {
    TenantId id = TenantId.of(tenant);
    try {
      return writer.onWriterThread(() -> TenantErase.erase(queue, id)).get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new StoreException(
          "erasing tenant '" + id.value() + "' failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(
          "interrupted while erasing tenant '" + id.value() + "'; it may or may not be erased", e);
    }
  }
}
