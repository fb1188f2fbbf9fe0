package io.ankusa.store.bench.compare;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.JsonText;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The counters' hot row: how many batches per second several writer threads get through when every
 * batch merges into the node aggregate (ordinal 0), as the queue's writes do, with the aggregate in
 * one key per field or spread over 16 shard keys ({@code counters.sharded_aggregate}). Each batch
 * merges one delta into its thread's own tenant counter and one into the aggregate, {@code
 * NO_SYNC}. Each cell runs twice, once early and once late (one row, shards, shards, one row), and
 * reports the mean, so a warm-up does not favour either layout. A blind merge (RocksDB) never waits
 * for another writer; an upsert (postgres) locks the row until its transaction commits, so writers
 * of one aggregate row queue behind each other.
 *
 * <pre>
 * AggregateContention [--seconds S] [--threads 1,4] [--backends rocksdb,postgres] [--out DIR] [--work DIR]
 * </pre>
 */
public final class AggregateContention {
  private static final Logger LOG = LoggerFactory.getLogger(AggregateContention.class);
  private static final int SHARDS = 16;

  private AggregateContention() {}

  public static void main(String[] args) throws Exception {
    double seconds = 2;
    List<Integer> threads = List.of(1, 4);
    List<String> backends = List.of("rocksdb", "postgres");
    Path out = Path.of("bench-results", "aggregate-contention");
    Path work = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--seconds" -> seconds = Double.parseDouble(args[++i]);
        case "--threads" ->
            threads = Arrays.stream(args[++i].split(",")).map(Integer::valueOf).toList();
        case "--backends" -> backends = Arrays.asList(args[++i].split(","));
        case "--out" -> out = Path.of(args[++i]);
        case "--work" -> work = Path.of(args[++i]);
        default ->
            throw new IllegalArgumentException(
                "unknown argument '"
                    + args[i]
                    + "'; usage: AggregateContention"
                    + " [--seconds S] [--threads 1,4] [--backends rocksdb,postgres] [--out DIR] [--work DIR]");
      }
    }
    if (work == null) {
      work = out.resolve("work");
    }
    Map<String, Object> figures = new LinkedHashMap<>();
    for (String backend : backends) {
      Path dir = work.resolve(BenchStores.requireBackend(backend));
      FileTrees.deleteRecursively(dir);
      try (Store store =
          BenchStores.open(backend, dir, List.of(FamilySpec.counters(Format3.COUNTERS, 0)))) {
        for (int t : threads) {
          // one row, shards, shards, one row: each layout measured once early and once late,
          // averaged
          double[] sum = new double[2];
          for (boolean sharded : new boolean[] {false, true, true, false}) {
            sum[sharded ? 1 : 0] += run(store, t, sharded, (long) (seconds * 1e9)) / 2;
          }
          for (boolean sharded : new boolean[] {false, true}) {
            String cell =
                backend
                    + ", "
                    + t
                    + (t == 1 ? " thread" : " threads")
                    + ", "
                    + (sharded ? "16 shards" : "one row");
            figures.put(cell, Math.round(sum[sharded ? 1 : 0]));
            LOG.info(String.format("%-36s %10.0f batches/s", cell, sum[sharded ? 1 : 0]));
          }
        }
      } finally {
        FileTrees.deleteRecursively(dir);
      }
    }
    Files.createDirectories(out);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "note",
        "batches/s, each merging one tenant counter and the aggregate, NO_SYNC; "
            + seconds
            + " s per cell");
    json.put("figures", figures);
    Path file = out.resolve("aggregate-contention.json");
    Files.writeString(file, JsonText.of(json), StandardCharsets.UTF_8);
    LOG.info("wrote {}", file.toAbsolutePath());
  }

  /**
   * Batches per second of {@code threads} writers for {@code nanos}, after a warm-up of a tenth of
   * it.
   */
  private static double run(Store store, int threads, boolean sharded, long nanos)
      throws InterruptedException {
    AtomicLong batches = new AtomicLong();
    long warmUpEnd = System.nanoTime() + nanos / 10;
    long end = warmUpEnd + nanos;
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long ord = 1 + t;
      SplittableRandom random = new SplittableRandom(t);
      Thread w =
          new Thread(
              () -> {
                byte[] own = Keys.counter(ord, CounterField.PENDING);
                long now;
                while ((now = System.nanoTime()) < end) {
                  byte[] aggregate =
                      sharded
                          ? Keys.aggregateShard(CounterField.PENDING, random.nextInt(SHARDS))
                          : Keys.counter(0, CounterField.PENDING);
                  store.write(
                      new Batch()
                          .merge(Format3.COUNTERS, own, 1)
                          .merge(Format3.COUNTERS, aggregate, 1),
                      Durability.NO_SYNC);
                  if (now >= warmUpEnd) {
                    batches.incrementAndGet();
                  }
                }
              },
              "contention-" + t);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    return batches.get() / (nanos / 1e9);
  }
}
