package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.BenchStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate benches in one command (what {@code ankusa-store bench gate} runs): the gauge tick
 * ({@code gauges_bench}) and the dispatch tick ({@code dispatch_tick_bench}) over the mode's cells,
 * with the fold of the due family measured beside them. Exit status 0 iff every bench passes {@link
 * GateRule#STANDARD} on every backend; 1 if one fails; 2 on bad arguments.
 *
 * <pre>
 * BenchGate [--mode quick|full] [--backend rocksdb[,lmdb,memory]] [--out DIR] [--work DIR]
 *           [--bench gauges|dispatch|all] [--aggregate single|sharded] [--ingest-rate HOOKS_PER_S]
 * </pre>
 *
 * {@code --ingest-rate} (default {@link GateMode#DEFAULT_INGEST_PER_SECOND}) is the writer's rate
 * in the dispatch bench's ingest cell, where a real writer ingests while the tick claims ({@link
 * RaceRound}); 0 leaves that cell out.
 *
 * <p>{@code --out} (default {@code bench-results/gate-MODE}) receives {@code <bench>.json} and
 * {@code <bench>.png}; {@code --work} (default {@code OUT/work}) holds each cell's store while it
 * is measured.
 */
public final class BenchGate {
  private static final Logger LOG = LoggerFactory.getLogger(BenchGate.class);

  private static final String USAGE =
      "BenchGate [--mode quick|full] [--backend rocksdb[,lmdb,memory]] [--out DIR]"
          + " [--work DIR] [--bench gauges|dispatch|all] [--aggregate single|sharded] [--ingest-rate HOOKS_PER_S]";

  private BenchGate() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the gate with {@code args}; returns the exit status (0 pass, 1 fail, 2 usage). */
  public static int run(String... args) {
    return run(args, "all");
  }

  /** {@link #run(String...)} with {@code defaultBench} when {@code --bench} is not given. */
  static int run(String[] args, String defaultBench) {
    Request request;
    try {
      request = parse(args, defaultBench);
    } catch (IllegalArgumentException e) {
      LOG.error("{}", e.getMessage());
      return 2;
    }
    return run(request).pass() ? 0 : 1;
  }

  /**
   * What to run: the mode, the backends, the benches, where the results and the cells' stores go.
   *
   * @param mode quick or full: which cells
   * @param backends the backends to measure
   * @param probes the benches
   * @param out where the JSON and PNG go
   * @param work where each cell's store lives while it is measured
   * @param shardedAggregate whether the measured stores shard the node aggregate (the {@code
   *     counters.sharded_aggregate} setting)
   * @param ingestPerSecond the writer's rate in the ingest cell, hooks a second; 0: no ingest cell
   */
  public record Request(
      GateMode mode,
      List<String> backends,
      List<TickProbe> probes,
      Path out,
      Path work,
      boolean shardedAggregate,
      int ingestPerSecond) {

    /** The cells this request measures: the mode's, and the ingest cell unless its rate is 0. */
    public List<GateCell> cells() {
      return mode.cells(ingestPerSecond);
    }
  }

  /**
   * Parses the gate's arguments ({@code defaultBench} when {@code --bench} is not given).
   *
   * @throws IllegalArgumentException naming the bad argument and the usage
   */
  public static Request parse(String[] args, String defaultBench) {
    GateMode mode = GateMode.QUICK;
    List<String> backends = List.of("rocksdb");
    Path out = null;
    Path work = null;
    String bench = defaultBench;
    boolean shardedAggregate = false;
    int ingestPerSecond = GateMode.DEFAULT_INGEST_PER_SECOND;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--mode":
            mode = GateMode.parse(value(args, ++i, a));
            break;
          case "--backend":
            backends = new ArrayList<>();
            for (String b : value(args, ++i, a).split(",")) {
              backends.add(BenchStores.requireBackend(b.trim()));
            }
            break;
          case "--out":
            out = Path.of(value(args, ++i, a));
            break;
          case "--work":
            work = Path.of(value(args, ++i, a));
            break;
          case "--bench":
            bench = value(args, ++i, a);
            break;
          case "--aggregate":
            shardedAggregate =
                switch (value(args, ++i, a)) {
                  case "single" -> false;
                  case "sharded" -> true;
                  default ->
                      throw new IllegalArgumentException(
                          "--aggregate must be single or sharded (counters.sharded_aggregate)");
                };
            break;
          case "--ingest-rate":
            ingestPerSecond = ingestRate(value(args, ++i, a));
            break;
          default:
            throw new IllegalArgumentException("unknown argument '" + a + "'");
        }
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(e.getMessage() + "; usage: " + USAGE, e);
    }
    List<TickProbe> probes = new ArrayList<>();
    if (bench.equals("gauges") || bench.equals("all")) {
      probes.add(new TickProbe.GaugeTick());
    }
    if (bench.equals("dispatch") || bench.equals("all")) {
      probes.add(TickProbe.DispatchTick.DEFAULT);
    }
    if (probes.isEmpty()) {
      throw new IllegalArgumentException(
          "--bench must be gauges, dispatch or all, not '" + bench + "'");
    }
    if (out == null) {
      out = Path.of("bench-results", "gate-" + mode.label());
    }
    if (work == null) {
      work = out.resolve("work");
    }
    return new Request(
        mode,
        List.copyOf(backends),
        List.copyOf(probes),
        out,
        work,
        shardedAggregate,
        ingestPerSecond);
  }

  /**
   * Runs the gate as {@code request} asks, writes and logs the results; returns them and the files
   * written.
   */
  public static Outcome run(Request request) {
    LOG.info(
        "gate {} on {}: {} cells, benches {}, {} aggregate, ingest cell {}; results in {}",
        request.mode().label(),
        request.backends(),
        request.cells().size(),
        request.probes().stream().map(TickProbe::bench).toList(),
        request.shardedAggregate() ? "sharded" : "single",
        request.ingestPerSecond() == 0
            ? "off"
            : "writer at " + request.ingestPerSecond() + " hooks/s",
        request.out().toAbsolutePath());
    GateSettings settings = GateSettings.STANDARD.withShardedAggregate(request.shardedAggregate());
    GateResults results =
        new GateRun(
                request.mode(),
                request.cells(),
                request.backends(),
                request.probes(),
                request.work(),
                settings)
            .run();
    List<Path> files = GateReport.write(results, request.out());
    GateReport.log(results);
    files.forEach(f -> LOG.info("wrote {}", f.toAbsolutePath()));
    return new Outcome(results, files);
  }

  /**
   * A finished gate run.
   *
   * @param results every cell and verdict
   * @param files the JSON and PNG files written
   */
  public record Outcome(GateResults results, List<Path> files) {
    /** Whether every bench passed on every backend. */
    public boolean pass() {
      return results.pass();
    }
  }

  /** {@code --ingest-rate}'s value: hooks a second, 0 (no ingest cell) or more. */
  private static int ingestRate(String v) {
    int rate;
    try {
      rate = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--ingest-rate takes hooks a second (0 leaves the ingest cell out), not '" + v + "'");
    }
    if (rate < 0) {
      throw new IllegalArgumentException(
          "--ingest-rate takes hooks a second (0 leaves the ingest cell out), not " + rate);
    }
    return rate;
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }
}
