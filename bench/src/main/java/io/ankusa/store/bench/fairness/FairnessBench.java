package io.ankusa.store.bench.fairness;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.ingest.WriterIngestBench;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.DispatchPolicy;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does one tenant's flood delay everybody else? One tenant ("flood") has {@code --flood} rows due
 * (received over the ten minutes before the run starts, so they are the oldest), and {@code
 * --light} tenants each receive one hook per second, spread over the second. A dispatcher ticks
 * every {@code --tick-ms} of a simulated clock ({@code --rows} rows per tick); after each tick
 * every claimed row is delivered. Light hooks stop arriving when the flood has drained; the run
 * ends when nothing is due. Both claim orders run on the same population in the same run, oldest
 * first (the dispatcher before fair dispatch) and deficit round-robin, on each backend.
 *
 * <p>Reported per backend and order: each light hook's wait from due (received) to claimed, p50 /
 * p99 / max in milliseconds of the simulated clock and in ticks; the flood's drain rate in rows per
 * tick and in rows per second of the wall time the ticks and deliveries took (ingest excluded); and
 * the ratio of the fair order's drain rate to oldest-first's. Targets (read, not asserted): light
 * p99 wait ≤ 2 ticks under deficit round-robin, flood drain rate ≥ 90 % of oldest-first's. A PNG of
 * the waits. Nothing is asserted; read the figures with the load average printed beside them.
 *
 * <p>Usage: {@code FairnessBench [--backend rocksdb,lmdb] [--flood 1000000] [--light 1000] [--rows
 * 512] [--tick-ms 20] [--payload 64] [--out DIR]}.
 */
public final class FairnessBench {
  private static final Logger LOG = LoggerFactory.getLogger(FairnessBench.class);
  private static final long T0 = 1_700_000_000_000L;
  private static final int FLOOD_BATCH = 10_000;

  private FairnessBench() {}

