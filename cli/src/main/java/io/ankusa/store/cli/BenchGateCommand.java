package io.ankusa.store.cli;

import io.ankusa.store.bench.gate.BenchGate;
import io.ankusa.store.bench.gate.GateMode;
import io.ankusa.store.bench.gate.GateReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code ankusa-store bench gate [GATE-OPTION…]}: the self-asserting gate benches ({@link
 * BenchGate}, whose parser reads the options, so they stay its own), which print their verdict
 * table (bench × backend × cell, p10, allowed, pass) and where the JSON and PNG went. Exit 0 when
 * every cell passes, 1 when one fails, 2 for a bad option, checked before anything runs.
 */
@Command(
    name = "gate",
    customSynopsis = "ankusa-store bench gate [-hV] [--verbose] [GATE-OPTION...]",
    description =
        "Run the self-asserting gate benches and print their verdict table (bench x backend x cell, p10,"
            + " allowed, pass) and where the JSON and PNG went; see docs/testing.md.",
    footer = {
      "Gate options, which the gate checks before anything runs:",
      "  --mode quick|full            how long each cell runs (default: quick)",
      "  --backend NAME[,NAME]        rocksdb, lmdb, memory (default: rocksdb)",
      "  --out DIR                    JSON and PNG (default: bench-results/gate-MODE)",
      "  --work DIR                   the stores measured (default: OUT/work)",
      "  --bench gauges|dispatch|all  which gate benches (default: all)",
      "  --aggregate single|sharded   the counters' aggregate (default: single)",
      "  --ingest-rate HOOKS_PER_S    the writer's rate in the dispatch bench's ingest cell; 0 leaves it out"
          + " (default: "
          + GateMode.DEFAULT_INGEST_PER_SECOND
          + ")"
    })
final class BenchGateCommand implements Callable<Integer> {
  @Unmatched List<String> gateOptions = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    BenchGate.Request request = BenchGate.parse(gateOptions.toArray(String[]::new), "all");
    BenchGate.Outcome outcome = BenchGate.run(request);
    PrintWriter out = spec.commandLine().getOut();
    GateReport.table(outcome.results()).forEach(out::println);
    for (Path f : outcome.files()) {
      out.println("wrote " + f.toAbsolutePath());
    }
    out.flush();
    return outcome.pass() ? 0 : AnkusaStore.FOUND_PROBLEMS;
  }
}
