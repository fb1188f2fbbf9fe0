package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.JsonText;
import java.awt.BasicStroke;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a gate run's results: {@code <bench>.json} (every cell, round and verdict) and {@code
 * <bench>.png} (a panel per axis measured — the rows axis, the tenants axis, and the ingest cell
 * when it ran — with the cell value of each backend, the fold of the due family it replaces, the 50
 * ms limit and each backend's allowed slowest cell), and logs the verdicts.
 */
public final class GateReport {
  private static final Logger LOG = LoggerFactory.getLogger(GateReport.class);
  private static final BasicStroke DASHED =
      new BasicStroke(
          1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
  private static final BasicStroke DOTTED =
      new BasicStroke(
          1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {2f, 3f}, 0f);

  private GateReport() {}

  /**
   * Writes the JSON and PNG of every bench in {@code results} under {@code dir}; returns the files.
   */
  public static List<Path> write(GateResults results, Path dir) {
    List<Path> files = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      for (TickProbe probe : results.probes()) {
        Path json = dir.resolve(probe.bench() + ".json");
        Files.writeString(json, JsonText.of(toJson(results, probe)), StandardCharsets.UTF_8);
        files.add(json);
        Path png = dir.resolve(probe.bench() + ".png");
        chart(results, probe, png);
        files.add(png);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the gate results under " + dir, e);
    }
    return files;
  }

  /**
   * Logs one line per (bench, backend): PASS/FAIL, fastest, slowest, allowed, and why it failed.
   */
  public static void log(GateResults results) {
    results
        .verdicts()
        .forEach(
            (key, v) -> {
              LOG.info(
                  String.format(
                      "%-34s %s  fastest %.3f ms  slowest %.3f ms  allowed %.3f ms  limit %.0f ms",
                      key,
                      v.pass() ? "PASS" : "FAIL",
                      v.fastestMs(),
                      v.slowestMs(),
                      Math.min(v.allowedMs(), results.rule().limitMs()),
                      results.rule().limitMs()));
              v.reasons().forEach(r -> LOG.info("    {}", r));
            });
    LOG.info("gate {}", results.pass() ? "PASS" : "FAIL");
  }

  /**
   * The verdict table, one line per bench × backend × cell: the cell's p10 (the lowest of its
   * rounds' 10th percentiles), what the rule allowed the bench on that backend, whether the cell is
   * within it, the rows claimed per counted tick and the value per claimed row, and in an ingest
   * cell the hooks a second its writer achieved (the target is in the cell's name); then one
   * verdict line per bench × backend with the reasons it failed.
   */
  public static List<String> table(GateResults results) {
    List<String> lines = new ArrayList<>();
    double limit = results.rule().limitMs();
    lines.add(
        String.format(
            "%-20s %-8s %-50s %10s %10s  %-4s %9s %9s %9s",
            "bench",
            "backend",
            "cell",
            "p10 ms",
            "allowed ms",
            "pass",
            "rows/tick",
            "us/row",
            "ingest/s"));
    for (TickProbe probe : results.probes()) {
      for (String backend : results.backends(probe.bench())) {
        GateRule.Verdict v = results.verdict(probe.bench(), backend);
        double allowed = Math.min(v.allowedMs(), limit);
        for (CellResult c : results.cells(probe.bench(), backend)) {
          String ingest =
              c.writer() == null ? "" : String.format("%.0f", c.writer().hooksPerSecond());
          lines.add(
              String.format(
                  "%-20s %-8s %-50s %10.3f %10.3f  %-4s %9.1f %9.2f %9s",
                  probe.bench(),
                  backend,
                  c.cell().tableName(),
                  c.valueMs(),
                  allowed,
                  c.valueMs() <= allowed ? "yes" : "NO",
                  c.rowsPerTick(),
                  c.microsPerClaimedRow(),
                  ingest));
        }
        lines.add(
            String.format(
                "%-20s %-8s %-50s %10.3f %10.3f  %s",
                probe.bench(),
                backend,
                "verdict (slowest)",
                v.slowestMs(),
                allowed,
                v.pass() ? "PASS" : "FAIL"));
        v.reasons().forEach(r -> lines.add("    " + r));
      }
    }
    lines.add("gate " + (results.pass() ? "PASS" : "FAIL"));
    return lines;
  }

  static Map<String, Object> toJson(GateResults results, TickProbe probe) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("bench", probe.bench());
    root.put("tick", probe.describe());
    root.put("mode", results.mode().label());
    GateRule rule = results.rule();
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("cell", "10th percentile of each round's ticks, lowest of the rounds");
    r.put("ratio", rule.ratio());
    r.put("floorMs", rule.floorMs());
    r.put("limitMs", rule.limitMs());
    r.put("minLoadFraction", rule.minLoadFraction());
    r.put(
        "ingestCell",
        "counts only the ticks that claimed a row, compared per tick like every cell; its writer"
            + " at no less than minLoadFraction of its target, its ticks claiming no less than minLoadFraction of the"
            + " rows the writer ingested");
    root.put("rule", r);
    List<Object> backends = new ArrayList<>();
    boolean pass = true;
    for (String backend : results.backends(probe.bench())) {
      GateRule.Verdict v = results.verdict(probe.bench(), backend);
      pass &= v.pass();
      Map<String, Object> b = new LinkedHashMap<>();
      b.put("backend", backend);
      b.put("pass", v.pass());
      b.put("fastestMs", v.fastestMs());
      b.put("slowestMs", v.slowestMs());
      b.put("allowedMs", v.allowedMs());
      b.put("reasons", v.reasons());
      List<Object> cells = new ArrayList<>();
      for (CellResult c : results.cells(probe.bench(), backend)) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("axis", c.cell().axis());
        m.put("rows", c.cell().rows());
        m.put("tenants", c.cell().tenants());
        m.put("active", c.cell().active());
        m.put("valueMs", c.valueMs());
        m.put("rowsPerTick", c.rowsPerTick());
        m.put("microsPerClaimedRow", c.microsPerClaimedRow());
        m.put("foldMs", c.foldMs());
        m.put("loadBatchesPerSecond", c.loadPerSecond());
        m.put("loadTargetPerSecond", c.loadTargetPerSecond());
        m.put("loadWriteMicros", c.loadWriteMicros());
        m.put("populateMs", c.populateMs());
        m.put("rounds", c.rounds().stream().map(RoundStats::toJson).toList());
        if (c.writer() != null) {
          m.put("writer", writerJson(c.writer()));
        }
        cells.add(m);
      }
      b.put("cells", cells);
      backends.add(b);
    }
    root.put("pass", pass && !backends.isEmpty());
    root.put("backends", backends);
    return root;
  }

  /**
   * An ingest cell's writer: its target and achieved rate, the rows ingested and claimed, the empty
   * ticks.
   */
  private static Map<String, Object> writerJson(CellResult.WriterRace w) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("targetHooksPerSecond", w.targetHooksPerSecond());
    m.put("hooksPerSecond", w.hooksPerSecond());
    m.put("hooksFraction", w.hooksFraction());
    m.put("rowsPerSecond", w.rowsPerSecond());
    m.put("claimedRowsPerSecond", w.claimedRowsPerSecond());
    m.put("claimedFraction", w.claimedFraction());
    m.put("refused", w.refused());
    m.put("emptyTicks", w.emptyTicks().stream().map(RoundStats::toJson).toList());
    return m;
  }

  private static void chart(GateResults results, TickProbe probe, Path png) throws IOException {
    List<XYChart> panels = new ArrayList<>();
    for (String axis : List.of("rows", "tenants", GateCell.INGEST)) {
      XYChart chart =
          new XYChartBuilder()
              .width(720)
              .height(560)
              .title(
                  probe.bench()
                      + " — "
                      + switch (axis) {
                        case "rows" -> "queued rows (100 tenants, 8 active)";
                        case "tenants" -> "tenants (8 active)";
                        default -> "racing a writer (the ingest cell)";
                      })
              .xAxisTitle(
                  switch (axis) {
                    case "rows" -> "queued rows";
                    case "tenants" -> "tenants";
                    default -> "writer's target (hooks/s)";
                  })
              .yAxisTitle(
                  axis.equals(GateCell.INGEST)
                      ? "ms (claiming tick: p10 of 1000, lowest of 3 rounds)"
                      : "ms (tick: p10 of 1000, lowest of 3 rounds)")
              .build();
      chart
          .getStyler()
          .setXAxisLogarithmic(!axis.equals(GateCell.INGEST)); // one rate: nothing to spread
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
      chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(13f));
      double minX = Double.POSITIVE_INFINITY;
      double maxX = 0;
      boolean any = false;
      for (String backend : results.backends(probe.bench())) {
        List<Double> xs = new ArrayList<>();
        List<Double> ticks = new ArrayList<>();
        List<Double> folds = new ArrayList<>();
        for (CellResult c : results.cells(probe.bench(), backend)) {
          if (c.cell().axis().equals(axis)) {
            xs.add((double) c.cell().axisValue());
            ticks.add(Math.max(c.valueMs(), 1e-4));
            folds.add(Math.max(c.foldMs(), 1e-4));
          }
        }
        if (xs.isEmpty()) {
          continue;
        }
        any = true;
        minX = Math.min(minX, xs.get(0));
        maxX = Math.max(maxX, xs.get(xs.size() - 1));
        XYSeries tick = chart.addSeries(backend + " tick", xs, ticks);
        tick.setMarker(SeriesMarkers.CIRCLE);
        XYSeries fold =
            chart.addSeries(backend + " fold of 'D' (what counters replace)", xs, folds);
        fold.setMarker(SeriesMarkers.DIAMOND);
        fold.setLineStyle(DASHED);
        GateRule.Verdict v = results.verdict(probe.bench(), backend);
        XYSeries allowed =
            chart.addSeries(
                backend + " allowed (2x fastest, floor 1 ms)",
                List.of(
                    lineStart(xs.get(0), xs.get(xs.size() - 1)),
                    lineEnd(xs.get(0), xs.get(xs.size() - 1))),
                List.of(v.allowedMs(), v.allowedMs()));
        allowed.setMarker(SeriesMarkers.NONE);
        allowed.setLineStyle(DOTTED);
      }
      if (!any) {
        continue;
      }
      XYSeries limit =
          chart.addSeries(
              "limit " + (int) results.rule().limitMs() + " ms",
              List.of(lineStart(minX, maxX), lineEnd(minX, maxX)),
              List.of(results.rule().limitMs(), results.rule().limitMs()));
      limit.setMarker(SeriesMarkers.NONE);
      limit.setLineStyle(DOTTED);
      panels.add(chart);
    }
    if (panels.isEmpty()) {
      return;
    }
    BitmapEncoder.saveBitmap(
        panels, 1, panels.size(), png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /**
   * Where a horizontal line over {@code [from, to]} starts: a fifth before a lone point, so it
   * shows.
   */
  private static double lineStart(double from, double to) {
    return from == to ? from * 0.8 : from;
  }

  private static double lineEnd(double from, double to) {
    return from == to ? to * 1.2 : to;
  }
}
