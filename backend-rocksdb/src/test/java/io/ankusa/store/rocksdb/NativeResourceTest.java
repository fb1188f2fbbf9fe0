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
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing frees native resources (the engine contract: after close() every native resource is
 * gone): over 1 200 open/close cycles and 12 000 closed scans the open file descriptors stay where
 * they were, and once the allocator has settled the resident memory stops growing, give or take a
 * small slack. Linux only (/proc/self).
 */
class NativeResourceTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0), FamilySpec.plain("index"));

  private static final int SETTLE_CYCLES = 500;
  private static final int ROUNDS = 7;
  private static final int CYCLES_PER_ROUND = 100;
  private static final long MAX_KIB_PER_CYCLE = 24;
  private static final int GARBAGE_BYTES = 32 * 1024;
  /** Keeps the garbage loop from being optimised away. */
  private static volatile int garbageSink;

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
    touchCommittedHeap();
    long fdsBefore = openFileDescriptors();

    // Settle: the first few hundred cycles grow malloc's arenas and touch heap regions, by 50 to
    // 240 MiB depending on the collector and the heap size, and then stop. That growth is not a
    // leak, and a bound on the total cannot tell the two apart: a bound of 256 MiB failed a clean
    // run on a CI machine, while an options object leaked on every close grew the total less than
    // a clean run did. What tells them apart is the slope afterwards.
    cycle(SETTLE_CYCLES, SETTLE_CYCLES * 10);

    long[] growthPerRound = new long[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long rss = residentKiB();
      long jvm = jvmCommittedKiB();
      cycle(CYCLES_PER_ROUND, CYCLES_PER_ROUND * 10);
      growthPerRound[r] = residentKiB() - rss - Math.max(0, jvmCommittedKiB() - jvm);
    }

    long fdsAfter = openFileDescriptors();
    int cycles = SETTLE_CYCLES + ROUNDS * CYCLES_PER_ROUND;
    assertThat(fdsAfter).as("open file descriptors after %d open/close cycles and %d scans (before: %d)",
            cycles, cycles * 10, fdsBefore)
        .isLessThanOrEqualTo(fdsBefore + 8);
    // A leak grows every round by the same amount; allocator noise jumps by up to about 12 MiB in
    // one round and gives it back in another. The median round is robust to the jumps. Clean runs
    // measured 5 to 12 KiB per cycle (median round, under G1, Parallel and Serial GC and a 512 MiB
    // heap); leaving each family's options unfreed on close measured about 45 KiB per cycle. What
    // the JVM itself committed more (heap, metaspace, code cache) is subtracted per round: it is
    // not the engine's.
    long[] sorted = growthPerRound.clone();
    Arrays.sort(sorted);
    long medianKiBPerCycle = sorted[ROUNDS / 2] / CYCLES_PER_ROUND;
    assertThat(medianKiBPerCycle)
        .as("resident memory growth in KiB per open/close cycle, median round; growth per round of %d cycles: %s KiB",
            CYCLES_PER_ROUND, Arrays.toString(growthPerRound))
        .isLessThan(MAX_KIB_PER_CYCLE);
  }

  /**
   * The heap the JVM has committed is not all resident yet: each young region counts in VmRSS
   * only once it is first written, and a thousand cycles' garbage writes a few hundred MiB of
   * them. That growth is the JVM's, not the engine's. Allocating small garbage (below the
   * humongous size, so it goes through the young regions) twice the committed heap touches most
   * of them before the cycles start, so less of it lands in the rounds.
   */
  private static void touchCommittedHeap() {
    long committed = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
    for (long written = 0; written < 2 * committed; written += GARBAGE_BYTES) {
      byte[] garbage = new byte[GARBAGE_BYTES];
      garbage[GARBAGE_BYTES - 1] = 1;
      garbageSink ^= garbage[GARBAGE_BYTES - 1];
    }
  }

  /** Heap and non-heap committed by the JVM plus its direct and mapped buffers, in KiB. */
  private static long jvmCommittedKiB() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long buffers = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      buffers += pool.getMemoryUsed();
    }
    return (memory.getHeapMemoryUsage().getCommitted() + memory.getNonHeapMemoryUsage().getCommitted() + buffers) / 1024;
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
