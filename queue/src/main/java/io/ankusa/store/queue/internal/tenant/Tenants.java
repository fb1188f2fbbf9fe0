package io.ankusa.store.queue.internal.tenant;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.spi.ReadView;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads of the tenant directory: {@code 'n' tenant -> ord} and {@code 't' ord -> tenant} in the
 * tenants family, and {@code m:next_ord}. Point reads only, never a scan: a tenant with no {@code
 * 'n'} row has no rows anywhere, so a scoped read of it is empty without looking. Ordinals are
 * created only by {@link TenantAllocator} (the writer's, and the migration's), retired only by
 * {@link io.ankusa.store.queue.internal.maintenance.TenantErase#retireOrdinal} (a tombstone), and
 * never reused.
 */
public final class Tenants {
  private Tenants() {}

  /**
   * The ordinal of {@code tenant}, or empty when it has none: it was never seen, or its ordinal was
   * retired (an erase, or a fence that rolled back the group that created it).
   */
  public static OptionalLong ord(ReadView view, TenantId tenant) {
    byte[] key = Keys.ordByTenant(tenant);
    byte[] v = view.get(Format3.TENANTS, key);
    return v == null ? OptionalLong.empty() : OptionalLong.of(OrdinalValue.decodeAt(key, v).ord());
  }

  /** The tenant of ordinal {@code ord}, or empty when unassigned or retired (a tombstone). */
  public static Optional<TenantId> name(ReadView view, long ord) {
    byte[] key = Keys.tenantByOrd(ord);
    byte[] v = view.get(Format3.TENANTS, key);
    return v == null ? Optional.empty() : nameIn(key, v);
  }

  /**
   * The tenant the {@code 't'} row {@code row} (read at {@code key}) names; empty when it is the
   * tombstone of an erased tenant. For a caller that read the row itself.
   */
  public static Optional<TenantId> nameIn(byte[] key, byte[] row) {
    TenantByOrdValue value = TenantByOrdValue.decodeAt(key, row);
    return value.isErased() ? Optional.empty() : Optional.of(value.tenant());
  }

  /** The next ordinal to assign (1 on a new store). */
  public static long nextOrdinal(ReadView view) {
    byte[] key = Keys.nextOrd();
    byte[] v = view.get(Format3.DEFAULT, key);
    return v == null ? NextOrdinalValue.FIRST.next() : NextOrdinalValue.decodeAt(key, v).next();
  }

  /**
   * How many ordinals were ever assigned, retired ones (tombstones) included: {@code next_ord - 1}.
   * What {@code tenants.max} limits.
   */
  public static long count(ReadView view) {
    return nextOrdinal(view) - 1;
  }
}
