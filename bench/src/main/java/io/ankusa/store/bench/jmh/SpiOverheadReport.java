package io.ankusa.store.bench.jmh;

import io.ankusa.store.bench.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the engine benches ({@link EngineBench}, {@link CounterMergeBench}, {@link
 * ClaimDeliverBench}) in one JMH run and reports every SPI backend's time over its raw baseline's
 * for the same operation, parameters and number of threads ({@code rocksdb / raw-rocksdb}, {@code
 * lmdb / raw-lmdb}): 1.00 means no overhead. Each ratio is given twice, of the mean scores and of
 * the median iterations (steadier when other work shares the machine), with a 95 % interval over
 * the forks ({@link RatioInterval}: a run of two or more forks a side says whether a target is met,
 * missed, or not decided). The case names the threads, so the mixed read-mostly cases of {@link
 * EngineBench} (2 and 8 threads sharing one store) read as their own rows. Arguments are JMH's (e.g.
 * {@code -f 8 -wi 3 -w 1s -i 6 -r 300ms}, or a bench regex); {@code -Dbench.out=DIR} (default {@code
 * bench-results/jmh}) receives {@code spi-overhead.json}.
 */
public final class SpiOverheadReport {
  private static final Logger LOG = LoggerFactory.getLogger(SpiOverheadReport.class);

  private SpiOverheadReport() {}

  public static void main(String[] args) throws RunnerException, IOException, CommandLineOptionException {
    CommandLineOptions cli = new CommandLineOptions(args);
    OptionsBuilder builder = new OptionsBuilder();
    if (cli.getIncludes().isEmpty()) {
      builder.include(EngineBench.class.getName()).include(CounterMergeBench.class.getName())
          .include(ClaimDeliverBench.class.getName());
    }
    Options options = builder.parent(cli).build();
    Collection<RunResult> results = new Runner(options).run();
    Path out = Path.of(System.getProperty("bench.out", "bench-results/jmh"));
    Files.createDirectories(out);
    Map<String, Object> json = report(results);
    Path file = out.resolve("spi-overhead.json");
    Files.writeString(file, JsonText.of(json), StandardCharsets.UTF_8);
    LOG.info("wrote {}", file.toAbsolutePath());
  }

  /** The scores and SPI/raw ratios of {@code results}, logged as a table and returned for JSON. */
  static Map<String, Object> report(Collection<RunResult> results) {
    // (benchmark + params other than the engine) -> engine -> score
    Map<String, Map<String, Figures>> byCase = new TreeMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      bench = bench.substring(bench.lastIndexOf('.', bench.lastIndexOf('.') - 1) + 1);
      String engine = r.getParams().getParam("engine");
      if (engine == null) {
        engine = r.getParams().getParam("backend");
      }
      String keys = r.getParams().getParam("keys");
      String key = keys == null ? bench : bench + " keys=" + keys;
      key = key + " threads=" + r.getParams().getThreads();
      double[] forkScores = r.getBenchmarkResults().stream()
          .mapToDouble(fork -> fork.getPrimaryResult().getScore()).toArray();
      byCase.computeIfAbsent(key, k -> new LinkedHashMap<>())
          .put(engine, new Figures(r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError(),
              r.getPrimaryResult().getStatistics().getPercentile(50), forkScores));
      units.put(key, r.getPrimaryResult().getScoreUnit());
    }
    List<Object> rows = new ArrayList<>();
    LOG.info(String.format("%-50s %-12s %14s %12s %14s %10s %10s %14s", "case", "engine", "score", "± error",
        "median", "SPI/raw", "of medians", "95% of forks"));
    byCase.forEach((key, engines) -> {
      engines.forEach((engine, f) -> {
        String base = EngineTarget.baselineOf(engine);
        Figures raw = base == null ? null : engines.get(base);
        Double ratio = raw == null ? null : f.score() / raw.score();
        Double medianRatio = raw == null ? null : f.median() / raw.median();
        RatioInterval interval = raw == null ? null : RatioInterval.of(f.forkScores(), raw.forkScores());
        LOG.info(String.format("%-50s %-12s %14.1f %12.1f %14.1f %10s %10s %14s  %s", key, engine, f.score(), f.error(),
            f.median(), ratio == null ? "" : String.format("%.2f", ratio),
            medianRatio == null ? "" : String.format("%.2f", medianRatio), interval == null ? "" : interval,
            units.get(key)));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("case", key);
        row.put("engine", engine);
        row.put("score", f.score());
        row.put("error", f.error());
        row.put("unit", units.get(key));
        row.put("forks", f.forkScores().length);
        row.put("baseline", base);
        row.put("spiOverRaw", ratio);
        row.put("median", f.median());
        row.put("spiOverRawOfMedians", medianRatio);
        row.put("spiOverRawLow", interval == null ? null : interval.low());
        row.put("spiOverRawHigh", interval == null ? null : interval.high());
        rows.add(row);
      });
    });
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("note", "AverageTime per operation; spiOverRaw = SPI backend time / raw baseline time, same run;"
        + " spiOverRawOfMedians = the same of the median iterations, steadier on a loaded machine;"
        + " spiOverRawLow/High = 95% bootstrap interval of spiOverRaw over the forks of each side (null under"
        + " two forks a side): a target is met when High is under it, missed when Low is over it");
    json.put("results", rows);
    return json;
  }

  /**
   * One engine's figures for one case: JMH's score and error over all iterations, the median
   * iteration, and each fork's own score.
   */
  private record Figures(double score, double error, double median, double[] forkScores) {}
}
