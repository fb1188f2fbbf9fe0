package io.ankusa.store.cli;

import io.ankusa.store.bench.gate.BenchGate;
import io.ankusa.store.bench.gate.GateReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code ankusa-store bench gate|jmh …}: the self-asserting gate benches ({@code gate --mode
 * quick|full --backend NAME --out DIR}), which print their verdict table (bench × backend × cell, p10,
 * allowed, pass) and where the JSON and PNG went, or JMH ({@code jmh [JMH options]}). Bad arguments
 * of either are bad input (exit 2), checked before anything runs. See docs/testing.md.
 */
@Command(name = "bench", description = "Run the gate benches (bench gate --mode quick|full --backend rocksdb --out DIR)"
    + " or JMH (bench jmh [JMH options]); see docs/testing.md.")
final class BenchCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "gate|jmh", description = "which benches")
  String which;

  @Unmatched List<String> rest = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    String[] args = rest.toArray(String[]::new);
    switch (which) {
      case "gate":
        return gate(args);
      case "jmh":
        try {
          new CommandLineOptions(args); // JMH's own parser: its Main would exit the JVM on a bad option
        } catch (CommandLineOptionException e) {
          throw new CommandInputException(FailureCause.BAD_ARGUMENT, "bench jmh: " + e.getMessage(), e);
        }
        org.openjdk.jmh.Main.main(args);
        return 0;
      default:
        throw new CommandInputException(FailureCause.BAD_ARGUMENT, "bench takes 'gate' or 'jmh', not '" + which + "'");
    }
  }

  private int gate(String[] args) {
    BenchGate.Request request = BenchGate.parse(args, "all");
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
