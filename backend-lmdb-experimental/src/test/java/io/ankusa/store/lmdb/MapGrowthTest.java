package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The map grows on {@code MDB_MAP_FULL} (abort, remap with no transaction open, retry), stops at
 * {@code lmdb.mapSizeMaxBytes} with a {@link StoreFullException} that names the directory, the size
 * and the option, and a failed batch leaves nothing behind.
 */
class MapGrowthTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0));
  private static final int MIB = 1 << 20;

  @TempDir Path dir;

  private Store open(long mapSize, long max, long growWaitMillis) {
    StoreOptions options =
        StoreOptions.defaults()
            .with("lmdb.mapSizeBytes", Long.toString(mapSize))
            .with("lmdb.mapSizeMaxBytes", Long.toString(max))
            .with("lmdb.mapGrowWaitMillis", Long.toString(growWaitMillis));
    return new LmdbStoreProvider().open(dir, options, FAMILIES);
  }

  static byte[] key(int batch, int i) {
    return ByteBuffer.allocate(8).putInt(batch).putInt(i).array();
  }

  static byte[] value(int batch, int i, int size) {
    byte[] v = new byte[size];
    Arrays.fill(v, (byte) (batch * 31 + i));
    return v;
  }

  private static Batch batch(int b, int n, int size) {
    Batch batch = new Batch();
    for (int i = 0; i < n; i++) {
      batch.put("rows", key(b, i), value(b, i, size));
    }
    return batch.merge("counters", new byte[] {1}, n);
  }

  @Test
  void aTinyMapGrowsWhenFilledAndEverythingStaysReadable() {
    try (Store store = open(MIB, 1L << 30, 10_000)) {
      LmdbStore lmdb = (LmdbStore) store;
      assertThat(lmdb.mapSize()).isEqualTo(MIB);
      for (int b = 0; b < 80; b++) {
        store.write(batch(b, 50, 1000), Durability.NO_SYNC); // ~4 MB in all, in 50 KB batches
      }
      // one batch larger than the map was when it started: several doublings inside one write
      store.write(batch(1000, 3000, 1000), Durability.SYNC);
      assertThat(lmdb.mapSize()).isGreaterThanOrEqualTo(8L * MIB);
      assertAllReadable(store, 80, 50, 1000);
    }
    try (Store reopened = open(MIB, 1L << 30, 10_000)) {
      assertAllReadable(reopened, 80, 50, 1000);
    }
  }

  private static void assertAllReadable(Store store, int batches, int perBatch, int size) {
    for (int b = 0; b < batches; b++) {
      for (int i = 0; i < perBatch; i += 7) {
        assertThat(store.get("rows", key(b, i)))
            .as("batch %d key %d", b, i)
            .isEqualTo(value(b, i, size));
      }
    }
    for (int i = 0; i < 3000; i += 101) {
      assertThat(store.get("rows", key(1000, i))).isEqualTo(value(1000, i, size));
    }
    int count = 0;
    try (Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
      while (scan.hasNext()) {
        scan.next();
        count++;
      }
    }
    assertThat(count).isEqualTo(batches * perBatch + 3000);
    assertThat(store.counter("counters", new byte[] {1}))
        .isEqualTo(batches * (long) perBatch + 3000);
  }

  @Test
  void pastTheMaximumTheWriteFailsWithStoreFullAndLeavesNothingBehind() {
    try (Store store = open(MIB, 2L * MIB, 10_000)) {
      int written = 0;
      StoreFullException full = null;
      for (int b = 0; b < 1000 && full == null; b++) {
        try {
          store.write(batch(b, 20, 2000), Durability.NO_SYNC);
          written++;
        } catch (StoreFullException e) {
          full = e;
        }
      }
      assertThat(full).as("a 2 MiB map must fill up").isNotNull();
      assertThat(full.getMessage())
          .contains(dir.toAbsolutePath().normalize().toString())
          .contains(Long.toString(2L * MIB))
          .contains("lmdb.mapSizeMaxBytes");
      assertThat(((LmdbStore) store).mapSize()).isEqualTo(2L * MIB);
      int failedBatch = written;
      for (int i = 0; i < 20; i++) {
        assertThat(store.get("rows", key(failedBatch, i)))
            .as("key %d of the failed batch", i)
            .isNull();
      }
      assertThat(store.counter("counters", new byte[] {1})).isEqualTo(written * 20L);
      for (int b = 0; b < written; b++) {
        assertThat(store.get("rows", key(b, 19))).isEqualTo(value(b, 19, 2000));
      }
      // the store still works: deleting frees pages, and a small write then fits
      store.write(new Batch().deleteRange("rows", key(0, 0), key(written / 2, 0)), Durability.SYNC);
      store.write(batch(5000, 1, 100), Durability.SYNC);
      assertThat(store.get("rows", key(5000, 0))).isEqualTo(value(5000, 0, 100));
    }
  }

  @Test
  void growthWaitsForNoScanAndFailsTheWriteWhenOneStaysOpen() {
    try (Store store = open(MIB, 1L << 30, 50)) {
      store.write(batch(0, 10, 100), Durability.SYNC);
      Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD);
      assertThat(scan.hasNext()).isTrue();
      Batch big = batch(1, 1500, 1000); // ~1.5 MB: must grow a 1 MiB map
      assertThatThrownBy(() -> store.write(big, Durability.SYNC))
          .isInstanceOf(StoreWriteFailedException.class)
          .hasMessageContaining("lmdb.mapGrowWaitMillis")
          .hasMessageContaining("reportWriteFailure");
      assertThat(store.get("rows", key(1, 0))).isNull();
      assertThat(scan.next().key()).isEqualTo(key(0, 0)); // the scan was left alone
      store.reportWriteFailure(new IllegalStateException("test: growth blocked by an open scan"));
      assertThatThrownBy(scan::hasNext).hasMessageContaining("reportWriteFailure");
      store.write(big, Durability.SYNC);
      assertThat(store.get("rows", key(1, 1499))).isEqualTo(value(1, 1499, 1000));
      assertThat(((LmdbStore) store).mapSize()).isGreaterThan(MIB);
    }
  }

  @Test
  void growthWaitsForAnOpenScanAndProceedsOnceItIsClosedFromAnotherThread() throws Exception {
    try (Store store = open(MIB, 1L << 30, 600_000)) {
      LmdbStore lmdb = (LmdbStore) store;
      store.write(batch(0, 10, 100), Durability.SYNC);
      Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD);
      assertThat(scan.hasNext()).isTrue();
      FutureTask<Void> writer =
          new FutureTask<>(
              () -> {
                store.write(batch(1, 1500, 1000), Durability.SYNC); // must grow the 1 MiB map
                return null;
              });
      Thread writerThread = new Thread(writer, "growing-writer");
      writerThread.start();
      while (!lmdb.readers().blocking() && !writer.isDone()) {
        Thread.onSpinWait();
      }
      assertThat(writer.isDone())
          .as("the write must wait for the open scan, not remap under it")
          .isFalse();
      assertThat(store.get("rows", new byte[] {0, 0, 0, 0, 0, 0, 0, 0}))
          .isNotNull(); // point reads go on meanwhile
      assertThat(scan.next().key()).isEqualTo(key(0, 0)); // and so does the scan
      scan.close(); // from a thread that did not start the write (MDB_NOTLS)
      writer.get(10, TimeUnit.MINUTES);
      assertThat(store.get("rows", key(1, 1499))).isEqualTo(value(1, 1499, 1000));
      assertThat(lmdb.mapSize()).isGreaterThan(MIB);
    }
  }
}
