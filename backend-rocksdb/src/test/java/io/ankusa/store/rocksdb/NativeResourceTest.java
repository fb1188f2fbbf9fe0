package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
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
 *
 * <p>The cycles run in a child JVM of their own, with a fixed heap touched in full at start ({@code
 * -Xms} = {@code -Xmx}, {@code -XX:+AlwaysPreTouch}). In the test JVM, resident memory also counted
 * heap regions touched for the first time during the rounds: how many depended on what earlier test
 * classes had left the heap at, so after {@code RocksDbStoreTest} in the same JVM a clean engine
 * measured a steady 400 KiB per cycle in some runs and under 12 KiB in others. A fresh JVM whose
 * whole heap is resident from the start leaves only the engine's and the JVM's own non-heap memory
 * to grow, whatever ran before and in whatever order.
 */
class NativeResourceTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(
          FamilySpec.plain("rows"), FamilySpec.counters("counts", 0), FamilySpec.plain("index"));

  private static final int SETTLE_CYCLES = 500;
  private static final int ROUNDS = 7;
  private static final int CYCLES_PER_ROUND = 100;
  private static final long MAX_KIB_PER_CYCLE = 16;

  /** The child's heap: fixed, and resident in full before the first cycle. */
  private static final String CHILD_HEAP = "256m";

  private static final String FDS = "fds ";
  private static final String GROWTH = "growth-kib-per-round ";

  @TempDir Path tempDir;

  /**
   * The store lives on tmpfs when there is one: a thousand opens each fsync a new MANIFEST and
   * OPTIONS file, which on a VM disk would take minutes and measure nothing this test is about.
   */
  @Test
  void openCloseAndScansLeakNoFileDescriptorsOrMemory() throws Exception {
    Path shm = Path.of("/dev/shm");
    Path dir =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "ankusa-native-")
            : tempDir.resolve("store");
    try {
      check(
          ChildJvmRun.output(
              Cycles.class,
              List.of("-Xms" + CHILD_HEAP, "-Xmx" + CHILD_HEAP, "-XX:+AlwaysPreTouch"),
              300,
              dir.toString()));
    } finally {
      if (dir.startsWith(shm)) {
        FileTrees.deleteRecursively(dir);
      }
    }
  }

  private static void check(String output) {
    long[] fds = numbersAfter(output, FDS);
    long[] growthPerRound = numbersAfter(output, GROWTH);
    assertThat(fds)
        .as("the child's file descriptors, before and after; its output:%n%s", output)
        .hasSize(2);
    assertThat(growthPerRound).as("the child's rounds; its output:%n%s", output).hasSize(ROUNDS);
    int cycles = SETTLE_CYCLES + ROUNDS * CYCLES_PER_ROUND;
    assertThat(fds[1])
        .as(
            "open file descriptors after %d open/close cycles and %d scans (before: %d)",
            cycles, cycles * 10, fds[0])
        .isLessThanOrEqualTo(fds[0] + 8);
    // A leak grows every round by the same amount; allocator noise jumps by up to about 8 MiB in
    // one
    // round and gives it back in another. The median round is robust to the jumps. In the child,
    // clean runs measured under 1 KiB per cycle (median round); leaving each family's options
    // unfreed on close measured 43 KiB per cycle. What the JVM itself committed more (metaspace,
    // code cache, buffers) is subtracted per round: it is not the engine's.
    long[] sorted = growthPerRound.clone();
    Arrays.sort(sorted);
    long medianKiBPerCycle = sorted[ROUNDS / 2] / CYCLES_PER_ROUND;
    assertThat(medianKiBPerCycle)
        .as(
            "resident memory growth in KiB per open/close cycle, median round; growth per round of %d cycles: %s KiB",
            CYCLES_PER_ROUND, Arrays.toString(growthPerRound))
        .isLessThan(MAX_KIB_PER_CYCLE);
  }

  /**
   * The numbers on the child's output line that starts with {@code prefix}; none if there is no
   * such line.
   */
  private static long[] numbersAfter(String output, String prefix) {
    return output
        .lines()
        .filter(l -> l.startsWith(prefix))
        .findFirst()
        .map(
            l ->
                Arrays.stream(l.substring(prefix.length()).trim().split(" "))
                    .mapToLong(Long::parseLong)
                    .toArray())
        .orElse(new long[0]);
  }

  /**
   * The child: warms up, settles, runs the rounds, and prints the descriptors and each round's
   * growth.
   */
  static final class Cycles {
    public static void main(String[] args) throws Exception {
      new Cycles(Path.of(args[0])).run();
    }

    private final RocksDbStoreProvider provider = new RocksDbStoreProvider();
    private final Path dir;

    private Cycles(Path dir) {
      this.dir = dir;
    }

    private void run() throws Exception {
      try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
        Batch b = new Batch();
        for (int i = 0; i < 200; i++) {
          b.put("rows", new byte[] {(byte) i}, new byte[64])
              .merge("counts", new byte[] {(byte) (i % 7)}, 1);
        }
        s.write(b, Durability.SYNC);
      }
      // Warm up: the first cycles load classes and grow allocator arenas.
      cycle(50, 500);
      long fdsBefore = openFileDescriptors();

      // Settle: the first few hundred cycles grow malloc's arenas, by tens of MiB, and then stop.
      // That growth is not a leak, and a bound on the total cannot tell the two apart: a bound of
      // 256 MiB failed a clean run on a CI machine, while an options object leaked on every close
      // grew the total less than a clean run did. What tells them apart is the slope afterwards.
      cycle(SETTLE_CYCLES, SETTLE_CYCLES * 10);

      long[] growthPerRound = new long[ROUNDS];
      for (int r = 0; r < ROUNDS; r++) {
        long rss = residentKiB();
        long jvm = jvmCommittedKiB();
        cycle(CYCLES_PER_ROUND, CYCLES_PER_ROUND * 10);
        growthPerRound[r] = residentKiB() - rss - Math.max(0, jvmCommittedKiB() - jvm);
      }
      System.out.println(FDS + fdsBefore + " " + openFileDescriptors());
      StringBuilder line = new StringBuilder(GROWTH);
      for (long g : growthPerRound) {
        line.append(g).append(' ');
      }
      System.out.println(line.toString().trim());
    }

    /** Heap and non-heap committed by the JVM plus its direct and mapped buffers, in KiB. */
    private static long jvmCommittedKiB() {
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      long buffers = 0;
      for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
        buffers += pool.getMemoryUsed();
      }
      return (memory.getHeapMemoryUsage().getCommitted()
              + memory.getNonHeapMemoryUsage().getCommitted()
              + buffers)
          / 1024;
    }

    private void cycle(int opens, int scans) {
      int scansPerOpen = Math.max(1, scans / opens);
      for (int o = 0; o < opens; o++) {
        try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
          if (o % 20 == 0) {
            // Now and then a memtable to free; every cycle would make each reopen flush a WAL to
            // L0.
            s.write(new Batch().merge("counts", new byte[] {1}, 1), Durability.NO_SYNC);
          }
          for (int i = 0; i < scansPerOpen; i++) {
            Direction d = i % 2 == 0 ? Direction.FORWARD : Direction.REVERSE;
            try (Scan scan =
                s.scan(
                    "rows", new byte[] {(byte) (i % 50)}, new byte[] {(byte) (i % 50 + 20)}, d)) {
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
}
