package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A rough, single-threaded throughput measurement of the lmdb store through the SPI: point gets,
 * 100-key forward scans and durable (SYNC) one-put batches per second. Not a test and not a gate
 * (the benches own those): run it by hand with the test classpath, {@code java -cp … LmdbThroughput
 * [dir]}. Prints one line per figure.
 */
final class LmdbThroughput {
  private static final int KEYS = 100_000;

  private LmdbThroughput() {}

  public static void main(String[] args) throws IOException {
    Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("lmdb-throughput-");
    try (Store store =
        new LmdbStoreProvider()
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("rows")))) {
      for (int b = 0; b < KEYS / 1000; b++) {
        Batch batch = new Batch();
        for (int i = 0; i < 1000; i++) {
          batch.put("rows", key(b * 1000 + i), new byte[100]);
        }
        store.write(batch, Durability.NO_SYNC);
      }
      store.syncWal();
      for (int round = 0; round < 3; round++) {
        System.out.printf(
            "round %d: gets/s %,.0f  100-key scans/s %,.0f  SYNC batches/s %,.0f  NO_SYNC batches/s %,.0f%n",
            round,
            gets(store, 500_000),
            scans(store, 50_000),
            writes(store, 1_000, Durability.SYNC),
            writes(store, 50_000, Durability.NO_SYNC));
      }
    } finally {
      if (args.length == 0) {
        FileTrees.deleteRecursively(dir);
      }
    }
  }

  private static byte[] key(int i) {
    return ByteBuffer.allocate(8).putLong(i).array();
  }

  private static double gets(Store store, int n) {
    SplittableRandom random = new SplittableRandom(1);
    long found = 0;
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      found += store.get("rows", key(random.nextInt(KEYS))) == null ? 0 : 1;
    }
    return perSecond(n, start, found == n);
  }

  private static double scans(Store store, int n) {
    SplittableRandom random = new SplittableRandom(2);
    long entries = 0;
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      int from = random.nextInt(KEYS - 100);
      try (Scan scan = store.scan("rows", key(from), key(from + 100), Direction.FORWARD)) {
        while (scan.hasNext()) {
          scan.next();
          entries++;
        }
      }
    }
    return perSecond(n, start, entries == 100L * n);
  }

  private static double writes(Store store, int n, Durability durability) {
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      store.write(new Batch().put("rows", key(KEYS + i), new byte[100]), durability);
    }
    return perSecond(n, start, true);
  }

  private static double perSecond(int n, long start, boolean ok) {
    if (!ok) {
      throw new IllegalStateException("the measurement read back wrong data");
    }
    return n / ((System.nanoTime() - start) / 1e9);
  }
}
