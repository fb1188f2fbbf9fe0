package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A committed {@code NO_SYNC} batch survives a kill -9 of the process (the capability {@code
 * durableAfterProcessKill}): a child JVM writes batches without ever syncing, reports each one
 * whose write returned, and is killed with SIGKILL mid-stream (while its map is also growing, and
 * its batches free overflow pages they wrote); after reopen — which the check at open accepts,
 * whatever the kill interrupted — every reported batch is present, whole, and the counter equals
 * the number of batches present.
 */
class ProcessKillDurabilityTest {
  static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0));
  private static final byte[] COUNT = {0};
  private static final int ROWS_PER_BATCH = 4;
  private static final int KILL_AFTER = 1_500;

  @TempDir Path dir;

  static byte[] key(int batch, int row) {
    return ByteBuffer.allocate(8).putInt(batch).putInt(row).array();
  }

  static byte[] value(int batch, int row) {
    byte[] v = new byte[200];
    ByteBuffer.wrap(v).putInt(batch).putInt(row);
    return v;
  }

  /**
   * Batch {@code n}: {@value #ROWS_PER_BATCH} rows and the counter; every fifth batch also puts a
   * 20 KB row and deletes it again (overflow pages the batch frees itself, so the file is often
   * shorter than its meta page counts when the kill comes).
   */
  static Batch batch(int n) {
    Batch b = new Batch();
    for (int r = 0; r < ROWS_PER_BATCH; r++) {
      b.put("rows", key(n, r), value(n, r));
    }
    if (n % 5 == 0) {
      b.put("rows", key(n, ROWS_PER_BATCH), new byte[20_000])
          .delete("rows", key(n, ROWS_PER_BATCH));
    }
    return b.merge("counters", COUNT, 1);
  }

  @Test
  void everyCommittedNoSyncBatchSurvivesSigkill() throws Exception {
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process child =
        ChildJvmLauncher.start(
            new ProcessBuilder(
                    ChildJvmLauncher.java(),
                    "-cp",
                    classpath,
                    KillableWriter.class.getName(),
                    dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD));
    int acknowledged = -1;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        acknowledged = Integer.parseInt(line.substring("committed ".length()));
        if (acknowledged >= KILL_AFTER) {
          child.destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no close, no sync
          break;
        }
      }
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(acknowledged)
        .as("the child must have written before being killed")
        .isGreaterThanOrEqualTo(KILL_AFTER);

    try (Store store =
        new LmdbStoreProvider()
            .open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)) {
      for (int n = 0; n <= acknowledged; n++) {
        for (int r = 0; r < ROWS_PER_BATCH; r++) {
          assertThat(store.get("rows", key(n, r)))
              .as("row %d of acknowledged batch %d", r, n)
              .isEqualTo(value(n, r));
        }
      }
      long rows = 0;
      try (Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
        while (scan.hasNext()) {
          scan.next();
          rows++;
        }
      }
      assertThat(rows % ROWS_PER_BATCH).as("no batch is half there").isZero();
      assertThat(store.counter("counters", COUNT))
          .as("the counter moved with the rows, atomically")
          .isEqualTo(rows / ROWS_PER_BATCH);
    }
  }
}
