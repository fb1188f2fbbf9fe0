package io.ankusa.store.cli;

import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ankusa-store verify DIR}: the offline fsck. */
@Command(
    name = "verify",
    description =
        "Check every invariant of a format-3 store; exit 0 when clean, 1 with a report of each breach.")
final class VerifyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "the store directory")
  Path dir;

  @Option(
      names = "--backend",
      defaultValue = "rocksdb",
      description = "the store's engine (default: ${DEFAULT-VALUE})")
  String backend;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    try (Store store = StoreDirectory.openReadOnly(dir, backend)) {
      return report(store, spec.commandLine().getOut());
    }
  }

  /** Verifies {@code store} on a snapshot and prints the verdict; returns the exit code. */
  static int report(Store store, PrintWriter out) {
    List<QueueVerifier.Breach> breaches;
    try (Snapshot snapshot = store.snapshot()) {
      breaches = QueueVerifier.verify(snapshot);
    }
    if (breaches.isEmpty()) {
      out.println(
          "verify "
              + store.directory()
              + ": clean (format 3, sentinels, counters equal a fold,"
              + " every due row has a marker, every index row has its delivery row and hook, ordinals dense and unique)");
      out.flush();
      return 0;
    }
    out.println(
        "verify "
            + store.directory()
            + ": "
            + breaches.size()
            + " breach"
            + (breaches.size() == 1 ? "" : "es"));
    for (QueueVerifier.Breach b : breaches) {
      out.println("  - " + b);
    }
    out.flush();
    return AnkusaStore.FOUND_PROBLEMS;
  }
}
