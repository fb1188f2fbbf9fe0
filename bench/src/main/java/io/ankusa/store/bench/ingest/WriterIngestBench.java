package io.ankusa.store.bench.ingest;

import io.ankusa.store.bench.JsonText;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.queue.config.WriterConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer ingest bench (docs/testing.md): durable hooks/s and ack latency through the queue's
 * {@link io.ankusa.store.queue.internal.ingest.QueueWriter} on rocksdb, against a hand-written
 * RocksJava group commit doing the same ops ({@link RawGroupCommit}) in the same run, reported as
 * writer/raw per cell. It reports; it does not judge (the target is writer/raw ≥ 0.95 in every
 * cell).
 *
 * <pre>
 * WriterIngestBench [--producers 1,8,64] [--tenants 10,10000] [--window 16] [--payload 256]
 *                   [--seconds 3] [--settle-ms 700] [--rounds 5] [--store-per-round] [--out bench-results/ingest]
 *                   [--work DIR]
 * </pre>
 *
 * <p>Per cell (producers × tenants): a fresh store for each target, one warm-up round each, then
 * {@code --rounds} counted rounds, the two targets alternating which goes first; each round opens
 * the target's store, runs {@link IngestRound}, and closes it. So a round starts from what its
 * target's earlier rounds left, compaction still owed included, as a long-lived store does. With
 * {@code --store-per-round} each round opens a new, empty store instead, so a round starts from the
 * same state as the round it is paired with (docs/measurements/ingest.md, 'A new store per round').
 * The cell's figures are the medians of the counted rounds; the ratio is the median of the rounds'
 * writer/raw, each writer round against the raw round that ran next to it ({@link
 * Cell#roundRatios}), with a distribution-free interval of that median ({@link MedianInterval}:
 * five rounds give lowest to highest, 94 %; eleven, second lowest to second highest, 99 %). Also
 * per target: the process's CPU per hook in the window (every thread; the median of the rounds'),
 * ack latency p50/p99 (medians of the rounds'), syncs per group and hooks per group in the window.
 * The load average is logged at each cell: figures taken above 1.5 on this 2-core class of machine
 * are noise.
 *
 * <p>Output: a table in the log (and {@code OUT/ingest.txt}), {@code OUT/ingest.json}. Exit status
 * 0 when every round ran with no failed answer, 1 otherwise, 2 on bad arguments.
 */
public final class WriterIngestBench {
  private static final Logger LOG = LoggerFactory.getLogger(WriterIngestBench.class);

  /** The settings of one run. */
  record Settings(
      List<Integer> producers,
      List<Integer> tenants,
      int window,
      int payloadBytes,
      long measureMillis,
      long settleMillis,
      int rounds,
      boolean storePerRound,
      Path out,
      Path work) {}

  /** The medians of one target in one cell, and its rounds. */
  record TargetFigures(
      double hooksPerSecond,
      double p50Micros,
      double p99Micros,
      double syncsPerGroup,
      double hooksPerGroup,
      List<IngestRound.Result> rounds) {}

  /** One cell's figures. */
  record Cell(
      int producers, int tenants, double loadAtStart, TargetFigures writer, TargetFigures raw) {
    /** The cell's ratio: the median of {@link #roundRatios()}. */
    double ratio() {
      return medianOf(roundRatios());
    }

    /**
     * writer/raw hooks/s of each counted round: round {@code i} of the writer against round {@code
     * i} of the raw target, which ran right before or after it. Pairing them keeps a drift of the
     * machine (compaction, another process, the page cache) that spans a few rounds out of the
     * ratio; a ratio of the two targets' medians may take its numerator and denominator from rounds
     * far apart.
     */
    double[] roundRatios() {
      int n = Math.min(writer.rounds().size(), raw.rounds().size());
      double[] ratios = new double[n];
      for (int i = 0; i < n; i++) {
        double rawRate = raw.rounds().get(i).hooksPerSecond();
        ratios[i] = rawRate == 0 ? 0 : writer.rounds().get(i).hooksPerSecond() / rawRate;
      }
      return ratios;
    }

    /**
     * How far {@link #ratio()} can be trusted: the interval of the median of {@link
     * #roundRatios()}.
     */
    MedianInterval ratioInterval() {
      return MedianInterval.of(roundRatios());
    }

    /**
     * median(writer hooks/s) / median(raw hooks/s), the statistic this bench reported before it
     * paired rounds.
     */
    double ratioOfMedians() {
      return raw.hooksPerSecond() == 0 ? 0 : writer.hooksPerSecond() / raw.hooksPerSecond();
    }
  }

  private WriterIngestBench() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /**
   * Runs the bench with {@code args}; returns the exit status (0 ran clean, 1 failed answers, 2
   * usage).
   */
  public static int run(String... args) {
    Settings s;
    try {
      s = parse(args);
    } catch (RuntimeException e) {
      LOG.error(
          "{}; usage: WriterIngestBench [--producers 1,8,64] [--tenants 10,10000] [--window 16] [--payload 256]"
              + " [--seconds 3] [--settle-ms 700] [--rounds 5] [--store-per-round] [--out DIR] [--work DIR]",
          e.getMessage());
      return 2;
    }
    try {
      List<Cell> cells = new ArrayList<>();
      double loadBefore = loadAverage();
      for (int tenants : s.tenants()) {
        for (int producers : s.producers()) {
          cells.add(runCell(s, producers, tenants));
        }
      }
      String table = table(s, cells);
      LOG.info("\n{}", table);
      Files.createDirectories(s.out());
      Files.writeString(s.out().resolve("ingest.txt"), table, StandardCharsets.UTF_8);
      Path json = s.out().resolve("ingest.json");
      Files.writeString(json, JsonText.of(json(s, cells, loadBefore)), StandardCharsets.UTF_8);
      LOG.info("wrote {}", json.toAbsolutePath());
      long failures =
          cells.stream()
              .flatMap(c -> Stream.concat(c.writer().rounds().stream(), c.raw().rounds().stream()))
              .mapToLong(IngestRound.Result::failures)
              .sum();
      if (failures > 0) {
        LOG.error("{} answers were not a stored hook; the figures are not comparable", failures);
        return 1;
      }
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.error("interrupted");
      return 1;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the ingest bench results to " + s.out(), e);
    }
  }

  private static Cell runCell(Settings s, int producers, int tenants) throws InterruptedException {
    double load = loadAverage();
    LOG.info("cell {} producers x {} tenants (load average {})", producers, tenants, load);
    Path writerDir = s.work().resolve("writer-" + producers + "x" + tenants);
    Path rawDir = s.work().resolve("raw-" + producers + "x" + tenants);
    FileTrees.deleteRecursively(writerDir);
    FileTrees.deleteRecursively(rawDir);
    IngestRound round =
        new IngestRound(
            producers, s.window(), tenants, s.payloadBytes(), s.settleMillis(), s.measureMillis());
    IngestRound warmup =
        new IngestRound(
            producers,
            s.window(),
            tenants,
            s.payloadBytes(),
            s.settleMillis(),
            Math.max(500, s.measureMillis() / 2));
    Supplier<IngestTarget> writer =
        () -> WriterTarget.open(emptiedIf(s.storePerRound(), writerDir), WriterConfig.defaults());
    Supplier<IngestTarget> raw = () -> RawGroupCommit.open(emptiedIf(s.storePerRound(), rawDir));
    try {
      once(warmup, writer, "w0");
      once(warmup, raw, "r0");
      List<IngestRound.Result> w = new ArrayList<>();
      List<IngestRound.Result> r = new ArrayList<>();
      for (int i = 1; i <= s.rounds(); i++) {
        if (i % 2 == 1) {
          w.add(logged(once(round, writer, "w" + i), "writer", i));
          r.add(logged(once(round, raw, "r" + i), "raw", i));
        } else {
          r.add(logged(once(round, raw, "r" + i), "raw", i));
          w.add(logged(once(round, writer, "w" + i), "writer", i));
        }
      }
      double windowSeconds = s.measureMillis() / 1000.0;
      return new Cell(
          producers, tenants, load, figures(w, windowSeconds), figures(r, windowSeconds));
    } finally {
      FileTrees.deleteRecursively(writerDir);
      FileTrees.deleteRecursively(rawDir);
    }
  }

  /**
   * {@code dir}, deleted first if {@code storePerRound}: each round then opens a new, empty store.
   */
  static Path emptiedIf(boolean storePerRound, Path dir) {
    if (storePerRound) {
      FileTrees.deleteRecursively(dir);
    }
    return dir;
  }

  private static IngestRound.Result once(IngestRound round, Supplier<IngestTarget> open, String tag)
      throws InterruptedException {
    try (IngestTarget target = open.get()) {
      return round.run(target, tag + "-" + System.nanoTime());
    }
  }

  private static IngestRound.Result logged(IngestRound.Result r, String target, int round) {
    LOG.info(
        String.format(
            "  %-6s round %d: %,10.0f hooks/s  p50 %7.2f ms  p99 %7.2f ms  syncs/group %.2f  groups %d"
                + "  failures %d | cpu us/hook writer %.1f syncer %.1f producers %.1f process %.1f | busy writer %.2f syncer %.2f",
            target,
            round,
            r.hooksPerSecond(),
            r.p50Micros() / 1000.0,
            r.p99Micros() / 1000.0,
            r.syncsPerGroup(),
            r.groups(),
            r.failures(),
            r.cpuMicrosPerHook(r.writer()),
            r.cpuMicrosPerHook(r.syncer()),
            r.cpuMicrosPerHook(r.producers()),
            r.processCpuMicrosPerHook(),
            r.writer().busyShare(),
            r.syncer().busyShare()));
    StringBuilder threads = new StringBuilder();
    r.cpuMicrosPerHookByThread()
        .forEach(
            (group, us) -> {
              if (us >= 0.05) {
                threads.append(String.format(" %s %.1f", group, us));
              }
            });
    LOG.info("           cpu us/hook by thread:{}", threads);
    return r;
  }

  private static TargetFigures figures(List<IngestRound.Result> rounds, double windowSeconds) {
    return new TargetFigures(
        median(rounds, IngestRound.Result::hooksPerSecond),
        median(rounds, r -> (double) r.p50Micros()),
        median(rounds, r -> (double) r.p99Micros()),
        median(rounds, IngestRound.Result::syncsPerGroup),
        median(rounds, r -> r.hooksPerGroup(windowSeconds)),
        rounds);
  }

  static double median(List<IngestRound.Result> rounds, ToDoubleFunction<IngestRound.Result> f) {
    return medianOf(rounds.stream().mapToDouble(f).toArray());
  }

  /** The median of {@code values} (the mean of the middle two for an even count); 0 for none. */
  static double medianOf(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    if (v.length == 0) {
      return 0;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  static String table(Settings s, List<Cell> cells) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            "writer ingest bench: rocksdb, %d-byte payloads, 1 sink, window %d per producer,"
                + " median of %d rounds of %.1f s, %s;%nratio: the median of the rounds' writer/raw, each round's writer against the raw"
                + " round next to it [interval of that median, its coverage]%n",
            s.payloadBytes(),
            s.window(),
            s.rounds(),
            s.measureMillis() / 1000.0,
            s.storePerRound()
                ? "each on a new store"
                : "one store per target kept from round to round"));
    sb.append(
        String.format(
            "%5s %7s | %10s %10s %6s %-18s | %-17s %-17s | %-11s %-11s | %-11s | %5s%n",
            "prod",
            "tenants",
            "writer/s",
            "raw/s",
            "ratio",
            "interval",
            "writer p50/p99 ms",
            "raw p50/p99 ms",
            "syncs/group",
            "hooks/group",
            "cpu us/hook",
            "load"));
    sb.append(
        String.format(
            "%5s %7s | %10s %10s %6s %-18s | %-17s %-17s | %-11s %-11s | %-11s | %5s%n",
            "", "", "", "", "", "", "", "", "writer raw", "writer raw", "writer raw", ""));
    for (Cell c : cells) {
      sb.append(
          String.format(
              "%5d %7d | %10.0f %10.0f %6.2f %-18s | %7.2f / %7.2f %7.2f / %7.2f | %5.2f %5.2f %5.0f %5.0f | %5.1f %5.1f | %5.2f%n",
              c.producers(),
              c.tenants(),
              c.writer().hooksPerSecond(),
              c.raw().hooksPerSecond(),
              c.ratio(),
              c.ratioInterval(),
              c.writer().p50Micros() / 1000,
              c.writer().p99Micros() / 1000,
              c.raw().p50Micros() / 1000,
              c.raw().p99Micros() / 1000,
              c.writer().syncsPerGroup(),
              c.raw().syncsPerGroup(),
              c.writer().hooksPerGroup(),
              c.raw().hooksPerGroup(),
              median(c.writer().rounds(), IngestRound.Result::processCpuMicrosPerHook),
              median(c.raw().rounds(), IngestRound.Result::processCpuMicrosPerHook),
              c.loadAtStart()));
    }
    return sb.toString();
  }

  private static Map<String, Object> json(Settings s, List<Cell> cells, double loadBefore) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("bench", "writer_ingest");
    root.put("at", Instant.now().toString());
    root.put("backend", "rocksdb");
    Map<String, Object> settings = new LinkedHashMap<>();
    settings.put("producers", s.producers());
    settings.put("tenants", s.tenants());
    settings.put("windowPerProducer", s.window());
    settings.put("payloadBytes", s.payloadBytes());
    settings.put("sinks", 1);
    settings.put("measureMillis", s.measureMillis());
    settings.put("settleMillis", s.settleMillis());
    settings.put("rounds", s.rounds());
    settings.put("storePerRound", s.storePerRound());
    settings.put("writerMaxGroupHooks", WriterConfig.DEFAULT_MAX_GROUP_HOOKS);
    settings.put("rawMaxGroupHooks", RawGroupCommit.MAX_GROUP);
    root.put("settings", settings);
    root.put("cpus", Runtime.getRuntime().availableProcessors());
    root.put("loadAverageBefore", loadBefore);
    root.put("loadAverageAfter", loadAverage());
    List<Object> out = new ArrayList<>();
    for (Cell c : cells) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("producers", c.producers());
      m.put("tenants", c.tenants());
      m.put("loadAverageAtStart", c.loadAtStart());
      m.put("ratio", c.ratio());
      m.put("roundRatios", Arrays.stream(c.roundRatios()).boxed().toList());
      MedianInterval interval = c.ratioInterval();
      m.put("ratioLow", interval.low());
      m.put("ratioHigh", interval.high());
      m.put("ratioCoverage", interval.coverage());
      m.put("ratioOfMedians", c.ratioOfMedians());
      m.put("writer", figuresJson(c.writer()));
      m.put("raw", figuresJson(c.raw()));
      out.add(m);
    }
    root.put("cells", out);
    return root;
  }

  private static Map<String, Object> figuresJson(TargetFigures f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("hooksPerSecond", f.hooksPerSecond());
    m.put("ackP50Micros", f.p50Micros());
    m.put("ackP99Micros", f.p99Micros());
    m.put("syncsPerGroup", f.syncsPerGroup());
    m.put("hooksPerGroup", f.hooksPerGroup());
    List<Object> rounds = new ArrayList<>();
    for (IngestRound.Result r : f.rounds()) {
      Map<String, Object> x = new LinkedHashMap<>();
      x.put("hooksPerSecond", r.hooksPerSecond());
      x.put("ackP50Micros", r.p50Micros());
      x.put("ackP99Micros", r.p99Micros());
      x.put("groups", r.groups());
      x.put("syncs", r.syncs());
      x.put("failures", r.failures());
      x.put("writerCpuMicrosPerHook", r.cpuMicrosPerHook(r.writer()));
      x.put("syncerCpuMicrosPerHook", r.cpuMicrosPerHook(r.syncer()));
      x.put("producersCpuMicrosPerHook", r.cpuMicrosPerHook(r.producers()));
      x.put("processCpuMicrosPerHook", r.processCpuMicrosPerHook());
      x.put("writerBusyShare", r.writer().busyShare());
      x.put("syncerBusyShare", r.syncer().busyShare());
      x.put("cpuMicrosPerHookByThread", r.cpuMicrosPerHookByThread());
      rounds.add(x);
    }
    m.put("rounds", rounds);
    return m;
  }

  /** The 1-minute load average, or -1 where /proc/loadavg is not readable. */
  public static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static Settings parse(String[] args) {
    List<Integer> producers = List.of(1, 8, 64);
    List<Integer> tenants = List.of(10, 10_000);
    int window = 16;
    int payload = 256;
    long seconds = 3000;
    long settle = 700;
    int rounds = 5;
    boolean storePerRound = false;
    Path out = Path.of("bench-results", "ingest");
    Path work = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--producers":
          producers = ints(value(args, ++i, a), a);
          break;
        case "--tenants":
          tenants = ints(value(args, ++i, a), a);
          break;
        case "--window":
          window = positive(value(args, ++i, a), a);
          break;
        case "--payload":
          payload = positive(value(args, ++i, a), a);
          break;
        case "--seconds":
          seconds = Math.round(Double.parseDouble(value(args, ++i, a)) * 1000);
          if (seconds < 100) {
            throw new IllegalArgumentException("--seconds must be at least 0.1");
          }
          break;
        case "--settle-ms":
          settle = positive(value(args, ++i, a), a);
          break;
        case "--rounds":
          rounds = positive(value(args, ++i, a), a);
          break;
        case "--store-per-round":
          storePerRound = true;
          break;
        case "--out":
          out = Path.of(value(args, ++i, a));
          break;
        case "--work":
          work = Path.of(value(args, ++i, a));
          break;
        default:
          throw new IllegalArgumentException("unknown argument '" + a + "'");
      }
    }
    return new Settings(
        producers,
        tenants,
        window,
        payload,
        seconds,
        settle,
        rounds,
        storePerRound,
        out,
        work == null ? out.resolve("work") : work);
  }

  private static String value(String[] args, int i, String name) {
    if (i >= args.length) {
      throw new IllegalArgumentException(name + " needs a value");
    }
    return args[i];
  }

  private static List<Integer> ints(String csv, String name) {
    List<Integer> out = new ArrayList<>();
    for (String p : csv.split(",")) {
      out.add(positive(p.trim(), name));
    }
    return List.copyOf(out);
  }

  private static int positive(String v, String name) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " '" + v + "' is not a number");
    }
    if (n < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, was " + n);
    }
    return n;
  }
}
