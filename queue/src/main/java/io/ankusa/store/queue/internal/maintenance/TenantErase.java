package io.ankusa.store.queue.internal.maintenance;

import io.ankusa.store.layout.ExpiryKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.TenantLimits;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Erasing a tenant that has no rows left: its {@code 'n'} row and counters go, all its dedupe state
 * goes (the {@code 'u'} keys and their {@code 'e'} expiry keys, so a returning tenant dedupes
 * afresh), and its {@code 't'} row stays as a tombstone (an empty value), so the ordinal is never
 * handed out again — a straggling row can never be attributed to another tenant. If the same tenant
 * id comes back it gets a new ordinal. The full erase job (purge a live tenant's rows first) is
 * later work; this is its last step.
 *
 * <p>REQUIRES: no writer is running on the queue (the writer caches ordinals; the cache is cleared
 * here). Counter rows are deleted only here, never by a sweep: a delete racing a merge would drop
 * the merge, and with no rows and no writer nothing merges into them.
 */
public final class TenantErase {
  /** Expiry keys deleted per batch. */
  static final int EXPIRY_CHUNK = 500;

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
    long rows =
        counts.pending()
            + counts.scheduled()
            + counts.inflight()
            + counts.dead()
            + counts.archivePending();
    if (rows != 0) {
      throw new StoreArgumentException(
          "tenant '"
              + tenant.value()
              + "' (ord "
              + ord
              + ") still has "
              + rows
              + " rows ("
              + counts
              + "); purge its due and dead rows first (Purge.purgeTenant) and let inflight"
              + " rows settle, then erase it");
    }
    deleteExpiryKeys(queue.store(), tenant);
    KeyRange dedupe = Keys.dedupeOf(tenant);
    Batch batch = new Batch();
    retireOrdinal(batch, tenant, ord);
    batch.deleteRange(dedupe.columnFamily(), dedupe.lo(), dedupe.hi());
    queue.store().write(batch, Durability.SYNC);
    queue.allocator().reset();
    return true;
  }

  /**
   * Deletes every {@code 'e'} expiry key of {@code tenant}, in {@code NO_SYNC} batches of {@value
   * #EXPIRY_CHUNK} (the erase's final SYNC batch makes them durable). Left behind, an old expiry
   * key would sweep the dedupe key of the same idempotency key when the tenant comes back within
   * the TTL, and a retry would be stored twice. Expiry keys are ordered by time, not by tenant, so
   * this scans every expiry key in the store once: the cost of an erase grows with the idempotency
   * keys the whole node remembers.
   */
  private static void deleteExpiryKeys(Store store, TenantId tenant) {
    KeyRange expiry = Keys.realKeysOf(KeyFamily.EXPIRY);
    List<byte[]> keys = new ArrayList<>();
    try (Scan scan =
        store.scan(expiry.columnFamily(), expiry.lo(), expiry.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        byte[] key = scan.next().key();
        if (ExpiryKey.decode(key).tenant().equals(tenant)) {
          keys.add(key);
        }
      }
    }
    for (int from = 0; from < keys.size(); from += EXPIRY_CHUNK) {
      Batch batch = new Batch();
      keys.subList(from, Math.min(keys.size(), from + EXPIRY_CHUNK))
          .forEach(k -> batch.delete(expiry.columnFamily(), k));
      store.write(batch, Durability.NO_SYNC);
    }
  }

  /**
   * Appends the ops that retire ordinal {@code ord} of {@code tenant}: the {@code 'n'} row goes,
   * the {@code 't'} row becomes a tombstone (put even if it was never written, so ordinals stay
   * dense), and the ordinal's counter rows and dispatch limits go. The ordinal stays allocated:
   * {@code m:next_ord} never moves back, and the tombstone counts toward {@code tenants.max}. Used
   * by {@link #erase} and by the writer's fence repair for ordinals created by groups that were
   * never acknowledged.
   *
   * <p>REQUIRES: nothing merges into the ordinal's counters any more (its rows are gone, or are
   * deleted in the same batch before these ops).
   */
  public static void retireOrdinal(Batch batch, TenantId tenant, long ord) {
    KeyRange counters = Keys.countersOf(ord);
    batch
        .delete(Format3.TENANTS, Keys.ordByTenant(tenant))
        .put(Format3.TENANTS, Keys.tenantByOrd(ord), TenantByOrdValue.ERASED.encode())
        .deleteRange(counters.columnFamily(), counters.lo(), counters.hi());
    TenantLimits.deleteIn(batch, ord);
  }
}
