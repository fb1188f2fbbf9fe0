package io.ankusa.store.bench.open;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the lmdb backend's check of {@code data.mdb} at open costs: a store of {@code --keys}
 * entries (16-byte keys in random order, 100-byte random values, one family) is opened and closed
 * through the SPI, which walks every page its newest meta page reaches before LMDB maps the file,
 * and through raw lmdbjava (the same environment and databases, no check), and read once by a full
 * scan through the SPI; each {@code --rounds} times, alternating, after one first SPI open (the
 * check's code still interpreted, as in a service that opens its store once). Prints the first
 * open, the medians, the open's excess over the raw open (the check, and the backend's own small
 * open work), and that excess as a share of one full scan. The file is in the page cache (it was
 * just written); a cold open also reads every reached page from disk. Not part of {@code mvn
 * verify}:
 *
 * <pre>{@code
 * java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar \
 *   io.ankusa.store.bench.open.OpenCheckCost --keys 1000000 --rounds 7
 * }</pre>
 *
 * <p>Writes {@code OUT/open-check.txt} (default {@code bench-results/open-check}).
 */
public final class OpenCheckCost {
  private static final Logger LOG = LoggerFactory.getLogger(OpenCheckCost.class);
  private static final String FAMILY = "rows";
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain(FAMILY));

  private OpenCheckCost() {}

  public static void main(String[] args) throws Exception {
    int keys = 1_000_000;
    int rounds = 7;
    Path out = Path.of("bench-results", "open-check");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--keys" -> keys = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        default ->
            throw new IllegalArgumentException(
                "unknown argument '"
                    + args[i]
                    + "'; usage: OpenCheckCost"
                    + " [--keys N] [--rounds R] [--out DIR]");
      }
    }
    Path dir = out.resolve("store");
    FileTrees.deleteRecursively(dir);
    write(dir, keys);
    long first = spiOpen(dir);
    long[] spiOpen = new long[rounds];
    long[] rawOpen = new long[rounds];
    long[] scan = new long[rounds];
    for (int r = 0; r < rounds; r++) {
      rawOpen[r] = rawOpen(dir);
      spiOpen[r] = spiOpen(dir);
      scan[r] = scan(dir, keys);
    }
    long fileBytes = Files.size(dir.resolve("data.mdb"));
    double spi = median(spiOpen) / 1e6;
    double raw = median(rawOpen) / 1e6;
    double read = median(scan) / 1e6;
    String text =
        String.format(
            java.util.Locale.ROOT,
            "lmdb open with the check of data.mdb, %d keys (%d bytes of file),"
                + " median of %d rounds%n  first SPI open + close:  %8.1f ms (the check's code not yet compiled)%n"
                + "  SPI open + close:        %8.1f ms%n  raw lmdbjava open + close: %6.1f ms%n"
                + "  one full scan (SPI):     %8.1f ms%n  open's excess over raw:  %8.1f ms = %.2f of one full scan%n"
                + "  load average: %s%n",
            keys,
            fileBytes,
            rounds,
            first / 1e6,
            spi,
            raw,
            read,
            spi - raw,
            (spi - raw) / read,
            Files.readString(Path.of("/proc/loadavg")).strip());
    System.out.print(text);
    Files.createDirectories(out);
    Files.writeString(out.resolve("open-check.txt"), text, StandardCharsets.UTF_8);
    FileTrees.deleteRecursively(dir);
  }

  private static void write(Path dir, int keys) {
    SplittableRandom random = new SplittableRandom(42);
    try (Store store = BenchStores.open("lmdb", dir, FAMILIES)) {
      for (int from = 0; from < keys; from += 10_000) {
        Batch b = new Batch();
        for (int i = from; i < Math.min(keys, from + 10_000); i++) {
          byte[] value = new byte[100];
          random.nextBytes(value);
          b.put(FAMILY, key(i), value);
        }
        store.write(b, Durability.NO_SYNC);
      }
      store.syncWal();
    }
    LOG.info("wrote {} keys to {}", keys, dir);
  }

  private static byte[] key(int i) {
    return ByteBuffer.allocate(16).putLong(0x6b65792d6b65792dL).putLong(Long.reverse(i)).array();
  }

  private static long spiOpen(Path dir) {
    long start = System.nanoTime();
    try (Store store = BenchStores.open("lmdb", dir, FAMILIES)) {
      store.capabilities();
    }
    return System.nanoTime() - start;
  }

  /** The same environment and databases opened by lmdbjava alone: no check. */
  private static long rawOpen(Path dir) {
    long start = System.nanoTime();
    try (Env<byte[]> env =
        Env.create(ByteArrayProxy.PROXY_BA)
            .setMapSize(4L << 30)
            .setMaxDbs(2)
            .open(dir.toFile(), EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOTLS)) {
      Dbi<byte[]> rows = env.openDbi(FAMILY);
      Dbi<byte[]> meta = env.openDbi("ankusa.meta");
      rows.close();
      meta.close();
    }
    return System.nanoTime() - start;
  }

  private static long scan(Path dir, int keys) {
    try (Store store = BenchStores.open("lmdb", dir, FAMILIES)) {
      long start = System.nanoTime();
      long n = 0;
      try (Scan scan = store.scan(FAMILY, new byte[0], null, Direction.FORWARD)) {
        while (scan.hasNext()) {
          scan.next();
          n++;
        }
      }
      long took = System.nanoTime() - start;
      if (n != keys) {
        throw new IllegalStateException("the scan read " + n + " of " + keys + " keys");
      }
      return took;
    }
  }

  private static double median(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
