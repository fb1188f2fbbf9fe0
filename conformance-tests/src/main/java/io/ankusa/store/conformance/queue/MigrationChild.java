package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.migration.Migrate;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The child JVM of {@link MigrationConformance}'s process-kill case: {@code MigrationChild FIXTURE
 * DIR STARTED_AT ROWS_PER_STEP PROGRESS_FILE} opens the format-2 store in {@code DIR} with the
 * format-3 families through the parent's fixture (recreated from its {@link ChildJvm} description,
 * so its options and {@code open} hold here too) and migrates it one committed step at a time,
 * appending {@code step N} to {@code PROGRESS_FILE} after each, until the parent kills it (SIGKILL)
 * or it appends {@code done}. Not for use outside the suite.
 */
public final class MigrationChild {
  private MigrationChild() {}

  public static void main(String[] args) throws IOException {
    BackendFixture fixture = ChildJvm.fixtureInChild(args[0]);
    Path dir = Path.of(args[1]);
    long startedAt = Long.parseLong(args[2]);
    int rowsPerStep = Integer.parseInt(args[3]);
    Path progress = Path.of(args[4]);
    try (Store store = fixture.open(dir, Format3.families())) {
      Migrate migrate =
          new Migrate(Format3.FORMAT, QueueConfig.defaults(), () -> startedAt, rowsPerStep);
      long step = 0;
      boolean finished = false;
      while (!finished) {
        finished = migrate.run(store, 1).finished();
        step++;
        Files.writeString(
            progress,
            "step " + step + "\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
      Files.writeString(
          progress,
          "done\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    }
  }
}
