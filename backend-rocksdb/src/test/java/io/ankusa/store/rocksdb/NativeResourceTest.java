package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.FileTrees;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing frees native resources (the engine contract: after close() every native resource is
 * gone): a thousand open/close cycles and ten thousand closed scans leave the open file descriptors
 * and the resident memory where they were, give or take a small slack. Linux only (/proc/self).
 */
class NativeResourceTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0), FamilySpec.plain("index"));

  @TempDir Path tempDir;
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();
  private Path dir;

  /**
   * The store lives on tmpfs when there is one: a thousand opens each fsync a new MANIFEST and
   * OPTIONS file, which on a VM disk would take minutes and measure nothing this test is about.
   */
  @Test
  void openCloseAndScansLeakNoFileDescriptorsOrMemory() throws Exception {
    Path shm = Path.of("/dev/shm");
    dir = Files.isDirectory(shm) && Files.isWritable(shm)
        ? Files.createTempDirectory(shm, "ankusa-native-") : tempDir.resolve("store");
    try {
      run();
    } finally {
      if (dir.startsWith(shm)) {
        FileTrees.deleteRecursively(dir);
      }
    }
  }

  private void run() throws Exception {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      Batch b = new Batch();
      for (int i = 0; i < 200; i++) {
        b.put("rows", new byte[] {(byte) i}, new byte[64]).merge("counts", new byte[] {(byte) (i % 7)}, 1);
      }
      s.write(b, Durability.SYNC);
    }
    // Warm up: the first cycles load classes and grow allocator arenas.
    cycle(50, 500);
    long fdsBefore = openFileDescriptors();
    long rssBefore = residentKiB();

    cycle(1_000, 10_000);

    long fdsAfter = openFileDescriptors();
    long rssAfter = residentKiB();
    assertThat(fdsAfter).as("open file descriptors after 1000 open/close cycles and 10000 scans (before: %d)", fdsBefore)
        .isLessThanOrEqualTo(fdsBefore + 8);
    // Generous: a leak of one memtable arena or block cache per cycle would be gigabytes.
    assertThat(rssAfter - rssBefore).as("resident memory growth in KiB (before: %d KiB)", rssBefore)
        .isLessThan(256 * 1024);
  }

  private void cycle(int opens, int scans) {
    int scansPerOpen = Math.max(1, scans / opens);
    for (int o = 0; o < opens; o++) {
      try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
        if (o % 20 == 0) {
          // Now and then a memtable to free; every cycle would make each reopen flush a WAL to L0.
          s.write(new Batch().merge("counts", new byte[] {1}, 1), Durability.NO_SYNC);
        }
        for (int i = 0; i < scansPerOpen; i++) {
          Direction d = i % 2 == 0 ? Direction.FORWARD : Direction.REVERSE;
          try (Scan scan = s.scan("rows", new byte[] {(byte) (i % 50)}, new byte[] {(byte) (i % 50 + 20)}, d)) {
            while (scan.hasNext()) {
              scan.next();
            }
          }
        }
        s.multiGet("counts", List.of(new byte[] {1}, new byte[] {99}));
        // Left open on purpose: closing the store must free them.
        Snapshot leftOpen = s.snapshot();
        leftOpen.scan("rows", new byte[0], null, Direction.FORWARD).hasNext();
        s.scan("index", new byte[0], null, Direction.REVERSE).hasNext();
      }
    }
  }

  private static long openFileDescriptors() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  private static long residentKiB() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException("no VmRSS in /proc/self/status");
  }
}
