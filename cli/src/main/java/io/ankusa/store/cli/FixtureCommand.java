package io.ankusa.store.cli;

import io.ankusa.store.conformance.fixtures.FixtureMain;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ankusa-store fixture --format 2|3 OUT.tar.zst}: write a test fixture store. */
@Command(name = "fixture", description = "Write a small format-2 or format-3 store (three tenants incl. default; pending,"
    + " retrying, inflight, dead rows; archive obligations) packed as .tar.zst.")
final class FixtureCommand implements Callable<Integer> {
  @Option(names = "--format", required = true, description = "2 or 3")
  int format;

  @Option(names = "--backend", defaultValue = "rocksdb", description = "the engine to write (default: ${DEFAULT-VALUE})")
  String backend;

  @Parameters(index = "0", paramLabel = "OUT.tar.zst", description = "the archive to write")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    FixtureMain.write(format, out, backend);
    spec.commandLine().getOut().println("fixture: format " + format + " " + backend + " store written to " + out);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
