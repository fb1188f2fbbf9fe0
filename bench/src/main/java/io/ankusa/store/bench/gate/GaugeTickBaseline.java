package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.JsonText;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gauge tick against its raw baseline, on rocksdb, in one run: for each cell of the gate's
 * mode, one store is populated as the gate populates it and put under the gate's merge load; then
 * rounds of the SPI tick ({@code new QueueGauges(queue).measure(now)}) and rounds of the same reads
 * written by hand against RocksJava on the same database ({@link RawGaugeReads}) alternate, so both
 * see the same data, load and machine. It reports per cell the lowest round p10 and the median
 * round p50 of each, and SPI/raw of both: how much of the tick is the SPI's and how much is
 * RocksDB's own. It does not judge (the gate does: {@link BenchGate}).
 *
 * <pre>
 * GaugeTickBaseline [--mode quick|full] [--rounds 6] [--aggregate single|sharded] [--interval-us 1000]
 *     [--load 3000] [--out DIR] [--work DIR]
 * </pre>
 *
 * <p>{@code --interval-us} is the schedule the ticks start on (the gate's: one per millisecond; 0
 * runs them back to back), {@code --load} the merge load's batches per second (the gate's: 3 000;
 * at least 1). Neither changes the gate. Together they tell what the tick costs from what the
 * machine adds: a thread that slept a millisecond between ticks, a load writing beside it.
 *
 * <p>Output: a table in the log, {@code OUT/gauge-baseline.json} (default {@code
 * bench-results/gauge-baseline}); each cell's store lives under {@code --work} (default {@code
 * OUT/work}) while it is measured and is deleted after. Exit status 0 when it ran, 2 on bad
 * arguments.
 */
public final class GaugeTickBaseline {
  private static final Logger LOG = LoggerFactory.getLogger(GaugeTickBaseline.class);
  private static final String USAGE =
      "GaugeTickBaseline [--mode quick|full] [--rounds 6] [--aggregate single|sharded] [--interval-us 1000]"
          + " [--load 3000] [--out DIR] [--work DIR]";

  /**
   * One cell's figures: per side, the lowest round p10 and the median round p50, in microseconds.
   */
  record CellFigures(
      GateCell cell,
      double spiP10,
      double spiP50,
      double rawP10,
      double rawP50,
      List<RoundStats> spiRounds,
      List<RoundStats> rawRounds) {}

