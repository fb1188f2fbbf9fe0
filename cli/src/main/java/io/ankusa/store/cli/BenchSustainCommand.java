package io.ankusa.store.cli;

import io.ankusa.store.bench.sustain.SustainBench;
import io.ankusa.store.bench.sustain.SustainSettings;
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
 * {@code ankusa-store bench sustain [SUSTAIN-OPTION…]}: the sustained-throughput bench ({@link
 * SustainBench}, whose parser reads the options): the queue delivering what it ingests for minutes,
 * per backend, and the highest rate it sustains. Prints the table and where the text, JSON and PNG
 * went. Exit 0, or 2 for a bad option, checked before anything runs.
 */
@Command(
    name = "sustain",
    customSynopsis = "ankusa-store bench sustain [-hV] [--verbose] [SUSTAIN-OPTION...]",
    description =
        "Run the sustained-throughput bench: producers at a rate (or flat out) against the queue with"
            + " sinks that deliver at once, every second's rates, backlog and engine figures, and each backend's highest"
            + " sustainable rate; see docs/testing.md.",
    footer = {
      "Sustain options, which the bench checks before anything runs:",
      "  --backend NAME[,NAME]   rocksdb, lmdb, memory, postgres (default: rocksdb,lmdb,memory)",
      "  --rate N|max            one run per backend at N hooks/s, or flat out; without it, the search",
      "                          for each backend's highest sustainable rate",
      "  --seconds N             each run's length (default: 60)",
      "  --tenants N             tenants of the workload (default: 200)",
      "  --producers N           producer threads (default: 4)",
      "  --probes N              fixed-rate runs of the search per backend (default: 4)",
      "  --out DIR               text, JSON and PNG (default: bench-results/sustain)"
    })
final class BenchSustainCommand implements Callable<Integer> {
  @Unmatched List<String> options = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    SustainBench.Report report =
        SustainBench.run(SustainSettings.parse(options.toArray(String[]::new)));
    PrintWriter out = spec.commandLine().getOut();
    out.print(report.text());
    for (Path f : report.files()) {
      out.println("wrote " + f.toAbsolutePath());
    }
    out.flush();
    return 0;
  }
}
