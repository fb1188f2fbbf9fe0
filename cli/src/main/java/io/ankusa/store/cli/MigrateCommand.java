package io.ankusa.store.cli;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.migration.Migrate;
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

/**
 * {@code ankusa-store migrate DIR [--dry-run]}: bring a store to this release's format. It writes
 * only into a directory that holds a store of {@code --backend} in a format it migrates, checked
 * read-only first ({@link StoreDirectory#openForMigration}); the dry run never writes.
 */
@Command(
    name = "migrate",
    description = "Migrate a store to format 3 (back it up first: format 3 is forward-only).")
final class MigrateCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "the store directory")
  Path dir;

  @Option(
      names = "--backend",
      defaultValue = "rocksdb",
      description = "the store's engine (default: ${DEFAULT-VALUE})")
  String backend;

  @Option(names = "--dry-run", description = "list the steps without changing anything")
  boolean dryRun;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Migrate migrate = new Migrate(QueueConfig.defaults());
    if (dryRun) {
      try (Store store = StoreDirectory.openMigratable(dir, backend)) {
        List<String> plan = migrate.dryRun(store);
        out.println(
            plan.isEmpty()
                ? "migrate " + dir + ": nothing to do (format 3)"
                : "migrate " + dir + " would run:");
        plan.forEach(line -> out.println("  " + line));
      }
      out.flush();
      return 0;
    }
    try (Store store = StoreDirectory.openForMigration(dir, backend)) {
      if (store == null) {
        out.println("migrate " + dir + ": nothing to do (format " + Format3.FORMAT + ")");
      } else {
        Migrate.Result r = migrate.run(store);
        out.printf(
            "migrate %s: format %d -> %d, %,d rows in %,d steps, %.1f s%n",
            dir, r.fromFormat(), r.toFormat(), r.rows(), r.steps(), r.nanos() / 1e9);
      }
    }
    out.flush();
    return 0;
  }
}