  /** What one backend and order measured. */
  record Outcome(
      String backend,
      DispatchPolicy.ClaimOrder order,
      long lightHooks,
      double p50Ms,
      double p99Ms,
      double maxMs,
      long floodTicks,
      double floodRowsPerTick,
      double floodRowsPerWallSecond,
      double tickMsMean) {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the bench; returns 0, or 2 on bad arguments. */
  public static int run(String... args) {
    List<String> backends = List.of("rocksdb", "lmdb");
    int flood = 1_000_000;
    int light = 1_000;
    int rows = 512;
    int tickMs = 20;
    int payload = 64;
    Path out = Path.of("bench-results", "fairness");
    try {
      for (int i = 0; i < args.length; i += 2) {
        String v = args[i + 1];
        switch (args[i]) {
          case "--backend" -> backends = List.of(v.split(","));
          case "--flood" -> flood = Integer.parseInt(v);
          case "--light" -> light = Integer.parseInt(v);
          case "--rows" -> rows = Integer.parseInt(v);
          case "--tick-ms" -> tickMs = Integer.parseInt(v);
          case "--payload" -> payload = Integer.parseInt(v);
          case "--out" -> out = Path.of(v);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      backends.forEach(BenchStores::requireBackend);
      if (flood < 1 || light < 1 || rows < 1 || tickMs < 1 || tickMs > 1_000 || payload < 0) {
        throw new IllegalArgumentException(
            "--flood, --light, --rows must be at least 1, --tick-ms 1..1000,"
                + " --payload at least 0");
      }
    } catch (RuntimeException e) {
      LOG.error(
          "{}; usage: FairnessBench [--backend rocksdb,lmdb] [--flood 1000000] [--light 1000] [--rows 512]"
              + " [--tick-ms 20] [--payload 64] [--out DIR]",
          e.getMessage());
      return 2;
    }
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            "fairness bench: flood %d rows, %d light tenants at 1 hook/s, %d rows per tick,"
                + " a tick every %d ms (simulated clock), payload %d B; load average %.2f at start%n",
            flood, light, rows, tickMs, payload, WriterIngestBench.loadAverage()));
    report.append(
        String.format(
            "%-8s %-20s %8s %10s %10s %10s %8s %12s %14s %9s%n",
            "backend",
            "order",
            "light",
            "p50 ms",
            "p99 ms",
            "max ms",
            "ticks",
            "flood/tick",
            "flood/wall s",
            "tick ms"));
    List<Outcome> outcomes = new ArrayList<>();
    for (String backend : backends) {
      Outcome fifo = null;
      for (DispatchPolicy policy :
          List.of(DispatchPolicy.oldestFirst(), DispatchPolicy.defaults())) {
        Outcome o =
            runOne(backend, policy, flood, light, rows, tickMs, payload, out.resolve("work"));
        outcomes.add(o);
        report.append(
            String.format(
                "%-8s %-20s %8d %10.1f %10.1f %10.1f %8d %12.1f %14.0f %9.2f%n",
                o.backend(),
                o.order(),
                o.lightHooks(),
                o.p50Ms(),
                o.p99Ms(),
                o.maxMs(),
                o.floodTicks(),
                o.floodRowsPerTick(),
                o.floodRowsPerWallSecond(),
                o.tickMsMean()));
        if (policy.order() == DispatchPolicy.ClaimOrder.OLDEST_FIRST) {
          fifo = o;
        } else if (fifo != null) {
          report.append(
              String.format(
                  "%-8s fair/oldest-first: flood drain %.2f per tick, %.2f per wall second;"
                      + " light p99 wait %.2f ticks (fair) vs %.0f ticks (oldest first)%n",
                  backend,
                  o.floodRowsPerTick() / fifo.floodRowsPerTick(),
                  o.floodRowsPerWallSecond() / fifo.floodRowsPerWallSecond(),
                  o.p99Ms() / tickMs,
                  fifo.p99Ms() / tickMs));
        }
      }
    }
    report.append(String.format("load average %.2f at end%n", WriterIngestBench.loadAverage()));
    LOG.info("\n{}", report);
    try {
      Files.createDirectories(out);
      Files.writeString(out.resolve("fairness.txt"), report.toString(), StandardCharsets.UTF_8);
      chart(outcomes, tickMs, out.resolve("fairness.png"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the fairness bench results to " + out, e);
    }
    return 0;
  }

  private static Outcome runOne(
      String backend,
      DispatchPolicy policy,
      int flood,
      int light,
      int rows,
      int tickMs,
      int payload,
      Path work) {
    Path dir = work.resolve(backend + "-" + policy.order());
    FileTrees.deleteRecursively(dir);
    try (Store store = BenchStores.open(backend, dir, Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      DirectIngest ingest = new DirectIngest(queue);
      byte[] body = new byte[payload];
      long floodLastSeq = populateFlood(ingest, flood, body);
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, rows, 4L << 20, policy);
      Map<Long, Long> lightReceivedAt = new HashMap<>();
      Histogram waits = new Histogram(3_600_000_000L, 3);
      long floodClaimed = 0;
      long floodTicks = 0;
      long floodNanos = 0;
      long tickNanos = 0;
      long ticks = 0;
      long lightHooks = 0;
      boolean arriving = true;
      long nextArrival = 0; // index of the next light arrival: second * light + tenant
      for (long k = 1; ; k++) {
        long now = T0 + k * tickMs;
        if (arriving) {
          List<HookEnvelope> hooks = new ArrayList<>();
          while (arrivalAt(nextArrival, light) <= now) {
            long at = arrivalAt(nextArrival, light);
            hooks.add(
                new HookEnvelope(
                    0,
                    "light-" + (nextArrival % light),
                    "bench",
                    "l" + nextArrival,
                    null,
                    at,
                    List.of(0),
                    body));
            nextArrival++;
          }
          if (!hooks.isEmpty()) {
            List<Long> seqs = ingest.ingest(hooks);
            for (int i = 0; i < seqs.size(); i++) {
              lightReceivedAt.put(seqs.get(i), hooks.get(i).receivedAt());
            }
            lightHooks += hooks.size();
          }
        }
        long start = System.nanoTime();
        List<InflightRow> claimed = dispatcher.tick(now).claimed();
        Transition t = new Transition();
        claimed.forEach(row -> Deliveries.delivered(t, row));
        queue.write(t, Durability.NO_SYNC);
        tickNanos += System.nanoTime() - start;
        ticks++;
        for (InflightRow row : claimed) {
          if (row.key().seq() <= floodLastSeq) {
            floodClaimed++;
          } else {
            waits.recordValue(Math.max(0, now - lightReceivedAt.remove(row.key().seq())));
          }
        }
        if (arriving && floodClaimed == flood) {
          arriving = false;
          floodTicks = k;
          floodNanos = tickNanos;
        }
        if (!arriving && lightReceivedAt.isEmpty()) {
          break;
        }
      }
      LOG.info(
          "{} {}: {} ticks, flood drained after {}", backend, policy.order(), ticks, floodTicks);
      return new Outcome(
          backend,
          policy.order(),
          lightHooks,
          waits.getValueAtPercentile(50),
          waits.getValueAtPercentile(99),
          waits.getMaxValue(),
          floodTicks,
          (double) flood / floodTicks,
          flood / (floodNanos / 1e9),
          tickNanos / 1e6 / ticks);
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  /**
   * Light arrival {@code i}: tenant {@code i mod light}, in second {@code i / light}, spread over
   * the second.
   */
  private static long arrivalAt(long i, int light) {
    long second = i / light;
    long tenant = i % light;
    return T0 + second * 1_000 + tenant * 1_000 / light;
  }

  /** The flood's rows, received over the ten minutes before the run; returns the last flood seq. */
  private static long populateFlood(DirectIngest ingest, int flood, byte[] body) {
    long last = 0;
    long span = 600_000;
    for (int from = 0; from < flood; from += FLOOD_BATCH) {
      List<HookEnvelope> batch = new ArrayList<>(FLOOD_BATCH);
      for (int i = from; i < Math.min(flood, from + FLOOD_BATCH); i++) {
        batch.add(
            new HookEnvelope(
                0,
                "flood",
                "bench",
                "f" + i,
                null,
                T0 - span + i * span / flood,
                List.of(0),
                body));
      }
      List<Long> seqs = ingest.ingest(batch);
      last = seqs.get(seqs.size() - 1);
    }
    return last;
  }

  private static void chart(List<Outcome> outcomes, int tickMs, Path png) throws IOException {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(560)
            .title("Light tenants' wait (due to claimed) beside one flooding tenant")
            .xAxisTitle("percentile (100 = max)")
            .yAxisTitle("wait, ms of the simulated clock (a tick every " + tickMs + " ms)")
            .build();
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    for (Outcome o : outcomes) {
      chart.addSeries(
          o.backend() + " " + o.order(),
          new double[] {50, 99, 100},
          new double[] {Math.max(o.p50Ms(), 1), Math.max(o.p99Ms(), 1), Math.max(o.maxMs(), 1)});
    }
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
