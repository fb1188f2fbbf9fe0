package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.BenchStores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate benches in one command (what {@code ankusa-store bench gate} runs): the gauge
 * tick ({@code gauges_bench}) and the dispatch tick ({@code dispatch_tick_bench}) over the mode's
 * cells, with the fold of the due family measured beside them. Exit status 0 iff every bench passes
 * {@link GateRule#TEN_1A} on every backend; 1 if one fails; 2 on bad arguments.
 *
 * <pre>
 * BenchGate [--mode quick|full] [--backend rocksdb[,lmdb,memory]] [--out DIR] [--work DIR]
 *           [--bench gauges|dispatch|all] [--aggregate single|sharded]
 * </pre>
 *
 * {@code --out} (default {@code bench-results/gate-MODE}) receives {@code <bench>.json} and {@code
 * <bench>.png}; {@code --work} (default {@code OUT/work}) holds each cell's store while it is measured.
 */
public final class BenchGate {
  private static final Logger LOG = LoggerFactory.getLogger(BenchGate.class);

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
    GateMode mode = GateMode.QUICK;
    List<String> backends = List.of("rocksdb");
    Path out = null;
    Path work = null;
    String bench = defaultBench;
    boolean shardedAggregate = false;
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
            shardedAggregate = switch (value(args, ++i, a)) {
              case "single" -> false;
              case "sharded" -> true;
              default -> throw new IllegalArgumentException("--aggregate must be single or sharded (counters.sharded_aggregate)");
            };
            break;
          default:
            throw new IllegalArgumentException("unknown argument '" + a + "'");
        }
      }
    } catch (RuntimeException e) {
      LOG.error("{}; usage: BenchGate [--mode quick|full] [--backend rocksdb[,lmdb,memory]] [--out DIR] [--work DIR]"
          + " [--bench gauges|dispatch|all] [--aggregate single|sharded]", e.getMessage());
      return 2;
    }
    List<TickProbe> probes = new ArrayList<>();
    if (bench.equals("gauges") || bench.equals("all")) {
      probes.add(new TickProbe.GaugeTick());
    }
    if (bench.equals("dispatch") || bench.equals("all")) {
      probes.add(TickProbe.DispatchTick.DEFAULT);
    }
    if (probes.isEmpty()) {
      LOG.error("--bench must be gauges, dispatch or all, not '{}'", bench);
      return 2;
    }
    if (out == null) {
      out = Path.of("bench-results", "gate-" + mode.label());
    }
    if (work == null) {
      work = out.resolve("work");
    }
    LOG.info("gate {} on {}: {} cells, benches {}, {} aggregate; results in {}", mode.label(), backends,
        mode.cells().size(), probes.stream().map(TickProbe::bench).toList(), shardedAggregate ? "sharded" : "single",
        out.toAbsolutePath());
    GateSettings settings = GateSettings.TEN_1A.withShardedAggregate(shardedAggregate);
    GateResults results = new GateRun(mode, backends, probes, work, settings).run();
    List<Path> files = GateReport.write(results, out);
    GateReport.log(results);
    files.forEach(f -> LOG.info("wrote {}", f.toAbsolutePath()));
    return results.pass() ? 0 : 1;
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value");
    }
    return args[i];
  }
}
