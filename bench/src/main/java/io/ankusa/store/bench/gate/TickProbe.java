package io.ankusa.store.bench.gate;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.queue.ActiveIndex;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.DueIndex;
import io.ankusa.store.queue.DueRow;
import io.ankusa.store.queue.QueueGauges;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One tick a gate measures: what it runs, and the name of the bench that gates it. */
public sealed interface TickProbe permits TickProbe.GaugeTick, TickProbe.DispatchTick {

  /** The bench's name in results and charts ({@code gauges_bench}, {@code dispatch_tick_bench}). */
  String bench();

  /** What the tick does, in a phrase for the report. */
  String describe();

  /**
   * Runs one tick at wall-clock time {@code now} and returns a number derived from what it read (so
   * the JIT cannot drop the work).
   */
  long tick(DeliveryQueue queue, long now);

  /** The gauge tick: {@code new QueueGauges(queue).measure(now)} — six counter reads and the first marker. */
  record GaugeTick() implements TickProbe {
    @Override
    public String bench() {
      return "gauges_bench";
    }

    @Override
    public String describe() {
      return "new QueueGauges(queue).measure(now): one multiGet of ord 0's six counters, the first marker"
          + " verified against its tenant's first due row, m:next_ord";
    }

    @Override
    public long tick(DeliveryQueue queue, long now) {
      QueueGauges.Gauge g = new QueueGauges(queue).measure(now);
      return g.aggregate().due() + g.oldestDueAgeMs() + g.tenants();
    }
  }

  /**
   * The read side of a dispatch tick, as {@code Dispatcher.tick} does it but without claiming (so the
   * rows never run out): {@code ActiveIndex.activeTenants(now, 4096)}, then {@code
   * DueIndex.dueForTenant} for each distinct tenant in marker order until {@code rowLimit} rows or
   * {@code byteBudget} bytes.
   *
   * @param rowLimit most rows one tick reads
   * @param byteBudget most bytes one tick reads
   */
  record DispatchTick(int rowLimit, long byteBudget) implements TickProbe {
    /** A tick of 256 rows or 4 MiB. */
    public static final DispatchTick DEFAULT = new DispatchTick(256, 4L << 20);

    @Override
    public String bench() {
      return "dispatch_tick_bench";
    }

    @Override
    public String describe() {
      return "ActiveIndex.activeTenants(now, " + ActiveIndex.DEFAULT_LIMIT + ") + DueIndex.dueForTenant for each"
          + " active tenant, up to " + rowLimit + " rows (read-only: nothing is claimed)";
    }

    @Override
    public long tick(DeliveryQueue queue, long now) {
      Map<Long, List<Long>> bucketsByTenant = new LinkedHashMap<>();
      for (ActiveKey marker : ActiveIndex.activeTenants(queue.store(), now, ActiveIndex.DEFAULT_LIMIT)) {
        bucketsByTenant.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
      }
      int rows = 0;
      long bytes = 0;
      long sum = 0;
      for (long ord : bucketsByTenant.keySet()) {
        if (rows >= rowLimit || bytes >= byteBudget) {
          break;
        }
        for (DueRow row : DueIndex.dueForTenant(
            queue.store(), ord, now, 0, rowLimit - rows, byteBudget - bytes, Long.MAX_VALUE)) {
          rows++;
          bytes += row.value().size();
          sum += row.seq();
        }
      }
      return sum + rows + bucketsByTenant.size();
    }
  }
}
