package io.ankusa.store.bench.sustain;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** The sustained-throughput bench's table, JSON and charts. */
final class SustainReport {
  private SustainReport() {}

  static final String HEADER =
      String.format(
          "%-8s %-11s %9s %10s %11s %11s %9s %10s %10s %9s %11s %5s",
          "backend",
          "mode",
          "target/s",
          "ingest/s",
          "delivered/s",
          "reclaimed/s",
          "rows/hook",
          "p99 due ms",
          "max due",
          "sustained",
          "load",
          "s");

  /** One run as a line under {@link #HEADER}. */
  static String line(SustainRun.Result r) {
    return String.format(
        "%-8s %-11s %9s %10.0f %11.0f %11.0f %9.2f %10d %10d %9s %5.2f→%-5.2f %5d",
        r.backend(),
        r.mode() == SustainRun.Mode.DISPATCH ? "dispatch" : "writer-only",
        r.targetHooksPerSecond() == 0 ? "max" : String.valueOf(r.targetHooksPerSecond()),
        r.ingestHooksPerSecond(),
        r.deliveredRowsPerSecond(),
        r.reclaimedHooksPerSecond(),
        r.rowsPerHook(),
        r.p99OldestDueMs(),
        r.maxPendingRows(),
        r.mode() == SustainRun.Mode.DISPATCH && r.targetHooksPerSecond() > 0
            ? (r.sustained() ? "yes" : "no")
            : "-",
        r.loadBefore(),
        r.loadAfter(),
        r.seconds().size());
  }

  /**
   * Where a run's CPU went, per unit of work: the dispatcher's (claims, cleanup, the sinks'
   * settles) per row delivered, reclaim's per hook reclaimed, the writer's and syncer's per hook
   * ingested, the engine's background threads (RocksDB's flush and compaction) per hook ingested;
   * then every thread group's CPU seconds.
   */
  static String cpuLine(SustainRun.Result r) {
    long reclaimed = r.seconds().stream().mapToLong(SustainRun.Second::reclaimedHooks).sum();
    StringBuilder sb =
        new StringBuilder(
            String.format(
                "CPU µs: dispatcher %.1f per row delivered, reclaim %.1f per"
                    + " hook reclaimed, writer %.1f and syncer %.1f per hook ingested, engine background %.1f per hook"
                    + " ingested; CPU s by thread:",
                r.cpuMicrosPer("ankusa-dispatch", r.delivered()),
                r.cpuMicrosPer("ankusa-reclaim", reclaimed),
                r.cpuMicrosPer("ankusa-writer", r.hooks()),
                r.cpuMicrosPer("ankusa-syncer", r.hooks()),
                r.cpuMicrosPer("rocksdb:", r.hooks())));
    r.cpuMillis()
        .forEach(
            (group, ms) -> {
              if (ms >= 100) {
                sb.append(String.format(" %s %.1f", group, ms / 1000.0));
              }
            });
    return sb.toString();
  }

  /** Every second of a run, as a table. */
  static List<String> secondsTable(SustainRun.Result r) {
    List<String> out = new ArrayList<>();
    out.add(
        String.format(
            "%5s %9s %11s %11s %10s %9s %10s %10s %12s %10s %12s",
            "s",
            "ingest",
            "delivered",
            "reclaimed",
            "due rows",
            "inflight",
            "oldest ms",
            "skip/seek",
            "memtable MiB",
            "L0 files",
            "debt MiB"));
    for (SustainRun.Second s : r.seconds()) {
      out.add(
          String.format(
              "%5d %9d %11d %11d %10d %9d %10d %10s %12s %10s %12s",
              s.second(),
              s.ingestHooks(),
              s.deliveredRows(),
              s.reclaimedHooks(),
              s.pendingRows(),
              s.inflightRows(),
              s.oldestDueMs(),
              skippedPerSeek(s.engine()),
              mib(s.engine().get("memtableBytes")),
              figure(s.engine().get("level0Files")),
              mib(s.engine().get("compactionDebtBytes"))));
    }
    return out;
  }

  /**
   * Internal keys iterators stepped over per seek in one second, or "-" when the engine does not
   * say.
   */
  static String skippedPerSeek(Map<String, Long> engine) {
    Long skipped = engine.get("iteratorKeysSkipped");
    Long seeks = engine.get("iteratorSeeks");
    if (skipped == null || seeks == null || seeks == 0) {
      return "-";
    }
    return String.format("%.1f", skipped / (double) seeks);
  }

