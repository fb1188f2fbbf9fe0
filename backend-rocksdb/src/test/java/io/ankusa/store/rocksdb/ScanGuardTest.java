package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.ChunkedScanGuardCases;
import io.ankusa.store.conformance.CloseRace;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;

/**
 * The chunked scan's guard cases ({@link ChunkedScanGuardCases}) on the RocksDB backend's scan, and
 * the same guard around a visit, which RocksDB also reads in chunks: a close or a reopen after a
 * write failure that starts while a chunk is being visited waits for it, and the visit then throws.
 */
class ScanGuardTest extends ChunkedScanGuardCases {
  @Override
  protected Store open(Path dir, List<FamilySpec> families) {
    return new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), families);
  }

  @Override
  protected void whileReadingChunk(Runnable hook) {
    RocksDbScan.whileReadingChunk = hook;
  }

  @Example
  void closeWaitsForARunningVisitChunk() throws InterruptedException {
    Store store = openWith(300);
    List<Integer> seen = new ArrayList<>();
    AtomicReference<Thread> closer = new AtomicReference<>();
    RocksDbScan.whileReadingChunk =
        () -> {
          RocksDbScan.whileReadingChunk = null;
          closer.set(CloseRace.startAndExpectItToWait("store close", store::close));
        };
    assertThatThrownBy(
            () ->
                store.visit(
                    "rows",
                    new byte[0],
                    null,
                    Direction.FORWARD,
                    (key, value) -> seen.add(value[0] & 0xff)))
        .isInstanceOf(StoreClosedException.class)
        .hasMessageContaining("closed");
    assertThat(seen)
        .as("the first chunk, read while the close waited")
        .hasSize(RocksDbScan.MAX_CHUNK);
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).isFalse();
  }

  /**
   * A visitor reads its own store while a close, started on another thread, waits for the visit:
   * the nested read is let in (the visit already holds the guard), where making it queue behind the
   * close would deadlock, the close waiting for the visit and the visit for the close.
   */
  @Example
  void aVisitorReadsItsStoreWhileACloseWaitsForTheVisit() throws InterruptedException {
    Store store = openWith(3);
    AtomicReference<Thread> closer = new AtomicReference<>();
    List<Integer> read = new ArrayList<>();
    Thread visitor =
        new Thread(
            () ->
                store.visit(
                    "rows",
                    new byte[0],
                    null,
                    Direction.FORWARD,
                    (key, value) -> {
                      closer.set(CloseRace.startAndExpectItToWait("store close", store::close));
                      read.add(store.get("rows", key(2))[0] & 0xff);
                      return false;
                    }),
            "visitor");
    visitor.setDaemon(true); // a deadlocked one must not keep the test JVM alive
    visitor.start();
    visitor.join(60_000);
    assertThat(visitor.isAlive())
        .as("the visitor's read queued behind the close that waits for the visit: deadlock")
        .isFalse();
    assertThat(read).containsExactly(2);
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).isFalse();
    assertThatThrownBy(() -> store.get("rows", key(2))).isInstanceOf(StoreClosedException.class);
  }

  @Example
  void closingFromInsideAVisitIsRefusedNotAHang() {
    try (Store store = openWith(3);
        Snapshot snapshot = store.snapshot()) {
      store.visit(
          "rows",
          new byte[0],
          null,
          Direction.FORWARD,
          (key, value) -> {
            assertThatThrownBy(store::close)
                .isInstanceOf(StoreArgumentException.class)
                .hasMessageContaining("inside a visit");
            assertThatThrownBy(() -> store.reportWriteFailure(new RuntimeException("x")))
                .isInstanceOf(StoreArgumentException.class);
            store.write(
                new Batch().put("rows", key(999), new byte[] {1}),
                Durability.NO_SYNC); // writes are fine
            return false;
          });
      snapshot.visit(
          "rows",
          new byte[0],
          null,
          Direction.FORWARD,
          (key, value) -> {
            assertThatThrownBy(snapshot::close).isInstanceOf(StoreArgumentException.class);
            return false;
          });
      assertThat(store.get("rows", key(999))).containsExactly(1);
    }
  }

  /**
   * A scan that has passed its own open check and waits for the store's guard while a reopen after
   * a write failure runs: the reopen invalidates the scan, and once the scan gets the guard it must
   * see that and throw, not read its iterator, which the reopen freed with the old engine. Forced:
   * a visit holds the guard, the reopen queues for it, the scan queues behind the reopen, then the
   * visit lets go.
   */
  @Example
  void aScanWaitingForTheGuardDuringAReopenSeesItWasInvalidated() throws Exception {
    try (Store store = openWith(100);
        Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
      for (int i = 0; i < 8; i++) {
        scan.next(); // the first chunk (8 entries) is read; the next hasNext reads another under
        // the guard
      }
      CountDownLatch visiting = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread holder =
          new Thread(
              () ->
                  store.visit(
                      "rows",
                      new byte[0],
                      null,
                      Direction.FORWARD,
                      (k, v) -> {
                        visiting.countDown();
                        awaitQuietly(release);
                        return false;
                      }),
              "guard-holder");
      holder.start();
      visiting.await();
      AtomicReference<Throwable> reopenFailure = new AtomicReference<>();
      Thread reopen =
          CloseRace.startAndExpectItToBlock(
              "a reopen after a write failure", () -> reopen(store, reopenFailure));
      AtomicReference<Throwable> scanOutcome = new AtomicReference<>();
      Thread reader =
          CloseRace.startAndExpectItToBlock(
              "the scan's next chunk",
              () -> {
                try {
                  scanOutcome.set(new AssertionError("hasNext returned " + scan.hasNext()));
                } catch (Throwable t) {
                  scanOutcome.set(t);
                }
              });
      release.countDown();
      holder.join();
      reopen.join();
      reader.join();
      assertThat(reopenFailure.get()).isNull();
      assertThat(scanOutcome.get())
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reopened after a write failure");
      assertThat(store.get("rows", key(1))).containsExactly(1);
    }
  }

  /**
   * A visit lets go of the guard between chunks; a reopen after a write failure that queued for it
   * meanwhile runs there and invalidates the visit, which must then throw rather than read on with
   * the iterator the reopen freed. Forced: at the last entry of the first chunk the visitor starts
   * the reopen and waits until it queues.
   */
  @Example
  void aVisitResumingAfterAReopenSeesItWasInvalidated() throws Exception {
    try (Store store = openWith(600)) {
      AtomicReference<Throwable> reopenFailure = new AtomicReference<>();
      Thread[] reopen = new Thread[1];
      int[] visited = {0};
      assertThatThrownBy(
              () ->
                  store.visit(
                      "rows",
                      new byte[0],
                      null,
                      Direction.FORWARD,
                      (k, v) -> {
                        if (++visited[0] == RocksDbScan.MAX_CHUNK) {
                          reopen[0] =
                              CloseRace.startAndExpectItToBlock(
                                  "a reopen after a write failure",
                                  () -> reopen(store, reopenFailure));
                        }
                        return true;
                      }))
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reopened after a write failure");
      reopen[0].join();
      assertThat(reopenFailure.get()).isNull();
      assertThat(visited[0])
          .as("entries visited before the reopen")
          .isEqualTo(RocksDbScan.MAX_CHUNK);
      assertThat(store.get("rows", key(1))).containsExactly(1);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** reportWriteFailure, run on a racing thread: what it throws is kept for the test to check. */
  private static void reopen(Store store, AtomicReference<Throwable> failure) {
    try {
      store.reportWriteFailure(new IOException("simulated"));
    } catch (Throwable t) {
      failure.set(t);
    }
  }
}
