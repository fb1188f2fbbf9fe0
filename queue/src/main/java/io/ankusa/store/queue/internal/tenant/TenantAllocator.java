package io.ankusa.store.queue.internal.tenant;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.OrdByTenantKey;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves the tenants of one batch to ordinals and allocates the missing ones: 1, 2, 3 … in
 * first-sight order, never reused, refusing a new tenant beyond {@code tenants.max} and never an
 * existing one (docs/storage.md, 'Ordinals').
 *
 * <p>Single-threaded by design: only the writer (and the migration, which runs before anything
 * serves) allocates, so there is no race to create one tenant twice. An {@link Allocation}'s {@code
 * 't'}, {@code 'n'} and {@code m:next_ord} puts go into the same batch as the rows that use the new
 * ordinals; {@link Allocation#committed()} is called once that batch's write returned, and only
 * then are ordinals cached.
 *
 * <p>The next ordinal is read from the store ({@code m:next_ord}) by each batch that creates a
 * tenant, never kept in memory: another allocator that ran on the same store in between (a second
 * queue's, a fence repair's) has moved it, and a remembered one would hand out its ordinals again.
 * Tenants already known cost nothing: cached, or one multiGet of their {@code 'n'} rows.
 */
public final class TenantAllocator {
  private final OrdinalCache cache;
  private final long tenantsMax;

  public TenantAllocator(OrdinalCache cache, long tenantsMax) {
    this.cache = cache;
    this.tenantsMax = tenantsMax;
  }

  /**
   * Resolves {@code tenants} (in first-sight order; duplicates ignored): cached ones from the
   * cache, the rest with one multiGet of their {@code 'n'} rows, and the missing ones get new
   * ordinals.
   */
  public Allocation resolve(ReadView view, Collection<TenantId> tenants) {
    // The writer resolves every group: when every tenant is cached (the common case once they are
    // known), this is one cache lookup and one put per request and nothing else; the map is sized
    // for
    // every request naming a different tenant, so it never grows while it fills.
    Map<TenantId, Long> ords = new HashMap<>(tenants.size() * 4 / 3 + 1);
    Set<TenantId> uncached = null;
    for (TenantId t : tenants) {
      Long cached = cache.get(t);
      if (cached != null) {
        ords.put(t, cached); // a tenant named again puts the same ordinal again
      } else if (!ords.containsKey(t)) {
        if (uncached == null) {
          uncached = new LinkedHashSet<>();
        }
        uncached.add(t);
      }
    }
    if (uncached == null) {
      return new Allocation(ords, Map.of(), Map.of(), Set.of(), 0);
    }
    Map<TenantId, Long> found = new LinkedHashMap<>();
    Map<TenantId, Long> created = new LinkedHashMap<>();
    Set<TenantId> refused = new LinkedHashSet<>();
    long nextAfter = 0;
    List<TenantId> missing = new ArrayList<>(uncached);
    List<byte[]> keys = new ArrayList<>(missing.size());
    missing.forEach(t -> keys.add(Keys.ordByTenant(t)));
    List<byte[]> values = view.multiGet(Format3.TENANTS, keys);
    // In first-sight order, so new ordinals go to tenants in the order the batch names them.
    for (int i = 0; i < missing.size(); i++) {
      TenantId t = missing.get(i);
      byte[] v = values.get(i);
      if (v != null) {
        long ord = OrdinalValue.decodeAt(keys.get(i), v).ord();
        found.put(t, ord);
        ords.put(t, ord);
        continue;
      }
      if (nextAfter == 0) {
        nextAfter = Tenants.nextOrdinal(view);
      }
      if (nextAfter > tenantsMax) {
        refused.add(t);
      } else {
        ords.put(t, nextAfter);
        created.put(t, nextAfter++);
      }
    }
    return new Allocation(ords, found, created, refused, nextAfter);
  }

  /**
   * Caches the ordinals of the first tenants in key order, as many as the cache has room for, read
   * with one scan of the {@code 'n'} rows: a writer started on a store that already knows its
   * tenants (a restart) then finds them cached, where each one's first group would read its row on
   * the writer's thread. Only committed rows are read, so every ordinal cached is committed.
   * REQUIRES: no erase runs meanwhile (the rule {@link
   * io.ankusa.store.queue.internal.maintenance.TenantErase} already states for a running writer).
   *
   * @return how many ordinals were read into the cache
   * @throws io.ankusa.store.spi.StoreCorruptionException if an {@code 'n'} row does not decode; the
   *     ordinals read before it stay cached
   */
  public int warm(ReadView view) {
    KeyRange rows = Keys.family(KeyFamily.ORD_BY_TENANT).realKeys();
    int room = cache.capacity() - cache.size();
    int read = 0;
    try (Scan scan = view.scan(rows.columnFamily(), rows.lo(), rows.hi(), Direction.FORWARD)) {
      while (read < room && scan.hasNext()) {
        Entry e = scan.next();
        cache.put(
            OrdByTenantKey.decode(e.key()).tenantId(),
            OrdinalValue.decodeAt(e.key(), e.value()).ord());
        read++;
      }
    }
    return read;
  }

  /** Forgets the cache: the tenants' ordinals are read from the store again next time. */
  public void reset() {
    cache.clear();
  }

  /** The tenants of one batch, resolved. */
  public final class Allocation {
    private final Map<TenantId, Long> ords;
    private final Map<TenantId, Long> found;
    private final Map<TenantId, Long> created;
    private final Set<TenantId> refused;
    private final long nextAfter;

    private Allocation(
        Map<TenantId, Long> ords,
        Map<TenantId, Long> found,
        Map<TenantId, Long> created,
        Set<TenantId> refused,
        long nextAfter) {
      this.ords = ords;
      this.found = found;
      this.created = created;
      this.refused = refused;
      this.nextAfter = nextAfter;
    }

    /** The ordinal of {@code tenant}; null when it was refused. */
    public Long ord(TenantId tenant) {
      return ords.get(tenant);
    }

    /** Tenants refused because they would exceed {@code tenants.max}. */
    public Set<TenantId> refused() {
      return refused;
    }

    /** Tenants this allocation creates, with their new ordinals, in first-sight order. */
    public Map<TenantId, Long> created() {
      return created;
    }

    /**
     * The ordinal puts ({@code 't'}, {@code 'n'}, {@code m:next_ord}); nothing when none is new.
     */
    public void appendTo(Batch batch) {
      if (created.isEmpty()) {
        return;
      }
      created.forEach(
          (t, ord) -> {
            batch.put(Format3.TENANTS, Keys.tenantByOrd(ord), TenantByOrdValue.of(t).encode());
            batch.put(Format3.TENANTS, Keys.ordByTenant(t), new OrdinalValue(ord).encode());
          });
      batch.put(Format3.DEFAULT, Keys.nextOrd(), new NextOrdinalValue(nextAfter).encode());
    }

    /** The batch carrying this allocation was written: cache the ordinals. */
    public void committed() {
      found.forEach(cache::put);
      created.forEach(cache::put);
    }
  }
}
