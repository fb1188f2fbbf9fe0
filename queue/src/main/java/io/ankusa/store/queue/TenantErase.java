package io.ankusa.store.queue;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.OptionalLong;

/**
 * Erasing a tenant that has no rows left: its {@code 'n'} row and counters go, its dedupe keys go,
 * and its {@code 't'} row stays as a tombstone (an empty value), so the ordinal is never handed out
 * again — a straggling row can never be attributed to another tenant. If the same tenant id comes
 * back it gets a new ordinal. The erase job proper (purging a live tenant's rows first) is TEN-5's;
 * this is its last step.
 *
 * <p>REQUIRES: no writer is running on the queue (the writer caches ordinals; the cache is cleared
 * here). Counter rows are deleted only here, never by a sweep: a delete racing a merge would drop
 * the merge, and with no rows and no writer nothing merges into them.
 */
public final class TenantErase {
  private TenantErase() {}

  /**
   * Erases {@code tenant}; returns false when it has no ordinal (never seen, or already erased).
   *
   * @throws StoreArgumentException if the tenant still has due, inflight or dead rows or archive
   *     obligations: purge them first ({@link Purge#purgeTenant}) and let inflight rows settle
   */
  public static boolean erase(DeliveryQueue queue, TenantId tenant) {
    OptionalLong found = Tenants.ord(queue.store(), tenant);
    if (found.isEmpty()) {
      return false;
    }
    long ord = found.getAsLong();
    TenantCounts counts = queue.counters().read(queue.store(), ord);
    long rows = counts.pending() + counts.scheduled() + counts.inflight() + counts.dead() + counts.archivePending();
    if (rows != 0) {
      throw new StoreArgumentException("tenant '" + tenant.value() + "' (ord " + ord + ") still has " + rows
          + " rows (" + counts + "); purge its due and dead rows first (Purge.purgeTenant) and let inflight"
          + " rows settle, then erase it");
    }
    KeyRange dedupe = Keys.dedupeOf(tenant);
    Batch batch = new Batch();
    retireOrdinal(batch, tenant, ord);
    batch.deleteRange(dedupe.columnFamily(), dedupe.lo(), dedupe.hi());
    queue.store().write(batch, Durability.SYNC);
    queue.allocator().reset();
    return true;
  }

  /**
   * Appends the ops that retire ordinal {@code ord} of {@code tenant}: the {@code 'n'} row goes, the
   * {@code 't'} row becomes a tombstone (put even if it was never written, so ordinals stay dense),
   * and the ordinal's counter rows go. The ordinal stays allocated: {@code m:next_ord} never moves
   * back, and the tombstone counts toward {@code tenants.max}. Used by {@link #erase} and by the
   * writer's fence repair for ordinals created by groups that were never acknowledged.
   *
   * <p>REQUIRES: nothing merges into the ordinal's counters any more (its rows are gone, or are
   * deleted in the same batch before these ops).
   */
  static void retireOrdinal(Batch batch, TenantId tenant, long ord) {
    KeyRange counters = Keys.countersOf(ord);
    batch.delete(Format3.TENANTS, Keys.ordByTenant(tenant))
        .put(Format3.TENANTS, Keys.tenantByOrd(ord), TenantByOrdValue.ERASED.encode())
        .deleteRange(counters.columnFamily(), counters.lo(), counters.hi());
  }
}
