package io.ankusa.store.cli;

import io.ankusa.store.conformance.ModelReplay;
import io.ankusa.store.conformance.ModelRound;
import io.ankusa.store.conformance.OpLog;
import io.ankusa.store.conformance.queue.ProviderFixture;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store replay --backend NAME OPS_FILE}: re-runs an op log (what a failing {@code
 * modelBasedRandomBatches} writes, or one written by hand; the format is in docs/testing.md)
 * against a fresh store of the backend in a temporary directory, next to the suite's reference
 * model, and prints the per-step history: each step's ops (and the flush, compaction or reopen done
 * before them), then what the backend answered to each check, with the model's answer where they
 * differ. The store opens under the op log's {@code options} line (its set's name and the
 * properties it changes), if any. Histories of two backends on one file can be diffed. Exit 0 when
 * the backend agrees with the model at every step, 1 at the first difference, 2 for a missing or
 * unreadable file, a bad line or an unknown backend.
 */
@Command(
    name = "replay",
    description =
        "Re-run an op log against a backend and the reference model; print the per-step history.")
final class ReplayCommand implements Callable<Integer> {
  @Option(
      names = "--backend",
      required = true,
      description = "rocksdb, lmdb, postgres, memory, or any backend on the classpath")
  String backend;

  @Parameters(
      index = "0",
      paramLabel = "OPS_FILE",
      description = "the op log (a failing model property names its path)")
  Path file;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    StoreProvider.named(backend); // an unknown backend is bad input
    if (!Files.isRegularFile(file)) {
      throw new CommandInputException(
          Files.exists(file) ? FailureCause.BAD_ARGUMENT : FailureCause.NO_SUCH_PATH,
          file + (Files.exists(file) ? " is not a file; pass an op log file" : " does not exist"));
    }
    OpLog.Log log = OpLog.readLog(file);
    List<ModelRound> rounds = log.rounds();
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "replay of "
            + file
            + " ("
            + rounds.size()
            + " steps) on backend "
            + backend
            + " under "
            + log.optionSet()
            + (log.optionSet().options().properties().isEmpty()
                ? ""
                : " " + log.optionSet().options().properties()));
    AssertionError difference =
        ModelReplay.replay(
            new ProviderFixture(backend).withOptions(log.optionSet()), rounds, out::println);
    if (difference == null) {
      out.println("RESULT: " + backend + " agrees with the model at every step");
      out.flush();
      return 0;
    }
    out.println(
        "RESULT: "
            + backend
            + " differs from the model: "
            + difference.getMessage().lines().findFirst().orElse(""));
    out.flush();
    return AnkusaStore.FOUND_PROBLEMS;
  }
}
