package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store holds of its directory, counted in the process's open descriptors and memory maps
 * ({@code /proc/self}, so Linux only): nothing once it is closed, nothing after an open it refused,
 * one environment's worth across {@code reportWriteFailure}, and nothing after a reopen that failed
 * (the store is then closed, and the directory can be opened again).
 */
class ReleasedFilesTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0));
  private static final LmdbStoreProvider PROVIDER = new LmdbStoreProvider();

  @TempDir Path dir;

  @BeforeEach
  void linuxOnly() {
    assumeTrue(
        Files.isDirectory(Path.of("/proc/self/fd"))
            && Files.isRegularFile(Path.of("/proc/self/maps")),
        "counts descriptors and maps through /proc/self");
  }

  /** Descriptors and memory maps this process holds of files under {@link #dir}. */
  private long heldFiles() {
    try {
      Path real = dir.toRealPath();
      long n = 0;
      try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
        for (Path fd : fds) {
          try {
            if (Files.readSymbolicLink(fd).startsWith(real)) {
              n++;
            }
          } catch (IOException e) {
            // closed while we listed (the directory stream's own descriptor, say)
          }
        }
      }
      for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
        int path = line.indexOf('/');
        if (path >= 0 && line.substring(path).startsWith(real + "/")) {
          n++;
        }
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Store open() {
    return PROVIDER.open(dir, StoreOptions.defaults(), FAMILIES);
  }

  @Test
  void closeLetsGoOfEveryFileEvenWithScansAndSnapshotsOpen() {
    Store store = open();
    store.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.NO_SYNC);
    Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD);
    Snapshot snapshot = store.snapshot();
    assertThat(heldFiles()).as("while open").isPositive();
    store.close();
    assertThat(heldFiles()).as("after close").isZero();
    scan.close();
    snapshot.close();
  }

  @Test
  void anOpenRefusedAfterMappingTheFileLetsGoOfEveryFile() {
    open().close();
    assertThatThrownBy(
            () ->
                PROVIDER.open(
                    dir,
                    StoreOptions.defaults(),
                    List.of(FamilySpec.plain("rows"), FamilySpec.plain("counters"))))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("counters=true");
    assertThat(heldFiles()).isZero();
  }

  @Test
  void reportWriteFailureClosesTheEnvironmentItReplaces() {
    try (Store store = open()) {
      store.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC);
      long before = heldFiles();
      for (int i = 0; i < 3; i++) {
        store.reportWriteFailure(new IllegalStateException("test: a failed sync"));
      }
      assertThat(heldFiles()).as("after three reopens").isEqualTo(before);
      assertThat(store.get("rows", new byte[] {1})).containsExactly(1);
    }
    assertThat(heldFiles()).isZero();
  }

  @Test
  void aFailedReopenClosesTheStoreAndLetsGoOfTheDirectory() throws IOException {
    Path data = dir.resolve(LmdbEnvironment.DATA_FILE);
    Path aside = dir.resolve("data.mdb.aside");
    Store store = open();
    store.write(new Batch().put("rows", new byte[] {1}, new byte[] {7}), Durability.SYNC);
    // The mapped file moves aside (its inode stays mapped); what the reopen finds is not an LMDB
    // file.
    Files.move(data, aside);
    byte[] garbage = new byte[3 * 4096];
    Arrays.fill(garbage, (byte) 0x5a);
    Files.write(data, garbage);

    assertThatThrownBy(
            () -> store.reportWriteFailure(new IllegalStateException("test: a failed sync")))
        .isInstanceOf(StoreWriteFailedException.class)
        .hasMessageContaining(dir.toString())
        .hasMessageContaining("the store is closed");
    assertThatThrownBy(() -> store.get("rows", new byte[] {1}))
        .isInstanceOf(StoreClosedException.class);
    assertThat(heldFiles()).as("after the failed reopen").isZero();

    Files.move(aside, data, StandardCopyOption.REPLACE_EXISTING);
    try (Store again = open()) {
      store.close(); // the failed store's close must neither throw nor let go of the new store's
      // lock
      assertThat(again.get("rows", new byte[] {1})).containsExactly(7);
      assertThatThrownBy(this::open)
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("already open");
    }
    assertThat(heldFiles()).isZero();
  }
}
