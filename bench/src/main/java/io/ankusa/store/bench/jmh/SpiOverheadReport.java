package io.ankusa.store.bench.jmh;

import io.ankusa.store.bench.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.ListStatistics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the engine benches ({@link EngineBench}, {@link CounterMergeBench}, {@link
 * ClaimDeliverBench}) and reports every SPI backend's time over its raw baseline's for the same
 * operation, parameters and number of threads ({@code rocksdb / raw-rocksdb}, {@code lmdb /
 * raw-lmdb}): 1.00 means no overhead. Each ratio is given twice, of the mean scores and of the
 * median iterations (steadier when other work shares the machine), with a 95 % interval over the
 * forks ({@link RatioInterval}: a run of two or more forks a side says whether a target is met,
 * missed, or not decided). The case names the threads, so the mixed read-mostly cases of {@link
 * EngineBench} (2 and 8 threads sharing one store) read as their own rows. Arguments are JMH's
 * (e.g. {@code -f 8 -wi 3 -w 1s -i 6 -r 300ms}, or a bench regex); {@code -Dbench.out=DIR} (default
 * {@code bench-results/jmh}) receives {@code spi-overhead.json}.
 *
 * <p>With {@code -f N} for N over 1 the forks are interleaved: N JMH runs of one fork each, so a
 * case's SPI fork and raw fork run next to each other in every round. JMH alone runs all forks of
 * one side before the other's, and the machine's drift between the two stretches
 * (docs/measurements/ spi-overhead.md has a raw baseline that moved that way) lands on the ratio
 * and outside its interval. Each round's SPI fork is then divided by the same round's raw fork, and
 * the report gives the geometric mean of those ratios ({@code paired}) with its interval over
 * rounds ({@link RatioInterval#paired}), in which a round's drift cancels. The engines run in the
 * order given ({@code -p engine=...}, else {@link EngineTarget#NAMES}) in odd rounds and in the
 * reverse order in even ones ({@link #engineOrder}), so every SPI backend runs before its baseline
 * in half the rounds and after it in the other half: what a fork leaves behind for the next one
 * (the memory the last JVM and its store gave back, a store's files still being deleted) falls on
 * both sides alike instead of always on the same one. {@code -Dbench.interleave=false} gives JMH's
 * own order, and an interval over each side's forks.
 */
public final class SpiOverheadReport {
  private static final Logger LOG = LoggerFactory.getLogger(SpiOverheadReport.class);

  private SpiOverheadReport() {}

  public static void main(String[] args)
      throws RunnerException, IOException, CommandLineOptionException {
    CommandLineOptions cli = new CommandLineOptions(args);
    OptionsBuilder builder = new OptionsBuilder();
    if (cli.getIncludes().isEmpty()) {
      builder
          .include(EngineBench.class.getName())
          .include(CounterMergeBench.class.getName())
          .include(ClaimDeliverBench.class.getName());
    }
    Options options = builder.parent(cli).build();
    int forks = cli.getForkCount().orElse(0);
    boolean interleave =
        forks > 1 && Boolean.parseBoolean(System.getProperty("bench.interleave", "true"));
    List<ForkScores> measured = new ArrayList<>();
    if (interleave) {
      // One JMH run of one fork per round, every case on every engine: a case's SPI and raw forks
      // run seconds apart, not the whole of one side's forks apart, so the machine's drift falls on
      // both.
      var given = cli.getParameter("engine");
      List<String> engines =
          given.hasValue() ? List.copyOf(given.get()) : List.of(EngineTarget.NAMES);
      for (int round = 1; round <= forks; round++) {
        List<String> order = engineOrder(engines, round);
        LOG.info(
            "round {} of {}: one fork of every case, engines in the order {}", round, forks, order);
        measured.addAll(
            forksOf(
                new Runner(
                        new OptionsBuilder()
                            .parent(options)
                            .forks(1)
                            .param("engine", order.toArray(String[]::new))
                            .build())
                    .run(),
                round));
      }
    } else {
      measured.addAll(forksOf(new Runner(options).run(), 0));
    }
    Path out = Path.of(System.getProperty("bench.out", "bench-results/jmh"));
    Files.createDirectories(out);
    Map<String, Object> json = report(measured);
    json.put("forksInterleaved", interleave);
    json.put(
        "engineOrder", interleave ? "as given in odd rounds, reversed in even rounds" : "JMH's");
    Path file = out.resolve("spi-overhead.json");
    Files.writeString(file, JsonText.of(json), StandardCharsets.UTF_8);
    LOG.info("wrote {}", file.toAbsolutePath());
  }

  /**
   * The order the engines run in, in round {@code round} (from 1): {@code engines} in odd rounds,
   * reversed in even ones.
   */
  static List<String> engineOrder(List<String> engines, int round) {
    if (round % 2 == 1) {
      return List.copyOf(engines);
    }
    List<String> reversed = new ArrayList<>(engines);
    Collections.reverse(reversed);
    return List.copyOf(reversed);
  }

  /**
   * Each fork of {@code results}, named by its case (benchmark, params but the engine, threads) and
   * engine, and marked with {@code round} (0 when the forks were not run in rounds).
   */
  static List<ForkScores> forksOf(Collection<RunResult> results, int round) {
    List<ForkScores> forks = new ArrayList<>();
    for (RunResult r : results) {
      String bench = r.getParams().getBenchmark();
      bench = bench.substring(bench.lastIndexOf('.', bench.lastIndexOf('.') - 1) + 1);
      String engine = r.getParams().getParam("engine");
      if (engine == null) {
        engine = r.getParams().getParam("backend");
      }
      String keys = r.getParams().getParam("keys");
      String key =
          (keys == null ? bench : bench + " keys=" + keys)
              + " threads="
              + r.getParams().getThreads();
      for (BenchmarkResult fork : r.getBenchmarkResults()) {
        double[] iterations =
            fork.getIterationResults().stream()
                .mapToDouble(i -> i.getPrimaryResult().getScore())
                .toArray();
        forks.add(
            new ForkScores(key, engine, round, r.getPrimaryResult().getScoreUnit(), iterations));
      }
    }
    return forks;
  }

  /**
   * The scores and SPI/raw ratios of {@code forks} (forks of one case and engine from several JMH
   * runs are pooled), logged as a table and returned for JSON.
   */
  static Map<String, Object> report(List<ForkScores> forks) {
    // (benchmark + params other than the engine) -> engine -> its forks
    Map<String, Map<String, List<ForkScores>>> byCase = new TreeMap<>();
    Map<String, String> units = new LinkedHashMap<>();
    for (ForkScores f : forks) {
      byCase
          .computeIfAbsent(f.caseKey(), k -> new LinkedHashMap<>())
          .computeIfAbsent(f.engine(), e -> new ArrayList<>())
          .add(f);
      units.put(f.caseKey(), f.unit());
    }
    List<Object> rows = new ArrayList<>();
    LOG.info(
        String.format(
            "%-50s %-12s %14s %12s %14s %10s %10s %10s %14s",
            "case",
            "engine",
            "score",
            "± error",
            "median",
            "SPI/raw",
            "of medians",
            "paired",
            "95% interval"));
    byCase.forEach(
        (key, byEngine) -> {
          Map<String, Figures> engines = new LinkedHashMap<>();
          byEngine.forEach((engine, list) -> engines.put(engine, Figures.of(list)));
          engines.forEach(
              (engine, f) -> {
                String base = EngineTarget.baselineOf(engine);
                Figures raw = base == null ? null : engines.get(base);
                Double ratio = raw == null ? null : f.score() / raw.score();
                Double medianRatio = raw == null ? null : f.median() / raw.median();
                double[][] rounds =
                    raw == null ? null : pairedByRound(byEngine.get(engine), byEngine.get(base));
                Double paired =
                    rounds == null ? null : RatioInterval.pairedRatio(rounds[0], rounds[1]);
                RatioInterval interval =
                    raw == null
                        ? null
                        : rounds != null
                            ? RatioInterval.paired(rounds[0], rounds[1])
                            : RatioInterval.of(f.forkScores(), raw.forkScores());
                LOG.info(
                    String.format(
                        "%-50s %-12s %14.1f %12.1f %14.1f %10s %10s %10s %14s  %s",
                        key,
                        engine,
                        f.score(),
                        f.error(),
                        f.median(),
                        ratio == null ? "" : String.format("%.2f", ratio),
                        medianRatio == null ? "" : String.format("%.2f", medianRatio),
                        paired == null ? "" : String.format("%.2f", paired),
                        interval == null ? "" : interval,
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
                row.put("spiOverRawPaired", paired);
                row.put(
                    "intervalOver",
                    interval == null ? null : interval.paired() ? "rounds" : "forks");
                row.put("spiOverRawLow", interval == null ? null : interval.low());
                row.put("spiOverRawHigh", interval == null ? null : interval.high());
                rows.add(row);
              });
        });
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "note",
        "AverageTime per operation; spiOverRaw = SPI backend time / raw baseline time, same run;"
            + " spiOverRawOfMedians = the same of the median iterations, steadier on a loaded machine;"
            + " spiOverRawPaired = geometric mean of each round's SPI fork / raw fork, when forks ran in rounds;"
            + " spiOverRawLow/High = 95% bootstrap interval, over rounds of spiOverRawPaired when forks ran in"
            + " rounds (intervalOver = rounds), else over each side's forks of spiOverRaw (intervalOver = forks);"
            + " null under two: a target is met when High is under it, missed when Low is over it");
    json.put("results", rows);
    return json;
  }

  /**
   * The SPI and raw fork scores of one case, paired by round and in round order, or null when the
   * forks did not run in rounds (or a round lacks one side's fork).
   */
  private static double[][] pairedByRound(List<ForkScores> spi, List<ForkScores> raw) {
    if (spi.size() != raw.size()) {
      return null;
    }
    Map<Integer, Double> spiByRound = new TreeMap<>();
    Map<Integer, Double> rawByRound = new TreeMap<>();
    for (int i = 0; i < spi.size(); i++) {
      if (spi.get(i).round() == 0
          || spiByRound.put(spi.get(i).round(), spi.get(i).mean()) != null
          || raw.get(i).round() == 0
          || rawByRound.put(raw.get(i).round(), raw.get(i).mean()) != null) {
        return null;
      }
    }
    if (!spiByRound.keySet().equals(rawByRound.keySet())) {
      return null;
    }
    return new double[][] {
      spiByRound.values().stream().mapToDouble(Double::doubleValue).toArray(),
      rawByRound.values().stream().mapToDouble(Double::doubleValue).toArray()
    };
  }

  /**
   * One fork's measured iterations (time per operation in {@code unit}) of one case on one engine;
   * {@code round} numbers the round it ran in when forks run in rounds, else 0.
   */
  record ForkScores(String caseKey, String engine, int round, String unit, double[] iterations) {
    double mean() {
      return Arrays.stream(iterations).average().orElse(Double.NaN);
    }
  }

  /**
   * One engine's figures for one case, over the iterations of all its forks: the mean (JMH's
   * score), the half-width of its 99.9 % confidence interval (JMH's error), the median iteration,
   * and each fork's mean.
   */
  private record Figures(double score, double error, double median, double[] forkScores) {
    static Figures of(List<ForkScores> forks) {
      ListStatistics all = new ListStatistics();
      for (ForkScores f : forks) {
        for (double v : f.iterations()) {
          all.addValue(v);
        }
      }
      double error = all.getN() > 2 ? all.getMeanErrorAt(0.999) : Double.NaN;
      return new Figures(
          all.getMean(),
          error,
          all.getPercentile(50),
          forks.stream().mapToDouble(ForkScores::mean).toArray());
    }
  }
}
