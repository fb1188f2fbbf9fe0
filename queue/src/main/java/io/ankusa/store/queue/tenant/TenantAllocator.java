package io.ankusa.store.queue.tenant;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.ReadView;
import java.util.ArrayList;
import java.util.Collection;
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
 * ordinals; {@link Allocation#committed()} is called once that batch's write returned, and only then
 * are ordinals cached.
 *
 * <p>The next ordinal is read from the store ({@code m:next_ord}) by each batch that creates a tenant,
 * never kept in memory: another allocator that ran on the same store in between (a second queue's,
 * a fence repair's) has moved it, and a remembered one would hand out its ordinals again. Tenants
 * already known cost nothing: cached, or one multiGet of their {@code 'n'} rows.
 */
public final class TenantAllocator {
  private final OrdinalCache cache;
  private final long tenantsMax;

  public TenantAllocator(OrdinalCache cache, long tenantsMax) {
    this.cache = cache;
    this.tenantsMax = tenantsMax;
  }

  /**
   * Resolves {@code tenants} (in first-sight order; duplicates ignored): cached ones from the cache,
   * the rest with one multiGet of their {@code 'n'} rows, and the missing ones get new ordinals.
   */
  public Allocation resolve(ReadView view, Collection<TenantId> tenants) {
    Set<TenantId> distinct = new LinkedHashSet<>(tenants);
    Map<TenantId, Long> ords = new LinkedHashMap<>();
    List<TenantId> uncached = new ArrayList<>();
    for (TenantId t : distinct) {
      Long cached = cache.get(t);
      if (cached != null) {
        ords.put(t, cached);
      } else {
        uncached.add(t);
      }
    }
    Map<TenantId, Long> found = new LinkedHashMap<>();
    Map<TenantId, Long> created = new LinkedHashMap<>();
    Set<TenantId> refused = new LinkedHashSet<>();
    long nextAfter = 0;
    if (!uncached.isEmpty()) {
      List<byte[]> keys = new ArrayList<>(uncached.size());
      uncached.forEach(t -> keys.add(Keys.ordByTenant(t)));
      List<byte[]> values = view.multiGet(Format3.TENANTS, keys);
      for (int i = 0; i < uncached.size(); i++) {
        TenantId t = uncached.get(i);
        byte[] v = values.get(i);
        if (v != null) {
          found.put(t, OrdinalValue.decodeAt(keys.get(i), v).ord());
          continue;
        }
        if (nextAfter == 0) {
          nextAfter = Tenants.nextOrdinal(view);
        }
        if (nextAfter > tenantsMax) {
          refused.add(t);
        } else {
          created.put(t, nextAfter++);
        }
      }
    }
    // Keep first-sight order in the result.
    Map<TenantId, Long> all = new LinkedHashMap<>();
    for (TenantId t : distinct) {
      Long ord = ords.containsKey(t) ? ords.get(t) : found.containsKey(t) ? found.get(t) : created.get(t);
      if (ord != null) {
        all.put(t, ord);
      }
    }
    return new Allocation(all, found, created, refused, nextAfter);
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

    private Allocation(Map<TenantId, Long> ords, Map<TenantId, Long> found, Map<TenantId, Long> created,
        Set<TenantId> refused, long nextAfter) {
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

    /** The ordinal puts ({@code 't'}, {@code 'n'}, {@code m:next_ord}); nothing when none is new. */
    public void appendTo(Batch batch) {
      if (created.isEmpty()) {
        return;
      }
      created.forEach((t, ord) -> {
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
