package io.ankusa.store.cli;

import io.ankusa.store.conformance.queue.fixtures.FixtureMain;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ankusa-store fixture --format 2|3 OUT.tar.zst}: write a test fixture store. */
@Command(
    name = "fixture",
    description =
        "Write a small format-2 or format-3 store (three tenants incl. default; pending,"
            + " retrying, inflight, dead rows; archive obligations) packed as .tar.zst.")
final class FixtureCommand implements Callable<Integer> {
  @Option(names = "--format", required = true, description = "2 or 3")
  int format;

  @Option(
      names = "--backend",
      defaultValue = "rocksdb",
      description = "the engine to write, rocksdb or lmdb (default: ${DEFAULT-VALUE})")
  String backend;

  @Parameters(
      index = "0",
      paramLabel = "OUT.tar.zst",
      description = "the archive to write (a new file in an existing directory)")
  Path out;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (format != 2 && format != 3) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT, "--format must be 2 or 3, got " + format);
    }
    if (backend.equals("memory")) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT,
          "the memory backend keeps no files, so it has no"
              + " fixture to pack; pass --backend rocksdb or lmdb");
    }
    StoreProvider.named(backend);
    if (Files.isDirectory(out)) {
      throw new CommandInputException(
          FailureCause.ALREADY_EXISTS,
          out
              + " is an existing directory; the fixture is"
              + " one .tar.zst file: pass a file path that does not exist yet");
    }
    if (Files.exists(out)) {
      throw new CommandInputException(
          FailureCause.ALREADY_EXISTS,
          out
              + " already exists; the fixture never"
              + " overwrites a file: remove it or pass a new path");
    }
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new CommandInputException(
          Files.exists(parent) ? FailureCause.NOT_A_DIRECTORY : FailureCause.NO_SUCH_PATH,
          "cannot write "
              + out
              + ": "
              + parent
              + (Files.exists(parent) ? " is not a directory" : " does not exist"));
    }
    FixtureMain.write(format, out, backend);
    spec.commandLine()
        .getOut()
        .println("fixture: format " + format + " " + backend + " store written to " + out);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
