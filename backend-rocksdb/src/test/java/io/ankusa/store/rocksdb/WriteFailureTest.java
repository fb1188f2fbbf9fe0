package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reportWriteFailure} closes what depends on the old engine handle, reopens it, and the
 * store keeps working with everything synced before still there.
 */
class WriteFailureTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));

  @TempDir Path dir;
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();

  @Test
  void reopenKeepsSyncedDataClosesScansAndSnapshotsAndKeepsWorking() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      for (int i = 0; i < 100; i++) {
        s.write(
            new Batch()
                .put("rows", new byte[] {(byte) i}, new byte[] {(byte) i})
                .merge("counts", new byte[] {1}, 1),
            i % 2 == 0 ? Durability.SYNC : Durability.NO_SYNC);
      }
      s.syncWal();
      Scan scan = s.scan("rows", new byte[0], null, Direction.FORWARD);
      assertThat(scan.hasNext()).isTrue();
      scan.next();
      Snapshot snap = s.snapshot();
      Scan snapScan = snap.scan("rows", new byte[0], null, Direction.REVERSE);

      s.reportWriteFailure(new IOException("simulated fsync failure"));

      assertThatThrownBy(scan::hasNext)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reopened after a write failure");
      assertThatThrownBy(scan::next).isInstanceOf(StoreClosedException.class);
      assertThatThrownBy(() -> snap.get("rows", new byte[] {1}))
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("write failure");
      assertThatThrownBy(snapScan::hasNext).isInstanceOf(StoreClosedException.class);
      scan.close(); // closing an invalidated scan or snapshot is allowed and does nothing
      snapScan.close();
      snap.close();

      for (int i = 0; i < 100; i++) {
        assertThat(s.get("rows", new byte[] {(byte) i}))
            .as("row %d synced before the failure", i)
            .containsExactly((byte) i);
      }
      assertThat(s.counter("counts", new byte[] {1})).isEqualTo(100);
      s.write(
          new Batch()
              .put("rows", new byte[] {(byte) 200}, new byte[] {7})
              .merge("counts", new byte[] {1}, 5),
          Durability.SYNC);
      assertThat(s.counter("counts", new byte[] {1})).isEqualTo(105);
      try (Scan again = s.scan("rows", new byte[0], null, Direction.FORWARD)) {
        int n = 0;
        while (again.hasNext()) {
          again.next();
          n++;
        }
        assertThat(n).isEqualTo(101);
      }
    }
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      assertThat(s.counter("counts", new byte[] {1})).as("after a clean reopen").isEqualTo(105);
    }
  }

  @Test
  void callsDuringTheReopenWaitAndSucceed() throws Exception {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> work = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
          work.add(
              pool.submit(
                  () -> {
                    go.await();
                    for (int i = 0; i < 300; i++) {
                      s.write(new Batch().merge("counts", new byte[] {2}, 1), Durability.NO_SYNC);
                      s.get("rows", new byte[] {1});
                    }
                    return null;
                  }));
        }
        go.countDown();
        for (int r = 0; r < 5; r++) {
          s.syncWal();
          s.reportWriteFailure(new IOException("simulated failure " + r));
        }
        for (Future<?> f : work) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      // Every write returned before a reopen reached RocksDB's WAL, and a reopen in the same
      // process
      // closes it cleanly: no write that returned is lost, none fails, none is applied twice.
      assertThat(s.counter("counts", new byte[] {2})).isEqualTo(900L);
    }
  }

  @Test
  void failedReopenClosesTheStore() throws Exception {
    provider.open(dir, StoreOptions.defaults(), FAMILIES).close();
    Store s = provider.open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES);
    s.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC);
    Scan scan = s.scan("rows", new byte[0], null, Direction.FORWARD);
    // RocksDB reads CURRENT only at open: without it the reopen finds no store to open.
    byte[] current = Files.readAllBytes(dir.resolve("CURRENT"));
    Files.delete(dir.resolve("CURRENT"));
    assertThatThrownBy(() -> s.reportWriteFailure(new IOException("simulated")))
        .isInstanceOf(StoreWriteFailedException.class)
        .hasMessageContaining("could not be reopened")
        .hasMessageContaining(dir.toString());
    assertThatThrownBy(
            () -> s.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC))
        .isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(() -> s.get("rows", new byte[] {1}))
        .isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
    assertThatThrownBy(() -> s.reportWriteFailure(new IOException("again")))
        .isInstanceOf(StoreClosedException.class);
    s.close();
    scan.close();
    // The closed store let go of its directory: with CURRENT put back, the directory opens again in
    // this process, with the synced write in it.
    Files.write(dir.resolve("CURRENT"), current);
    try (Store again =
        provider.open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)) {
      assertThat(again.get("rows", new byte[] {1})).isEqualTo(new byte[] {1});
    }
  }
}
