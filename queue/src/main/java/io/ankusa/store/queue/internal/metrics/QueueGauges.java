package io.ankusa.store.queue.internal.metrics;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The queue's state numbers, read from counters — never from a fold of the rows, so a gauge tick
 * costs the same at 10³ and 10⁶ queued rows (docs/delivery.md, 'Gauges').
 */
public final class QueueGauges {
  /** How many distinct tenants, in marker order, {@link #topTenantsByPending} considers. */
  public static final int TOP_TENANT_WINDOW = 10_000;

  private final DeliveryQueue queue;

  public QueueGauges(DeliveryQueue queue) {
    this.queue = queue;
  }

  /**
   * One gauge tick: one multiGet of the node aggregate's six counters, the first marker (verified
   * against its tenant's first due row, read from the queue's dispatch cursor for that tenant) for
   * the oldest due age, and {@code m:next_ord}.
   */
  public Gauge measure(long now) {
    ReadView view = queue.store();
    TenantCounts aggregate = queue.counters().aggregate(view);
    long oldest =
        ActiveIndex.oldestDueAgeMs(view, queue.markerFloor().peek(), now, queue.dueCursors()::peek);
    return new Gauge(aggregate, oldest, Tenants.count(view));
  }

  /**
   * The {@code n} tenants with the most pending rows (due rows of kind 0: first attempts, replayed,
   * recovered) among the first {@value #TOP_TENANT_WINDOW} distinct tenants with a marker due by
   * {@code now}, in marker order: one scan of the markers up to now's second — never the future
   * buckets of retries scheduled for later — and one multiGet of their {@code pending} counters.
   * Tenants with no pending row are left out; ties go to the lower ordinal.
   */
  public List<TenantPending> topTenantsByPending(int n, long now) {
    ReadView view = queue.store();
    Set<Long> ords = new LinkedHashSet<>();
    KeyRange range = Keys.activeBetween(queue.markerFloor().peek(), ActiveKey.bucketOf(now));
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (ords.size() < TOP_TENANT_WINDOW && scan.hasNext()) {
        ords.add(ActiveKey.decode(scan.next().key()).ord());
      }
    }
    List<byte[]> keys = new ArrayList<>(ords.size());
    for (long ord : ords) {
      keys.add(Keys.counter(ord, CounterField.PENDING));
    }
    List<byte[]> values = keys.isEmpty() ? List.of() : view.multiGet(Format3.COUNTERS, keys);
    List<TenantPending> all = new ArrayList<>(ords.size());
    int i = 0;
    for (long ord : ords) {
      long pending = value(keys.get(i), values.get(i));
      i++;
      if (pending > 0) {
        all.add(new TenantPending(ord, null, pending));
      }
    }
    all.sort(
        Comparator.comparingLong(TenantPending::pending)
            .reversed()
            .thenComparingLong(TenantPending::ord));
    List<TenantPending> top = new ArrayList<>(Math.min(n, all.size()));
    for (TenantPending p : all.subList(0, Math.min(n, all.size()))) {
      top.add(new TenantPending(p.ord(), Tenants.name(view, p.ord()).orElse(null), p.pending()));
    }
    return top;
  }

  private static long value(byte[] key, byte[] v) {
    return v == null ? 0 : Int64Add.decode(Format3.COUNTERS, key, v);
  }

  /**
   * One gauge tick's numbers.
   *
   * @param aggregate the node's six counters
   * @param oldestDueAgeMs age of the oldest due row, 0 when none is due
   * @param tenants tenants ever created
   */
  public record Gauge(TenantCounts aggregate, long oldestDueAgeMs, long tenants) {}

  /** A tenant and its pending rows; {@code tenant} null if erased. */
  public record TenantPending(long ord, TenantId tenant, long pending) {}
}
