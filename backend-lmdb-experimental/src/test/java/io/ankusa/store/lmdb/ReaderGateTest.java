package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate a map growth closes to long-lived readers ({@link LongLivedReaders}): shut while the
 * grower waits for the open scans and snapshots (a newcomer waits, and keeps its interrupt), open
 * again when the growth is done or given up (a grower interrupted while it waits fails its write
 * and keeps its interrupt), still working after a reopen; and readers that hold no transaction — a
 * scan at the end of its range, a scan or snapshot that could not begin — hold no growth up.
 */
class ReaderGateTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));
  private static final long WAIT_FOR_EVER = 600_000;

  @TempDir Path dir;

  private Store open(long growWaitMillis, int maxReaders) {
    return new LmdbStoreProvider()
        .open(
            dir,
            StoreOptions.defaults()
                .with(LmdbSettings.MAP_SIZE, Long.toString(LmdbSettings.MIN_MAP_SIZE))
                .with(LmdbSettings.MAP_GROW_WAIT, Long.toString(growWaitMillis))
                .with(LmdbSettings.MAX_READERS, Integer.toString(maxReaders)),
            FAMILIES);
  }

  private static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  /** ~600 KB: more than the smallest map holds, so writing it grows the map. */
  private static Batch big() {
    Batch b = new Batch();
    for (int i = 100; i < 250; i++) {
      b.put("rows", key(i), new byte[4000]);
    }
    return b;
  }

  /** More entries than a scan's first chunk, so a scan that has read one is still open. */
  private static final int SMALL = 3 * LmdbScan.FIRST_CHUNK;

  private static void small(Store store) {
    Batch b = new Batch();
    for (int i = 1; i <= SMALL; i++) {
      b.put("rows", key(i), new byte[] {(byte) i});
    }
    store.write(b, Durability.SYNC);
  }

  private static void await(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.onSpinWait();
    }
  }

  private static Thread start(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Test
  void aGrowerShutsTheGateWhileItWaitsAndANewcomerWaitsKeepingItsInterrupt() throws Exception {
    try (Store store = open(WAIT_FOR_EVER, 512)) {
      LongLivedReaders readers = ((LmdbStore) store).readers();
      assertThat(readers.blocking()).as("idle").isFalse();
      small(store);
      store.reportWriteFailure(new IllegalStateException("test: a reopen before the growth"));
      assertThat(readers.blocking()).as("after a reopen").isFalse();

      Scan held = store.scan("rows", new byte[0], null, Direction.FORWARD);
      assertThat(held.hasNext()).isTrue();
      FutureTask<Void> writer =
          new FutureTask<>(
              () -> {
                store.write(big(), Durability.SYNC);
                return null;
              });
      start(writer, "growing-writer");
      await(() -> readers.blocking() || writer.isDone(), "the grower shuts the gate");
      assertThat(writer.isDone()).as("the write waits for the open scan").isFalse();

      FutureTask<Boolean> newcomer =
          new FutureTask<>(
              () -> {
                try (Snapshot s = store.snapshot()) {
                  return Thread.currentThread().isInterrupted();
                }
              });
      Thread newcomerThread = start(newcomer, "newcomer");
      await(
          () -> newcomerThread.getState() == Thread.State.WAITING || newcomer.isDone(),
          "the newcomer waits");
      assertThat(newcomer.isDone()).as("a snapshot begun while the grower waits").isFalse();
      newcomerThread.interrupt();
      // Its wait ends with InterruptedException (clearing the flag) and it waits again: the gate is
      // still shut.
      await(
          () ->
              newcomerThread.getState() == Thread.State.WAITING && !newcomerThread.isInterrupted(),
          "the interrupted newcomer waits again");

      held.close();
      writer.get(60, TimeUnit.SECONDS);
      assertThat(newcomer.get(60, TimeUnit.SECONDS))
          .as("the newcomer got in and kept its interrupt")
          .isTrue();
      assertThat(readers.blocking()).as("after the growth").isFalse();
      assertThat(store.get("rows", key(249))).hasSize(4000);
      store.close();
      assertThat(readers.blocking()).as("after close").isTrue();
    }
  }

  @Test
  void aGrowerInterruptedWhileItWaitsFailsItsWriteKeepsItsInterruptAndOpensTheGate()
      throws Exception {
    try (Store store = open(WAIT_FOR_EVER, 512)) {
      LongLivedReaders readers = ((LmdbStore) store).readers();
      small(store);
      Scan held = store.scan("rows", new byte[0], null, Direction.FORWARD);
      assertThat(held.hasNext()).isTrue();
      FutureTask<Boolean> writer =
          new FutureTask<>(
              () -> {
                try {
                  store.write(big(), Durability.SYNC);
                  return false;
                } catch (StoreWriteFailedException e) {
                  return Thread.currentThread().isInterrupted();
                }
              });
      Thread writerThread = start(writer, "growing-writer");
      await(() -> readers.blocking() || writer.isDone(), "the grower shuts the gate");
      writerThread.interrupt();
      assertThat(writer.get(60, TimeUnit.SECONDS))
          .as("the write failed and the writer kept its interrupt")
          .isTrue();
      assertThat(readers.blocking()).as("a growth given up blocks nothing").isFalse();
      try (Snapshot s = store.snapshot()) {
        assertThat(s.get("rows", key(1))).containsExactly(1);
      }
      assertThat(held.next().key()).isEqualTo(key(1)); // the scan was left alone
      assertThat(store.get("rows", key(100))).as("nothing of the failed batch").isNull();
      held.close();
    }
  }

  @Test
  void aScanAtTheEndOfItsRangeHoldsNoGrowthUp() {
    try (Store store = open(0, 512)) {
      small(store);
      Scan done = store.scan("rows", new byte[0], null, Direction.FORWARD);
      int n = 0;
      while (done.hasNext()) {
        done.next();
        n++;
      }
      assertThat(n).isEqualTo(SMALL);
      store.write(
          big(),
          Durability.SYNC); // grows the map with no wait: the finished scan holds no transaction
      assertThat(store.get("rows", key(249))).hasSize(4000);
      done.close();
    }
  }

  @Test
  void aScanOrSnapshotThatCouldNotBeginHoldsNoGrowthUp() {
    try (Store store = open(0, 1)) {
      small(store);
      int slots = ((LmdbStore) store).maxReaders();
      List<Snapshot> all = new ArrayList<>();
      try {
        for (int i = 0; i < slots; i++) {
          all.add(store.snapshot());
        }
        assertThatThrownBy(store::snapshot)
            .isInstanceOf(StoreException.class)
            .hasMessageContaining(LmdbSettings.MAX_READERS);
        assertThatThrownBy(() -> store.scan("rows", new byte[0], null, Direction.FORWARD))
            .isInstanceOf(StoreException.class)
            .hasMessageContaining(LmdbSettings.MAX_READERS);
      } finally {
        all.forEach(Snapshot::close);
      }
      store.write(
          big(), Durability.SYNC); // grows the map with no wait: no reader is left registered
      assertThat(store.get("rows", key(249))).hasSize(4000);
    }
  }
}