  private static String mib(Long bytes) {
    return bytes == null ? "-" : String.format("%.1f", bytes / 1048576.0);
  }

  private static String figure(Long v) {
    return v == null ? "-" : String.valueOf(v);
  }

  /** A run as JSON: its settings, its summary and every second. */
  static Map<String, Object> json(SustainRun.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("backend", r.backend());
    m.put("mode", r.mode() == SustainRun.Mode.DISPATCH ? "dispatch" : "writer-only");
    m.put("targetHooksPerSecond", r.targetHooksPerSecond());
    m.put("ingestHooksPerSecond", r.ingestHooksPerSecond());
    m.put("rowsPerHook", r.rowsPerHook());
    m.put("deliveredRowsPerSecond", r.deliveredRowsPerSecond());
    m.put("reclaimedHooksPerSecond", r.reclaimedHooksPerSecond());
    m.put("p99OldestDueMs", r.p99OldestDueMs());
    m.put("maxPendingRows", r.maxPendingRows());
    m.put("sustained", r.sustained());
    m.put("cpuMillisByThread", r.cpuMillis());
    m.put("loadAverageBefore", r.loadBefore());
    m.put("loadAverageAfter", r.loadAfter());
    List<Object> seconds = new ArrayList<>();
    for (SustainRun.Second s : r.seconds()) {
      Map<String, Object> sm = new LinkedHashMap<>();
      sm.put("second", s.second());
      sm.put("ingestHooks", s.ingestHooks());
      sm.put("ingestRows", s.ingestRows());
      sm.put("deliveredRows", s.deliveredRows());
      sm.put("reclaimedHooks", s.reclaimedHooks());
      sm.put("pendingRows", s.pendingRows());
      sm.put("inflightRows", s.inflightRows());
      sm.put("oldestDueMs", s.oldestDueMs());
      sm.put("engine", new TreeMap<>(s.engine()));
      seconds.add(sm);
    }
    m.put("seconds", seconds);
    return m;
  }

  /**
   * One PNG per backend: for each dispatching run a row of two charts, the rates (hooks ingested,
   * rows delivered, hooks reclaimed per second) and the backlog (due rows, and the oldest-due age
   * in ms on the right axis).
   */
  static void charts(String backend, List<SustainRun.Result> runs, Path file) throws IOException {
    List<XYChart> charts = new ArrayList<>();
    for (SustainRun.Result r : runs) {
      String title =
          backend
              + (r.targetHooksPerSecond() == 0
                  ? " flat out"
                  : " at " + r.targetHooksPerSecond() + " hooks/s")
              + (r.mode() == SustainRun.Mode.WRITER_ONLY ? ", writer only" : "");
      XYChart rates =
          new XYChartBuilder()
              .width(520)
              .height(240)
              .title(title + ": rates")
              .xAxisTitle("s")
              .yAxisTitle("per second")
              .build();
      XYChart backlog =
          new XYChartBuilder()
              .width(520)
              .height(240)
              .title(title + ": backlog")
              .xAxisTitle("s")
              .yAxisTitle("due rows")
              .build();
      for (XYChart c : List.of(rates, backlog)) {
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW).setMarkerSize(0);
      }
      double[] x = r.seconds().stream().mapToDouble(SustainRun.Second::second).toArray();
      if (x.length == 0) {
        continue;
      }
      rates.addSeries(
          "ingest hooks",
          x,
          r.seconds().stream().mapToDouble(SustainRun.Second::ingestHooks).toArray());
      if (r.mode() == SustainRun.Mode.DISPATCH) {
        rates.addSeries(
            "delivered rows",
            x,
            r.seconds().stream().mapToDouble(SustainRun.Second::deliveredRows).toArray());
        rates.addSeries(
            "reclaimed hooks",
            x,
            r.seconds().stream().mapToDouble(SustainRun.Second::reclaimedHooks).toArray());
      }
      backlog.addSeries(
          "due rows",
          x,
          r.seconds().stream().mapToDouble(SustainRun.Second::pendingRows).toArray());
      XYSeries age =
          backlog.addSeries(
              "oldest due ms",
              x,
              r.seconds().stream().mapToDouble(SustainRun.Second::oldestDueMs).toArray());
      age.setYAxisGroup(1);
      backlog.setYAxisGroupTitle(1, "oldest due ms");
      charts.add(rates);
      charts.add(backlog);
    }
    if (!charts.isEmpty()) {
      BitmapEncoder.saveBitmap(
          charts, charts.size() / 2, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
  }
}
