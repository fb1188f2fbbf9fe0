package io.ankusa.store.cli;

import io.ankusa.store.bench.gate.BenchGate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Unmatched;

/**
 * {@code ankusa-store bench gate|jmh …}: the self-asserting gate benches ({@code gate --mode
 * quick|full --backend NAME --out DIR}) or JMH ({@code jmh [JMH options]}). See docs/testing.md.
 */
@Command(name = "bench", description = "Run the gate benches (bench gate --mode quick|full --backend rocksdb --out DIR)"
    + " or JMH (bench jmh [JMH options]); see docs/testing.md.")
final class BenchCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "gate|jmh", description = "which benches")
  String which;

  @Unmatched List<String> rest = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    String[] args = rest.toArray(String[]::new);
    switch (which) {
      case "gate":
        return BenchGate.run(args);
      case "jmh":
        org.openjdk.jmh.Main.main(args);
        return 0;
      default:
        throw new IllegalArgumentException("bench takes 'gate' or 'jmh', not '" + which + "'");
    }
  }
}
