package io.ankusa.store.queue;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One round of dispatch: find the active tenants, claim their due rows, clean their markers.
 *
 * <p>Claim order across tenants is oldest second first (marker order), each tenant's rows in {@code
 * at} order, until the tick's row limit or byte budget is spent. Only rows with {@code seq <=
 * visibleSeq} are claimed (the writer's durable watermark): nothing is dispatched before it is
 * durable. Claims are written {@code NO_SYNC}: a claim lost in a crash leaves the row due, and
 * {@link InflightRecovery} makes claims that survived due again at boot (at-least-once delivery).
 *
 * <p>Thread-safe beside every other transition, another dispatcher included: each tenant's due rows
 * are scanned and claimed while the tick holds the tenant's {@link TransitionGuard} stripe, so no
 * other transition of the tenant moves a row in between, and a second dispatcher scans only after the
 * first's claims are written.
 */
public final class Dispatcher {
  private final DeliveryQueue queue;
  private final LongSupplier visibleSeq;
  private final int rowLimit;
  private final long byteBudget;

  /**
   * @param visibleSeq the durable watermark; rows above it are not claimed
   * @param rowLimit most rows claimed per tick
   * @param byteBudget most bytes claimed per tick (a tenant's first row is claimed even if larger)
   */
  public Dispatcher(DeliveryQueue queue, LongSupplier visibleSeq, int rowLimit, long byteBudget) {
    this.queue = queue;
    this.visibleSeq = visibleSeq;
    this.rowLimit = rowLimit;
    this.byteBudget = byteBudget;
  }

  /** One tick at time {@code now} (epoch ms). */
  public TickReport tick(long now) {
    Map<Long, List<Long>> bucketsByTenant = new LinkedHashMap<>();
    for (ActiveKey marker : ActiveIndex.activeTenants(queue.store(), now, ActiveIndex.DEFAULT_LIMIT)) {
      bucketsByTenant.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
    }
    long watermark = visibleSeq.getAsLong();
    List<InflightRow> claimed = new ArrayList<>();
    long bytes = 0;
    int visited = 0;
    int markersDeleted = 0;
    for (Map.Entry<Long, List<Long>> tenant : bucketsByTenant.entrySet()) {
      if (claimed.size() >= rowLimit || bytes >= byteBudget) {
        break;
      }
      long ord = tenant.getKey();
      visited++;
      // The scan and the claims under the tenant's stripe: no other transition of the tenant moves
      // a row in between, so the claims need no re-check (the re-check would double the reads).
      try (TransitionGuard.Held held = queue.guard().lockTenant(ord)) {
        List<DueRow> due = DueIndex.dueForTenant(
            queue.store(), ord, now, 0, rowLimit - claimed.size(), byteBudget - bytes, watermark);
        if (!due.isEmpty()) {
          Transition t = new Transition().readUnderStripes(true);
          List<InflightRow> rows = new ArrayList<>(due.size());
          for (DueRow row : due) {
            rows.add(Deliveries.claim(t, row));
            bytes += row.value().size();
          }
          queue.write(t, Durability.NO_SYNC);
          claimed.addAll(rows);
        }
      }
      markersDeleted += ActiveIndex.cleanup(queue.store(), ord, tenant.getValue(), now);
    }
    return new TickReport(bucketsByTenant.size(), visited, claimed, markersDeleted);
  }

  /**
   * What a tick did.
   *
   * @param activeTenants distinct tenants with markers due now (up to the marker limit)
   * @param tenantsVisited tenants whose due rows were scanned
   * @param claimed the rows claimed, now inflight, in claim order
   * @param markersDeleted stale markers removed by cleanup
   */
  public record TickReport(int activeTenants, int tenantsVisited, List<InflightRow> claimed, int markersDeleted) {
    public int rowsClaimed() {
      return claimed.size();
    }
  }
}
