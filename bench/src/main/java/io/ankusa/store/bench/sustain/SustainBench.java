package io.ankusa.store.bench.sustain;

import io.ankusa.store.bench.JsonText;
import io.ankusa.store.bench.ingest.WriterIngestBench;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does the queue deliver what it ingests, for minutes? Producers feed the writer at a fixed rate,
 * or flat out, while the runtime's dispatcher claims due rows and sinks deliver every one at once,
 * and reclaim deletes finished hooks. Every second it records hooks ingested, rows delivered, hooks
 * reclaimed, the due rows, the oldest-due age, and the engine's own figures (keys iterators stepped
 * over per seek, memtable bytes, level-0 files, compaction debt).
 *
 * <p>Without {@code --rate}, it searches each backend's highest sustainable rate ({@link
 * MaxRateSearch}): the highest rate at which, over the run, the p99 of the oldest-due age stays at
 * or under 1 s and the due rows stay under two seconds of ingest. It reports it beside the writer's
 * own flat-out rate measured in the same run. The targets are read, not asserted: the highest
 * sustainable rate on rocksdb is at least 0.9× the writer's own, and at least lmdb's.
 *
 * <p>Writes {@code sustain.txt} (the table and each run's seconds), {@code sustain.json}, and
 * {@code sustain-BACKEND.png} (each run's curves over time) under {@code --out}. Usage: {@value
 * SustainSettings#USAGE}.
 */
public final class SustainBench {
  private static final Logger LOG = LoggerFactory.getLogger(SustainBench.class);

  private SustainBench() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the bench; returns 0, or 2 on bad arguments. */
  public static int run(String... args) {
    SustainSettings s;
    try {
      s = SustainSettings.parse(args);
    } catch (IllegalArgumentException e) {
      LOG.error("{}; usage: {}", e.getMessage(), SustainSettings.USAGE);
      return 2;
    }
    Report report = run(s);
    LOG.info("\n{}", report.text());
    report.files().forEach(f -> LOG.info("wrote {}", f.toAbsolutePath()));
    return 0;
  }

  /** What a run of the bench wrote. */
  public record Report(String text, List<Path> files) {}

  /** Runs the bench with {@code s}, writing its files under {@code s.out()}. */
  public static Report run(SustainSettings s) {
    double loadBefore = WriterIngestBench.loadAverage();
    List<SustainRun.Result> runs = new ArrayList<>();
    List<MaxRateSearch.Outcome> searches = new ArrayList<>();
    for (String backend : s.backends()) {
      if (s.searches()) {
        MaxRateSearch.Outcome o = MaxRateSearch.search(backend, s);
        searches.add(o);
        runs.add(o.writerOnly());
        runs.add(o.flatOut());
        runs.addAll(o.probes());
      } else {
        runs.add(
            SustainRun.run(
                backend,
                SustainRun.Mode.DISPATCH,
                s.rate(),
                s.seconds(),
                s.tenants(),
                s.producers(),
                s.out().resolve("work")));
      }
    }
    double loadAfter = WriterIngestBench.loadAverage();
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            "sustained throughput: %s, %d s a run, %d tenants, %d producers; load average %.2f at"
                + " start, %.2f at end%n",
            s.backends(), s.seconds(), s.tenants(), s.producers(), loadBefore, loadAfter));
    text.append(SustainReport.HEADER).append('\n');
    runs.forEach(r -> text.append(SustainReport.line(r)).append('\n'));
    if (!searches.isEmpty()) {
      text.append(
          String.format(
              "%n%-8s %16s %16s %8s%n", "backend", "writer alone/s", "max sustained/s", "ratio"));
      for (MaxRateSearch.Outcome o : searches) {
        text.append(
            String.format(
                "%-8s %16.0f %16d %8.2f%n",
                o.backend(),
                o.writerOnly().ingestHooksPerSecond(),
                o.maxSustainedHooksPerSecond(),
                o.ratioToWriter()));
      }
    }
    for (SustainRun.Result r : runs) {
      text.append(String.format("%n%s%n%s%n", SustainReport.line(r), SustainReport.cpuLine(r)));
      SustainReport.secondsTable(r).forEach(l -> text.append(l).append('\n'));
    }
    List<Path> files = write(s, text.toString(), runs, searches, loadBefore, loadAfter);
    return new Report(text.toString(), files);
  }

  private static List<Path> write(
      SustainSettings s,
      String text,
      List<SustainRun.Result> runs,
      List<MaxRateSearch.Outcome> searches,
      double loadBefore,
      double loadAfter) {
    Map<String, Object> root = new LinkedHashMap<>();
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("backends", s.backends());
    settings.put("rate", s.rate() == null ? "search" : s.rate() == 0 ? "max" : s.rate());
    settings.put("seconds", s.seconds());
    settings.put("tenants", s.tenants());
    settings.put("producers", s.producers());
    settings.put("probes", s.probes());
    root.put("settings", settings);
    root.put("loadAverageBefore", loadBefore);
    root.put("loadAverageAfter", loadAfter);
    List<Object> max = new ArrayList<>();
    for (MaxRateSearch.Outcome o : searches) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("backend", o.backend());
      m.put("writerAloneHooksPerSecond", o.writerOnly().ingestHooksPerSecond());
      m.put("maxSustainedHooksPerSecond", o.maxSustainedHooksPerSecond());
      m.put("ratioToWriterAlone", o.ratioToWriter());
      max.add(m);
    }
    root.put("maxSustainable", max);
    root.put("runs", runs.stream().map(SustainReport::json).toList());
    try {
      Files.createDirectories(s.out());
      List<Path> files = new ArrayList<>();
      Path txt = s.out().resolve("sustain.txt");
      Files.writeString(txt, text, StandardCharsets.UTF_8);
      files.add(txt);
      Path json = s.out().resolve("sustain.json");
      Files.writeString(json, JsonText.of(root), StandardCharsets.UTF_8);
      files.add(json);
      for (String backend : s.backends()) {
        Path png = s.out().resolve("sustain-" + backend + ".png");
        SustainReport.charts(
            backend, runs.stream().filter(r -> r.backend().equals(backend)).toList(), png);
        if (Files.exists(png)) {
          files.add(png);
        }
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the sustained-throughput results to " + s.out(), e);
    }
  }
}
