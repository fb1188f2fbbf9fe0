package io.ankusa.store.bench.migration;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.JsonText;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.migration.FormatTwo;
import io.ankusa.store.queue.internal.migration.Migrate;
import io.ankusa.store.queue.internal.migration.TenantKeys;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The migration rows/s bench (docs/testing.md): builds a format-2 store ({@link
 * FormatTwoPopulation}: due, retrying, inflight, dead and archive rows, several hundred tenants and
 * hooks without one), reopens it with {@code Format3.families()} as the release does at open, runs
 * {@code new Migrate(QueueConfig.defaults()).run(store)} and reports old rows moved per second —
 * the median of {@code --runs} runs (a fresh store each) up to 10⁵ rows, one run above.
 *
 * <p>It reports and does not assert; the target is ≥ 200 000 rows/s on rocksdb. With each figure it
 * says where the time went:
 *
 * <ul>
 *   <li>inside the store, by call ({@link TimedStore}: the multiGet of hooks, of delivery rows, of
 *       tenant ordinals, the scans of the old rows, the per-step {@code SYNC} write);
 *   <li>outside it, in the migration's own code, split by a JFR recording of one more run ({@link
 *       CpuProfile}: envelope decoding, old-row decoding, op building, counter ops, tenant
 *       resolution);
 *   <li>with {@code --what-if} (default on, cells up to 10⁵ rows), one more run whose step batches
 *       are written {@code NO_SYNC}: what the per-step fsync costs (a diagnostic, not a valid
 *       migration); and one with {@code --what-if-step} rows per step: what coalescing markers and
 *       counter merges over more rows would buy (the migration fixes 500);
 *   <li>the floor the design puts under it: one {@code SYNC} write per {@value
 *       TenantKeys#ROWS_PER_STEP} rows, measured as the median of one-put {@code SYNC} writes into
 *       the same store after the run.
 * </ul>
 *
 * <pre>
 * MigrationBench [--rows 100000,1000000] [--backends rocksdb,lmdb] [--runs 3] [--tenants 500]
 *                [--profile true|false] [--what-if true|false] [--what-if-step 5000]
 *                [--out bench-results/migration] [--work DIR]
 * </pre>
 *
 * Writes {@code OUT/migration.json}, {@code OUT/migration.txt} (the tables) and the JFR files of
 * the profiled runs. Numbers taken on a loaded machine are noise: the load average is recorded with
 * the results and a warning is logged above 1.5.
 */
public final class MigrationBench {
  private static final Logger LOG = LoggerFactory.getLogger(MigrationBench.class);

  /** Rows up to which a cell is run {@code --runs} times (one run above). */
  static final long MEDIAN_UP_TO_ROWS = 100_000;

  /** One-put SYNC writes timed for the floor. */
  static final int SYNC_PROBES = 64;

  static final double TARGET_ROWS_PER_SECOND = 200_000;
  static final double BUSY_LOAD = 1.5;

  private MigrationBench() {}

  /** One migration run: its input, its result, and where its time went. */
  record Run(
      FormatTwoPopulation.Census census,
      Migrate.Result result,
      long wallNanos,
      long populateNanos,
      Map<TimedStore.Call, long[]> storeCalls,
      Map<String, Long> stepOps,
      long syncFloorNanos,
      CpuProfile.Samples profile) {
    double rowsPerSecond() {
      return result.rows() * 1e9 / wallNanos;
    }

    long storeNanos() {
      return storeCalls.values().stream().mapToLong(t -> t[2]).sum();
    }
  }

  public static void main(String[] args) throws IOException {
    List<Long> sizes = List.of(100_000L, 1_000_000L);
    List<String> backends = List.of("rocksdb", "lmdb");
    int runs = 3;
    int tenants = 500;
    boolean profile = true;
    boolean whatIf = true;
    int whatIfStep = 5_000;
    Path out = Path.of("bench-results", "migration");
    Path work = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        usage("argument '" + a + "' needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--rows":
          sizes = Arrays.stream(v.split(",")).map(Long::parseLong).toList();
          break;
        case "--backends":
          backends = Arrays.stream(v.split(",")).map(BenchStores::requireBackend).toList();
          break;
        case "--runs":
          runs = Integer.parseInt(v);
          break;
        case "--tenants":
          tenants = Integer.parseInt(v);
          break;
        case "--profile":
          profile = Boolean.parseBoolean(v);
          break;
        case "--what-if":
          whatIf = Boolean.parseBoolean(v);
          break;
        case "--what-if-step":
          whatIfStep = Integer.parseInt(v);
          break;
        case "--out":
          out = Path.of(v);
          break;
        case "--work":
          work = Path.of(v);
          break;
        default:
          usage("unknown argument '" + a + "'");
      }
    }
    if (work == null) {
      work = out.resolve("work");
    }
    Files.createDirectories(out);
    double loadBefore = loadAverage();
    Map<String, Object> cells = new LinkedHashMap<>();
    StringBuilder text = new StringBuilder();
    List<String> summary = new ArrayList<>();
    summary.add(
        String.format(
            Locale.ROOT,
            "%-8s %9s %4s %14s %-26s %6s %9s %12s %9s",
            "backend",
            "rows",
            "runs",
            "rows/s median",
            "rows/s of each run",
            "steps",
            "SYNC ms",
            "SYNC-bound",
            "load"));
    List<String> breakdowns = new ArrayList<>();
    for (String backend : backends) {
      for (long rows : sizes) {
        int n = rows <= MEDIAN_UP_TO_ROWS ? runs : 1;
        List<Run> counted = new ArrayList<>();
        for (int r = 0; r < n; r++) {
          counted.add(
              runOnce(backend, rows, tenants, work, r, null, false, TenantKeys.ROWS_PER_STEP));
          LOG.info(
              "{} {} rows, run {}: {} rows/s",
              backend,
              rows,
              r + 1,
              Math.round(counted.get(counted.size() - 1).rowsPerSecond()));
        }
        Run profiled =
            profile
                ? runOnce(
                    backend,
                    rows,
                    tenants,
                    work,
                    n,
                    out.resolve("migration-" + backend + "-" + rows + ".jfr"),
                    false,
                    TenantKeys.ROWS_PER_STEP)
                : null;
        Run noSync =
            whatIf && rows <= MEDIAN_UP_TO_ROWS
                ? runOnce(backend, rows, tenants, work, n + 1, null, true, TenantKeys.ROWS_PER_STEP)
                : null;
        Run bigSteps =
            whatIf && rows <= MEDIAN_UP_TO_ROWS
                ? runOnce(backend, rows, tenants, work, n + 2, null, false, whatIfStep)
                : null;
        List<Run> byRate = new ArrayList<>(counted);
        byRate.sort(Comparator.comparingDouble(Run::rowsPerSecond));
        Run median = byRate.get(byRate.size() / 2);
        double load = loadAverage();
        double syncMs = median.syncFloorNanos() / 1e6;
        double syncBound = TenantKeys.ROWS_PER_STEP / (median.syncFloorNanos() / 1e9);
        summary.add(
            String.format(
                Locale.ROOT,
                "%-8s %9d %4d %14.0f %-26s %6d %9.3f %12.0f %9.2f",
                backend,
                median.result().rows(),
                n,
                median.rowsPerSecond(),
                rates(counted),
                median.result().steps(),
                syncMs,
                syncBound,
                load));
        breakdowns.add(breakdown(backend, median, profiled, noSync, bigSteps));
        Map<String, Object> cell = new LinkedHashMap<>();
        cell.put("backend", backend);
        cell.put("rowsRequested", rows);
        cell.put("census", median.census().toMap());
        cell.put("runs", n);
        cell.put("rowsPerSecondMedian", median.rowsPerSecond());
        cell.put("rowsPerSecondRuns", counted.stream().map(Run::rowsPerSecond).toList());
        cell.put("meetsTarget", median.rowsPerSecond() >= TARGET_ROWS_PER_SECOND);
        cell.put("medianRun", runJson(median));
        if (profiled != null) {
          cell.put("profiledRun", runJson(profiled));
        }
        if (noSync != null) {
          cell.put("whatIfStepsNoSync", runJson(noSync));
        }
        if (bigSteps != null) {
          cell.put("whatIfRowsPerStep" + whatIfStep, runJson(bigSteps));
        }
        cell.put("loadAverageAfter", load);
        cells.put(backend + "-" + rows, cell);
      }
    }
    double loadAfter = loadAverage();
    text.append("Migration 2 -> 3 (Migrate.run, ")
        .append(TenantKeys.ROWS_PER_STEP)
        .append(" rows per SYNC step); target >= 200000 rows/s on rocksdb\n");
    text.append(
        "SYNC ms = median one-put SYNC write on the same store; SYNC-bound = rows per step / SYNC ms,"
            + " the ceiling one fsync per step puts on rows/s\n\n");
    summary.forEach(l -> text.append(l).append('\n'));
    breakdowns.forEach(b -> text.append('\n').append(b));
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "note",
        "old rows moved per second by Migrate.run on a fresh format-2 store (median of runs up to "
            + MEDIAN_UP_TO_ROWS
            + " rows, one run above); store calls timed by a wrapping Store, the code outside"
            + " the store split by a JFR profile of one more run");
    json.put("targetRowsPerSecond", TARGET_ROWS_PER_SECOND);
    json.put("rowsPerStep", TenantKeys.ROWS_PER_STEP);
    json.put("tenants", tenants);
    json.put("loadAverageBefore", loadBefore);
    json.put("loadAverageAfter", loadAfter);
    json.put("cells", cells);
    Files.writeString(out.resolve("migration.json"), JsonText.of(json), StandardCharsets.UTF_8);
    Files.writeString(out.resolve("migration.txt"), text.toString(), StandardCharsets.UTF_8);
    for (String line : text.toString().split("\n")) {
      LOG.info(line);
    }
    if (Math.max(loadBefore, loadAfter) > BUSY_LOAD) {
      LOG.warn(
          "the load average was {} before and {} after the run (> {}): the machine was busy, these figures"
              + " are noise; run again when it is quiet",
          loadBefore,
          loadAfter,
          BUSY_LOAD);
    }
    LOG.info(
        "wrote {} and {}",
        out.resolve("migration.json").toAbsolutePath(),
        out.resolve("migration.txt"));
    FileTrees.deleteRecursively(work);
  }

  /**
   * Populates a fresh store, reopens it, migrates it through a {@link TimedStore}; JFR when {@code
   * jfr} is set; the steps written {@code NO_SYNC} when {@code stepsNoSync} is (a diagnostic, not a
   * valid run); {@code rowsPerStep} old rows per step ({@link TenantKeys#ROWS_PER_STEP} but in a
   * what-if).
   */
  static Run runOnce(
      String backend,
      long rows,
      int tenants,
      Path work,
      int run,
      Path jfr,
      boolean stepsNoSync,
      int rowsPerStep) {
    Path dir = work.resolve(backend + "-" + rows + "-" + run);
    FileTrees.deleteRecursively(dir);
    try {
      long now = System.currentTimeMillis();
      long t0 = System.nanoTime();
      FormatTwoPopulation.Census census;
      try (Store v2 = BenchStores.open(backend, dir, FormatTwo.families())) {
        census = FormatTwoPopulation.write(v2, rows, tenants, 42 + rows, now);
      }
      long populateNanos = System.nanoTime() - t0;
      try (TimedStore store =
          new TimedStore(BenchStores.open(backend, dir, Format3.families()), stepsNoSync)) {
        CpuProfile profile = jfr == null ? null : CpuProfile.start(jfr);
        CpuProfile.Samples samples = null;
        long m0 = System.nanoTime();
        Migrate.Result result;
        try {
          result =
              rowsPerStep == TenantKeys.ROWS_PER_STEP
                  ? new Migrate(QueueConfig.defaults()).run(store)
                  : new Migrate(
                          Format3.FORMAT,
                          QueueConfig.defaults(),
                          System::currentTimeMillis,
                          rowsPerStep)
                      .run(store);
        } finally {
          if (profile != null) {
            samples = profile.stop();
            profile.close();
          }
        }
        long wall = System.nanoTime() - m0;
        if (result.rows() != census.rows() || !result.finished()) {
          LOG.error(
              "{} {} rows: the migration moved {} rows (finished: {}), the store held {}: the figures"
                  + " below are not a full migration",
              backend,
              rows,
              result.rows(),
              result.finished(),
              census.rows());
        }
        Map<TimedStore.Call, long[]> calls = new EnumMap<>(TimedStore.Call.class);
        store.tallies().forEach((c, t) -> calls.put(c, new long[] {t.calls, t.items, t.nanos}));
        long floor = syncFloor(store);
        return new Run(
            census,
            result,
            wall,
            populateNanos,
            calls,
            Map.copyOf(store.syncOps()),
            floor,
            samples);
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  /** Median of {@value #SYNC_PROBES} one-put SYNC writes (outside the timed tallies). */
  private static long syncFloor(TimedStore store) {
    long[] nanos = new long[SYNC_PROBES];
    byte[] key = "bench:sync-floor".getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < SYNC_PROBES; i++) {
      Batch b = new Batch().put(Format3.DEFAULT, key, new byte[] {(byte) i});
      long t0 = System.nanoTime();
      store.untimed().write(b, Durability.SYNC);
      nanos[i] = System.nanoTime() - t0;
    }
    Arrays.sort(nanos);
    return nanos[SYNC_PROBES / 2];
  }

  private static String breakdown(String backend, Run run, Run profiled, Run noSync, Run bigSteps) {
    StringBuilder sb = new StringBuilder();
    double wallMs = run.wallNanos() / 1e6;
    sb.append(
        String.format(
            Locale.ROOT,
            "%s, %d rows, %d steps: %.0f ms, %.0f rows/s (median run)%n",
            backend,
            run.result().rows(),
            run.result().steps(),
            wallMs,
            run.rowsPerSecond()));
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-40s %8s %10s %10s %6s %10s%n",
            "where",
            "calls",
            "items",
            "ms",
            "%",
            "us/call"));
    run.storeCalls()
        .forEach(
            (call, t) -> {
              if (t[0] > 0) {
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "  %-40s %8d %10d %10.1f %6.1f %10.1f%n",
                        call.label,
                        t[0],
                        t[1],
                        t[2] / 1e6,
                        100 * t[2] / (double) run.wallNanos(),
                        t[2] / 1e3 / t[0]));
              }
            });
    long outside = run.wallNanos() - run.storeNanos();
    sb.append(
        String.format(
            Locale.ROOT,
            "  %-40s %8s %10s %10.1f %6.1f%n",
            "outside the store (migration code)",
            "",
            "",
            outside / 1e6,
            100.0 * outside / run.wallNanos()));
    if (profiled != null && profiled.profile() != null) {
      Map<CpuProfile.Part, Long> samples = profiled.profile().samples();
      long total = samples.values().stream().mapToLong(Long::longValue).sum();
      long codeSamples =
          samples.entrySet().stream()
              .filter(
                  e ->
                      e.getKey() != CpuProfile.Part.STORE_READ
                          && e.getKey() != CpuProfile.Part.STORE_WRITE)
              .mapToLong(Map.Entry::getValue)
              .sum();
      sb.append(
          String.format(
              Locale.ROOT,
              "  JFR, one more run (%.0f ms, %d samples of the migration thread):"
                  + " %% of samples; ms = the code's share x the median run's time outside the store%n",
              profiled.wallNanos() / 1e6,
              total));
      samples.forEach(
          (part, n) -> {
            boolean store =
                part == CpuProfile.Part.STORE_READ || part == CpuProfile.Part.STORE_WRITE;
            String ms =
                store || codeSamples == 0
                    ? ""
                    : String.format(Locale.ROOT, "%.1f", outside / 1e6 * n / codeSamples);
            sb.append(
                String.format(
                    Locale.ROOT,
                    "    %-58s %6d %6.1f %% %10s%n",
                    part.label,
                    n,
                    total == 0 ? 0 : 100.0 * n / total,
                    ms));
          });
      sb.append("  hottest leaf frames (JFR samples):\n");
      profiled
          .profile()
          .hotFrames()
          .forEach(
              (frame, n) ->
                  sb.append(
                      String.format(
                          Locale.ROOT,
                          "    %-58s %6d %6.1f %%%n",
                          frame,
                          n,
                          total == 0 ? 0 : 100.0 * n / total)));
    }
    sb.append("  the steps' batches, ops per old row moved:");
    new TreeMap<>(run.stepOps())
        .forEach(
            (kind, n) -> {
              double perRow = n / (double) run.result().rows();
              if (perRow >= 0.005) {
                sb.append(String.format(Locale.ROOT, " %s %.2f;", kind, perRow));
              }
            });
    sb.append(
        String.format(
            Locale.ROOT,
            " total %.2f%n",
            run.stepOps().values().stream().mapToLong(Long::longValue).sum()
                / (double) run.result().rows()));
    double envelopes = run.storeCalls().get(TimedStore.Call.MULTIGET_HOOKS)[1];
    sb.append(
        String.format(
            Locale.ROOT,
            "  envelopes fetched and decoded: %.0f for %d hooks (%.2f per hook)%n",
            envelopes,
            run.census().hooks(),
            envelopes / run.census().hooks()));
    if (noSync != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  what-if, one more run with the steps written NO_SYNC (not durable, not"
                  + " a valid migration): %.0f rows/s, its step writes %.1f ms%n",
              noSync.rowsPerSecond(),
              noSync.storeCalls().get(TimedStore.Call.WRITE_SYNC)[2] / 1e6));
    }
    if (bigSteps != null) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  what-if, one more run with %d-row steps (DESIGN fixes %d): %.0f rows/s,"
                  + " %d steps, %.2f ops per row%n",
              bigSteps.result().rows() / Math.max(1, bigSteps.result().steps() - 1),
              TenantKeys.ROWS_PER_STEP,
              bigSteps.rowsPerSecond(),
              bigSteps.result().steps(),
              bigSteps.stepOps().values().stream().mapToLong(Long::longValue).sum()
                  / (double) bigSteps.result().rows()));
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "  populate: %.1f s; one-put SYNC write: %.3f ms -> %d-row steps bound"
                + " rows/s at %.0f%n",
            run.populateNanos() / 1e9,
            run.syncFloorNanos() / 1e6,
            TenantKeys.ROWS_PER_STEP,
            TenantKeys.ROWS_PER_STEP / (run.syncFloorNanos() / 1e9)));
    return sb.toString();
  }

  private static Map<String, Object> runJson(Run run) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rows", run.result().rows());
    m.put("steps", run.result().steps());
    m.put("wallMs", run.wallNanos() / 1e6);
    m.put("rowsPerSecond", run.rowsPerSecond());
    m.put("populateMs", run.populateNanos() / 1e6);
    m.put("syncFloorMs", run.syncFloorNanos() / 1e6);
    Map<String, Object> calls = new LinkedHashMap<>();
    run.storeCalls()
        .forEach(
            (c, t) -> {
              if (t[0] > 0) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("calls", t[0]);
                one.put("items", t[1]);
                one.put("ms", t[2] / 1e6);
                calls.put(c.name(), one);
              }
            });
    m.put("storeCalls", calls);
    m.put("stepOps", new TreeMap<String, Object>(run.stepOps()));
    m.put("outsideStoreMs", (run.wallNanos() - run.storeNanos()) / 1e6);
    if (run.profile() != null) {
      Map<String, Object> s = new LinkedHashMap<>();
      run.profile().samples().forEach((p, n) -> s.put(p.name(), n));
      m.put("jfrSamples", s);
      m.put("jfrHotFrames", new LinkedHashMap<String, Object>(run.profile().hotFrames()));
    }
    return m;
  }

  private static String rates(List<Run> runs) {
    StringBuilder sb = new StringBuilder();
    for (Run r : runs) {
      sb.append(sb.length() == 0 ? "" : " ").append(Math.round(r.rowsPerSecond()));
    }
    return sb.toString();
  }

  /** The one-minute load average, or -1 where /proc/loadavg does not exist. */
  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static void usage(String problem) {
    throw new IllegalArgumentException(
        problem
            + "; usage: MigrationBench [--rows 100000,1000000]"
            + " [--backends rocksdb,lmdb] [--runs 3] [--tenants 500] [--profile true|false] [--what-if true|false]"
            + " [--what-if-step 5000]"
            + " [--out bench-results/migration] [--work DIR]");
  }
}
