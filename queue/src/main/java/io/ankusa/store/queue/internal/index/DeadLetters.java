package io.ankusa.store.queue.internal.index;

import io.ankusa.store.layout.DeadByTenantKey;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Reads of the dead-letter queue: the global time index {@code 'x'} (newest first across the node)
 * and the per-tenant index {@code 'X'}. The tenant comes from the key or the {@code 'x'} value,
 * never from a hook read.
 */
public final class DeadLetters {
  private DeadLetters() {}

  /**
   * A page of dead rows, newest first, starting below {@code before} (an exclusive cursor from the
   * previous page's {@link DeadPage#next()}, or null for the newest), optionally only {@code
   * tenant}'s (resolved through its ordinal: an unknown tenant has an empty page without a scan).
   */
  public static DeadPage deadPage(ReadView view, byte[] before, int limit, TenantId tenant) {
    if (tenant == null) {
      KeyRange all = Keys.realKeysOf(KeyFamily.DEAD);
      byte[] hi = before == null ? all.hi() : before;
      List<DeadRow> rows = new ArrayList<>();
      byte[] last = null;
      try (Scan scan = view.scan(Format3.INDEX, all.lo(), hi, Direction.REVERSE)) {
        while (rows.size() < limit && scan.hasNext()) {
          Entry e = scan.next();
          rows.add(new DeadRow(DeadKey.decode(e.key()), DeadValue.decodeAt(e.key(), e.value())));
          last = e.key();
        }
      }
      return new DeadPage(rows, rows.size() == limit ? last : null);
    }
    OptionalLong ord = Tenants.ord(view, tenant);
    if (ord.isEmpty()) {
      return new DeadPage(List.of(), null);
    }
    KeyRange range = Keys.deadByTenantOf(ord.getAsLong());
    byte[] hi = before == null ? range.hi() : before;
    List<byte[]> deadKeys = new ArrayList<>();
    byte[] last = null;
    try (Scan scan = view.scan(Format3.INDEX, range.lo(), hi, Direction.REVERSE)) {
      while (deadKeys.size() < limit && scan.hasNext()) {
        Entry e = scan.next();
        DeadByTenantKey k = DeadByTenantKey.decode(e.key());
        deadKeys.add(Keys.dead(k.at(), k.seq(), k.sink()));
        last = e.key();
      }
    }
    List<byte[]> values = view.multiGet(Format3.INDEX, deadKeys);
    List<DeadRow> rows = new ArrayList<>(deadKeys.size());
    for (int i = 0; i < deadKeys.size(); i++) {
      byte[] v = values.get(i);
      if (v == null) {
        throw new StoreCorruptionException(
            "dead-by-tenant key without its 'x' row: index key "
                + Bytes.hex(deadKeys.get(i))
                + " is missing; run ankusa-store verify");
      }
      rows.add(
          new DeadRow(DeadKey.decode(deadKeys.get(i)), DeadValue.decodeAt(deadKeys.get(i), v)));
    }
    return new DeadPage(rows, rows.size() == limit ? last : null);
  }

  /** Tenant {@code ord}'s dead rows through {@code 'X'}, oldest first, up to {@code limit}. */
  public static List<DeadByTenantKey> deadForTenant(ReadView view, long ord, int limit) {
    KeyRange range = Keys.deadByTenantOf(ord);
    List<DeadByTenantKey> out = new ArrayList<>();
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (out.size() < limit && scan.hasNext()) {
        out.add(DeadByTenantKey.decode(scan.next().key()));
      }
    }
    return out;
  }

  /**
   * One page of the DLQ.
   *
   * @param rows newest first
   * @param next the cursor for the next page, or null when this was the last
   */
  public record DeadPage(List<DeadRow> rows, byte[] next) {}
}
