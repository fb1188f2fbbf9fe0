package io.ankusa.store.bench.compare;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.JsonText;
import io.ankusa.store.bench.jmh.BenchKeys;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB, LMDB, PostgreSQL (an embedded server, over JDBC on the loopback) and etcd (a local
 * 3-member cluster, {@link BenchStores}: every write a consensus round) side by side through the
 * SPI, in one run: point gets/s, 100-key scans/s and durable ({@code SYNC}) batches/s of 16 puts,
 * over {@value #KEYS} loaded keys, one thread. Each figure is the median of {@value #ROUNDS} timed
 * rounds; the engines alternate round by round so a noisy minute on a shared machine hits them all.
 * After the figures, each engine's ratio to the first one.
 *
 * <pre>
 * EngineComparison [--seconds S] [--out DIR] [--work DIR] [--backends rocksdb,lmdb,postgres,etcd]
 * </pre>
 */
public final class EngineComparison {
  private static final Logger LOG = LoggerFactory.getLogger(EngineComparison.class);
  static final int KEYS = 100_000;
  static final int ROUNDS = 3;
  static final int SCAN = 100;
  static final int SYNC_BATCH = 16;

  private EngineComparison() {}

  public static void main(String[] args) throws IOException {
    double seconds = 2;
    Path out = Path.of("bench-results", "engine-comparison");
    Path work = null;
    List<String> backends = List.of("rocksdb", "lmdb", "postgres", "etcd");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seconds":
          seconds = Double.parseDouble(args[++i]);
          break;
        case "--out":
          out = Path.of(args[++i]);
          break;
        case "--work":
          work = Path.of(args[++i]);
          break;
        case "--backends":
          backends = Arrays.asList(args[++i].split(","));
          break;
        default:
          throw new IllegalArgumentException(
              "unknown argument '"
                  + args[i]
                  + "'; usage: EngineComparison [--seconds S] [--out DIR] [--work DIR] [--backends rocksdb,lmdb,postgres,etcd]");
      }
    }
    if (work == null) {
      work = out.resolve("work");
    }
    Map<String, Map<String, Double>> figures = compare(backends, work, (long) (seconds * 1e9));
    Files.createDirectories(out);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "note",
        "SPI, one thread, "
            + KEYS
            + " keys of 16 B with 100 B values; median of "
            + ROUNDS
            + " rounds of "
            + seconds
            + " s; engines alternate round by round");
    json.put("figures", figures);
    Path file = out.resolve("engine-comparison.json");
    Files.writeString(file, JsonText.of(json), StandardCharsets.UTF_8);
    LOG.info("wrote {}", file.toAbsolutePath());
  }

  /** Measures every backend; returns figure -> backend -> operations per second. */
  static Map<String, Map<String, Double>> compare(
      List<String> backends, Path work, long roundNanos) {
    byte[][] keys = BenchKeys.keys(KEYS);
    Map<String, Store> stores = new LinkedHashMap<>();
    Map<String, Map<String, List<Double>>> samples = new LinkedHashMap<>();
    try {
      for (String b : backends) {
        Path dir = work.resolve(BenchStores.requireBackend(b));
        FileTrees.deleteRecursively(dir);
        Store s = BenchStores.open(b, dir, List.of(FamilySpec.plain("bench")));
        stores.put(b, s);
        for (int from = 0; from < KEYS; from += 1000) {
          Batch batch = new Batch();
          for (int i = from; i < Math.min(KEYS, from + 1000); i++) {
            batch.put("bench", keys[i], BenchKeys.value(i));
          }
          s.write(batch, Durability.NO_SYNC);
        }
        s.syncWal();
      }
      SplittableRandom random = new SplittableRandom(7);
      for (int round = 0; round < ROUNDS + 1; round++) {
        for (Map.Entry<String, Store> e : stores.entrySet()) {
          Store s = e.getValue();
          Map<String, List<Double>> mine =
              samples.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>());
          double gets =
              rate(
                  roundNanos,
                  n -> {
                    return s.get("bench", keys[random.nextInt(KEYS)]).length;
                  });
          double scans =
              rate(
                  roundNanos,
                  n -> {
                    int from = random.nextInt(KEYS - SCAN);
                    int sum = 0;
                    try (Scan scan =
                        s.scan("bench", keys[from], keys[from + SCAN], Direction.FORWARD)) {
                      while (scan.hasNext()) {
                        sum += scan.next().value().length;
                      }
                    }
                    return sum;
                  });
          byte[] value = BenchKeys.value(round);
          double syncs =
              rate(
                  roundNanos,
                  n -> {
                    Batch b = new Batch();
                    for (int i = 0; i < SYNC_BATCH; i++) {
                      b.put("bench", keys[random.nextInt(KEYS)], value);
                    }
                    s.write(b, Durability.SYNC);
                    return 1;
                  });
          if (round == 0) {
            continue; // warm-up round
          }
          mine.computeIfAbsent("gets/s", k -> new ArrayList<>()).add(gets);
          mine.computeIfAbsent("100-key scans/s", k -> new ArrayList<>()).add(scans);
          mine.computeIfAbsent("SYNC batches/s (16 puts)", k -> new ArrayList<>()).add(syncs);
        }
      }
    } finally {
      stores.values().forEach(Store::close);
      backends.forEach(b -> FileTrees.deleteRecursively(work.resolve(b)));
    }
    Map<String, Map<String, Double>> figures = new LinkedHashMap<>();
    samples.forEach(
        (backend, byFigure) ->
            byFigure.forEach(
                (figure, values) ->
                    figures
                        .computeIfAbsent(figure, f -> new LinkedHashMap<>())
                        .put(backend, median(values))));
    StringBuilder header = new StringBuilder(String.format("%-26s", "figure"));
    backends.forEach(b -> header.append(String.format(" %14s", b)));
    backends
        .subList(1, backends.size())
        .forEach(b -> header.append(String.format(" %16s", b + "/" + backends.get(0))));
    LOG.info(header.toString());
    figures.forEach(
        (figure, byBackend) -> {
          StringBuilder line = new StringBuilder(String.format("%-26s", figure));
          double first = byBackend.get(backends.get(0));
          backends.forEach(b -> line.append(String.format(" %14.0f", byBackend.get(b))));
          backends
              .subList(1, backends.size())
              .forEach(b -> line.append(String.format(" %16.2f", byBackend.get(b) / first)));
          LOG.info(line.toString());
        });
    return figures;
  }

  /** Operations per second of {@code op} run back to back for {@code nanos}. */
  private static double rate(long nanos, IntUnaryOperator op) {
    long start = System.nanoTime();
    long end = start + nanos;
    long count = 0;
    long sink = 0;
    long now;
    do {
      for (int i = 0; i < 16; i++) {
        sink += op.applyAsInt(i);
      }
      count += 16;
      now = System.nanoTime();
    } while (now < end);
    if (sink == Long.MIN_VALUE) {
      LOG.trace("unlikely sink {}", sink);
    }
    return count / ((now - start) / 1e9);
  }

  private static double median(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
