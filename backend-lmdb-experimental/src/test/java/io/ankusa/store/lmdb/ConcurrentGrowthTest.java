package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers that keep growing a tiny map while readers open and close scans and snapshots on other
 * threads: no operand is lost, every reader sees whole batches (each batch puts a row and adds 1 to
 * a counter, so in any one state the rows and the counter agree), and nothing deadlocks. The growth
 * protocol (wait for long-lived readers, then remap under the exclusive lock) is what is exercised.
 */
class ConcurrentGrowthTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0));
  private static final byte[] COUNT = {7};
  private static final int WRITERS = 3;
  private static final int BATCHES_PER_WRITER = 400;

  @TempDir Path dir;

  @Test
  void writersGrowTheMapWhileReadersComeAndGoAndNothingIsLost() throws Exception {
    StoreOptions options =
        StoreOptions.defaults().with("lmdb.mapSizeBytes", Integer.toString(1 << 20));
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
    try (Store store = new LmdbStoreProvider().open(dir, options, FAMILIES)) {
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < BATCHES_PER_WRITER; i++) {
                    byte[] key = ByteBuffer.allocate(8).putInt(writer).putInt(i).array();
                    store.write(
                        new Batch().put("rows", key, new byte[2000]).merge("counters", COUNT, 1),
                        Durability.NO_SYNC);
                  }
                  return null;
                }));
      }
      Future<Long> scanner =
          pool.submit(
              () -> {
                long checks = 0;
                while (writing.get()) {
                  try (Snapshot snapshot = store.snapshot()) {
                    long rows = count(snapshot.scan("rows", new byte[0], null, Direction.REVERSE));
                    assertThat(snapshot.counter("counters", COUNT)).isEqualTo(rows);
                  }
                  checks++;
                }
                return checks;
              });
      Future<Long> pointReader =
          pool.submit(
              () -> {
                long reads = 0;
                while (writing.get()) {
                  List<byte[]> values = store.multiGet("counters", List.of(COUNT, COUNT));
                  assertThat(values.get(0)).isEqualTo(values.get(1)); // one transaction, one state
                  try (Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
                    if (scan.hasNext()) {
                      Entry first = scan.next();
                      assertThat(first.value()).hasSize(2000);
                    }
                  }
                  reads++;
                }
                return reads;
              });
      for (Future<?> writer : writers) {
        writer.get(5, TimeUnit.MINUTES);
      }
      writing.set(false);
      assertThat(scanner.get(1, TimeUnit.MINUTES)).isPositive();
      assertThat(pointReader.get(1, TimeUnit.MINUTES)).isPositive();
      assertThat(store.counter("counters", COUNT)).isEqualTo((long) WRITERS * BATCHES_PER_WRITER);
      assertThat(count(store.scan("rows", new byte[0], null, Direction.FORWARD)))
          .isEqualTo((long) WRITERS * BATCHES_PER_WRITER);
      assertThat(((LmdbStore) store).mapSize()).isGreaterThan(1 << 20);
    } finally {
      pool.shutdownNow();
    }
  }

  private static long count(Scan scan) {
    try (scan) {
      long n = 0;
      while (scan.hasNext()) {
        scan.next();
        n++;
      }
      return n;
    }
  }
}