  private GaugeTickBaseline() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the baseline with {@code args}; returns the exit status. */
  public static int run(String... args) {
    GateMode mode = GateMode.QUICK;
    int rounds = 6;
    boolean sharded = false;
    long intervalMicros = GateSettings.STANDARD.tickIntervalMicros();
    int load = GateSettings.STANDARD.loadPerSecond();
    Path out = Path.of("bench-results", "gauge-baseline");
    Path work = null;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        String v = i + 1 < args.length ? args[++i] : null;
        if (v == null) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        switch (a) {
          case "--mode" -> mode = GateMode.parse(v);
          case "--rounds" -> rounds = whole(a, v);
          case "--aggregate" ->
              sharded =
                  switch (v) {
                    case "single" -> false;
                    case "sharded" -> true;
                    default ->
                        throw new IllegalArgumentException("--aggregate must be single or sharded");
                  };
          case "--interval-us" -> intervalMicros = whole(a, v);
          case "--load" -> load = whole(a, v);
          case "--out" -> out = Path.of(v);
          case "--work" -> work = Path.of(v);
          default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
        }
      }
      if (rounds < 1) {
        throw new IllegalArgumentException("--rounds must be at least 1");
      }
      if (intervalMicros < 0) {
        throw new IllegalArgumentException("--interval-us must be 0 (back to back) or more");
      }
      if (load < 1) {
        throw new IllegalArgumentException("--load must be at least 1 batch per second");
      }
    } catch (RuntimeException e) {
      LOG.error("{}; usage: {}", e.getMessage(), USAGE);
      return 2;
    }
    GateSettings settings =
        GateSettings.STANDARD
            .withShardedAggregate(sharded)
            .withTickIntervalMicros(intervalMicros)
            .withLoadPerSecond(load);
    Path workDir = work == null ? out.resolve("work") : work;
    List<CellFigures> cells = new ArrayList<>();
    for (int i = 0; i < mode.cells().size(); i++) {
      GateCell cell = mode.cells().get(i);
      Path dir = workDir.resolve("rocksdb-" + i + "-" + cell.axis() + "-" + cell.axisValue());
      FileTrees.deleteRecursively(dir);
      try {
        cells.add(measure(cell, dir, settings, rounds, i == 0));
      } finally {
        FileTrees.deleteRecursively(dir);
      }
    }
    log(cells);
    write(cells, mode, settings, rounds, out);
    return 0;
  }

  /** {@code value} as a whole number that fits an int, or an error naming {@code flag}. */
  private static int whole(String flag, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs a whole number, not '" + value + "'");
    }
  }

  /**
   * One cell: populate, load, then {@code rounds} rounds of each side, alternating which goes
   * first; in the {@code first} cell each side first ticks back to back for {@link
   * GateSettings#jitWarmupMillis()}, untimed, as the gate does.
   */
  static CellFigures measure(
      GateCell cell, Path dir, GateSettings settings, int rounds, boolean first) {
    try (Store store = BenchStores.open("rocksdb", dir, Format3.families())) {
      DeliveryQueue queue =
          DeliveryQueue.open(
              store,
              QueueConfig.defaults()
                  .withTenantsMax(Math.max(cell.tenants(), 1_000_000))
                  .withShardedAggregate(settings.shardedAggregate()));
      QueuePopulation.Population pop =
          QueuePopulation.populate(queue, cell, System.currentTimeMillis());
      RawGaugeReads raw = new RawGaugeReads(store, settings.shardedAggregate());
      TickProbe gauge =
          new TickProbe.GaugeTick(); // the gate's gauge tick, as gauges_bench times it
      LongUnaryOperator spiTick = now -> gauge.tick(queue, now);
      LongUnaryOperator rawTick =
          now -> {
            RawGaugeReads.Reading r = raw.measure(now);
            return r.aggregate()[0] + r.oldestDueAgeMs() + r.tenants();
          };
      MergeLoad load =
          new MergeLoad(
              queue,
              pop.activeOrds(),
              pop.activeTenants(),
              pop.aheadBaseAt(),
              pop.lastSeq(),
              settings.loadPerSecond());
      load.start();
      try {
        sleepMillis(settings.loadWarmupMillis());
        if (first) {
          TickRound.burst(settings.jitWarmupMillis(), spiTick, now -> {});
          TickRound.burst(settings.jitWarmupMillis(), rawTick, now -> {});
        }
        round(spiTick, settings); // warm-ups, not counted
        round(rawTick, settings);
        List<RoundStats> spi = new ArrayList<>();
        List<RoundStats> rawRounds = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
          if (r % 2 == 0) {
            spi.add(round(spiTick, settings));
            rawRounds.add(round(rawTick, settings));
          } else {
            rawRounds.add(round(rawTick, settings));
            spi.add(round(spiTick, settings));
          }
        }
        return new CellFigures(
            cell,
            lowestP10(spi),
            medianP50(spi),
            lowestP10(rawRounds),
            medianP50(rawRounds),
            List.copyOf(spi),
            List.copyOf(rawRounds));
      } finally {
        load.stop();
      }
    }
  }

  /**
   * One round of {@code tick} on the gate's schedule, nothing to settle (see {@link TickRound}).
   */
  private static RoundStats round(LongUnaryOperator tick, GateSettings settings) {
    return TickRound.run(settings, tick, now -> {});
  }

  private static double lowestP10(List<RoundStats> rounds) {
    return rounds.stream().mapToDouble(RoundStats::p10Ms).min().orElseThrow() * 1000;
  }

  private static double medianP50(List<RoundStats> rounds) {
    double[] p50 = rounds.stream().mapToDouble(RoundStats::p50Ms).sorted().toArray();
    int n = p50.length;
    return (n % 2 == 1 ? p50[n / 2] : (p50[n / 2 - 1] + p50[n / 2]) / 2) * 1000;
  }

  private static void log(List<CellFigures> cells) {
    StringBuilder sb =
        new StringBuilder(
            "\ngauge tick on rocksdb, SPI vs hand-written RocksJava, same cells and load (µs)\n");
    sb.append(
        String.format(
            "%-8s %8s %8s | %8s %8s | %8s %8s | %9s %9s%n",
            "axis",
            "rows",
            "tenants",
            "SPI p10",
            "raw p10",
            "SPI p50",
            "raw p50",
            "p10 ratio",
            "p50 ratio"));
    for (CellFigures c : cells) {
      sb.append(
          String.format(
              "%-8s %8d %8d | %8.1f %8.1f | %8.1f %8.1f | %9.2f %9.2f%n",
              c.cell().axis(),
              c.cell().rows(),
              c.cell().tenants(),
              c.spiP10(),
              c.rawP10(),
              c.spiP50(),
              c.rawP50(),
              c.spiP10() / c.rawP10(),
              c.spiP50() / c.rawP50()));
    }
    LOG.info("{}", sb);
  }

  private static void write(
      List<CellFigures> cells, GateMode mode, GateSettings settings, int rounds, Path out) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("bench", "gauge_tick_baseline");
    root.put("backend", "rocksdb");
    root.put("mode", mode.label());
    root.put("roundsPerSide", rounds);
    root.put("ticksPerRound", settings.ticksPerRound());
    root.put("tickIntervalMicros", settings.tickIntervalMicros());
    root.put("loadTargetPerSecond", settings.loadPerSecond());
    root.put("shardedAggregate", settings.shardedAggregate());
    root.put("loadAverage", loadAverage());
    List<Object> list = new ArrayList<>();
    for (CellFigures c : cells) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("axis", c.cell().axis());
      m.put("rows", c.cell().rows());
      m.put("tenants", c.cell().tenants());
      m.put("spiP10Micros", c.spiP10());
      m.put("rawP10Micros", c.rawP10());
      m.put("spiP50Micros", c.spiP50());
      m.put("rawP50Micros", c.rawP50());
      m.put("p10Ratio", c.spiP10() / c.rawP10());
      m.put("p50Ratio", c.spiP50() / c.rawP50());
      m.put("spiRounds", c.spiRounds().stream().map(RoundStats::toJson).toList());
      m.put("rawRounds", c.rawRounds().stream().map(RoundStats::toJson).toList());
      list.add(m);
    }
    root.put("cells", list);
    try {
      Files.createDirectories(out);
      Path file = out.resolve("gauge-baseline.json");
      Files.writeString(file, JsonText.of(root), StandardCharsets.UTF_8);
      LOG.info("wrote {}", file.toAbsolutePath());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the baseline results under " + out, e);
    }
  }

  private static double loadAverage() {
    return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static void sleepMillis(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
