package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The capability {@code durableAfterProcessKill}: a child JVM writes, acknowledging on stdout each
 * batch only after a {@code SYNC} write (even keys) or a {@code NO_SYNC} write followed by a
 * returned {@code syncWal()} (odd keys) — and is killed with SIGKILL mid-stream. Every acknowledged
 * batch, rows and counter, is there after reopening.
 */
class ProcessKillDurabilityTest {
  static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));
  private static final byte[] TOTAL = {0};

  @TempDir Path dir;

  @Test
  void acknowledgedWritesSurviveKillDashNine() throws Exception {
    for (int round = 0; round < 3; round++) {
      int acked = runChildAndKill(200 + round * 150);
      try (Store s = new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES)) {
        long total = s.counter("counts", TOTAL);
        assertThat(total)
            .as("round %d: counter covers every acknowledged batch", round)
            .isGreaterThanOrEqualTo(acked);
        for (int i = 0; i < acked; i++) {
          assertThat(s.get("rows", key(i)))
              .as("round %d: acknowledged row %d", round, i)
              .isNotNull();
        }
        for (long i = 0; i < total; i++) {
          assertThat(s.get("rows", key((int) i)))
              .as("round %d: counter and rows moved together, row %d", round, i)
              .isNotNull();
        }
      }
    }
  }

  /**
   * Starts the child, waits for {@code killAfter} acknowledgements, kills it; returns the last ack
   * + 1.
   */
  private int runChildAndKill(int killAfter) throws Exception {
    Process child =
        ChildJvmLauncher.start(
            new ProcessBuilder(
                    ChildJvmLauncher.java(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    ProcessKillDurabilityTest.class.getName(),
                    dir.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD));
    int acked = -1;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("acked ")) {
          int n = Integer.parseInt(line.substring(6));
          acked = Math.max(acked, n);
          if (n >= killAfter) {
            child.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no clean close
            break;
          }
        }
      }
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child exited").isTrue();
    }
    assertThat(acked)
        .as("the child acknowledged writes before it was killed")
        .isGreaterThanOrEqualTo(killAfter);
    return acked + 1;
  }

  static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  /** The child: resumes after the rows already there and writes until killed. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (Store s =
        new RocksDbStoreProvider().open(Path.of(args[0]), StoreOptions.defaults(), FAMILIES)) {
      int i = (int) s.counter("counts", TOTAL);
      while (true) {
        Batch b = new Batch().put("rows", key(i), new byte[100]).merge("counts", TOTAL, 1);
        if (i % 2 == 0) {
          s.write(b, Durability.SYNC);
        } else {
          s.write(b, Durability.NO_SYNC);
          s.syncWal();
        }
        out.println("acked " + i);
        i++;
      }
    }
  }
}
