package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.DispatchConformance.Backlog;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.TenantLimits;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The backlogs the dispatch layer's cases ingest ({@link DispatchConformance}, {@link
 * TickWriteCases}), the clock their ticks run at, and how they read and settle what a tick claimed.
 */
final class DispatchBacklogs {
  private DispatchBacklogs() {}

  /** The clock of the dispatch cases' ticks: an hour after the first hook they ingest. */
  static final long NOW = QueueDriver.START_MS + 3_600_000;

  /**
   * Tenants {@code t0 … t(n-1)} with {@code rows} rows of {@code payload} bytes each, ingested in
   * that order (so their ordinals ascend) but tenant i's rows received in second {@code n - 1 - i}:
   * the last tenant's rows are the oldest. Returns each ordinal's name.
   */
  static Map<Long, String> ingestNewestFirst(
      DeliveryQueue queue, int tenants, int rows, int payload) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      for (int r = 0; r < rows; r++) {
        hooks.add(
            new HookEnvelope(
                0,
                "t" + i,
                "src",
                "h-" + i + "-" + r,
                null,
                QueueDriver.START_MS + (tenants - 1 - i) * 1_000L + r,
                List.of(1),
                new byte[payload]));
      }
    }
    new DirectIngest(queue).ingest(hooks);
    Map<Long, String> names = new HashMap<>();
    long previous = 0;
    for (int i = 0; i < tenants; i++) {
      long ord = Tenants.ord(queue.store(), TenantId.of("t" + i)).getAsLong();
      assertThat(ord).as("ordinal of t%d, ingested after t%d", i, i - 1).isGreaterThan(previous);
      previous = ord;
      names.put(ord, "t" + i);
    }
    return names;
  }

  /** The claims as runs of one tenant: {@code "t0×4 t1×2"}. */
  static String runs(List<InflightRow> claimed, Map<Long, String> names) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < claimed.size()) {
      long ord = claimed.get(i).key().ord();
      int j = i;
      while (j < claimed.size() && claimed.get(j).key().ord() == ord) {
        j++;
      }
      sb.append(sb.length() == 0 ? "" : " ").append(names.get(ord)).append('×').append(j - i);
      i = j;
    }
    return sb.toString();
  }

  static boolean inRange(byte[] key, byte[] lo, byte[] hi) {
    return Arrays.compareUnsigned(key, lo) >= 0
        && (hi == null || Arrays.compareUnsigned(key, hi) < 0);
  }

  /**
   * Tenants {@code t0, t1, …}: tenant i's rows received in second i of the clock; returns their
   * ordinals.
   */
  static List<Long> ingestBacklogs(DeliveryQueue queue, List<Backlog> tenants) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < tenants.size(); i++) {
      List<Integer> payloads = tenants.get(i).payloads();
      for (int r = 0; r < payloads.size(); r++) {
        hooks.add(
            new HookEnvelope(
                0,
                "t" + i,
                "src",
                "h-" + i + "-" + r,
                null,
                QueueDriver.START_MS + i * 1_000L + r,
                List.of(1),
                new byte[payloads.get(r)]));
      }
    }
    new DirectIngest(queue).ingest(hooks);
    List<Long> ords = new ArrayList<>();
    for (int i = 0; i < tenants.size(); i++) {
      long ord = Tenants.ord(queue.store(), TenantId.of("t" + i)).getAsLong();
      ords.add(ord);
      if (tenants.get(i).weight() != 1) {
        TenantLimits.set(queue, ord, new TenantLimitsValue(tenants.get(i).weight(), 0, 0));
      }
    }
    return ords;
  }

  static long countOf(List<InflightRow> rows, long ord) {
    return rows.stream().filter(r -> r.key().ord() == ord).count();
  }

  static void deliver(DeliveryQueue queue, InflightRow row) {
    Transition t = new Transition();
    Deliveries.delivered(t, row);
    queue.write(t, Durability.SYNC);
  }
}
