package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.CloseRace;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.ReadView;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scan reads its entries in chunks, holding the store's guard once per chunk and nothing between
 * chunks. These cases force the bad interleaving — a close that starts while a chunk is being read —
 * and check the close waits for the chunk (property {@code closeWaitsForARunningScanChunk}), that the
 * scan then throws {@link StoreClosedException} although it still holds entries it read, and that
 * chunk boundaries lose or repeat no entry.
 */
class ScanGuardTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));

  @TempDir Path dir;

  @AfterEach
  void clearSeam() {
    RocksDbScan.whileReadingChunk = null;
  }

  private Store open(int keys) {
    Store store = new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES);
    Batch b = new Batch();
    for (int i = 0; i < keys; i++) {
      b.put("rows", key(i), new byte[] {(byte) i});
    }
    store.write(b, Durability.NO_SYNC);
    return store;
  }

  private static byte[] key(int i) {
    return new byte[] {(byte) (i >>> 8), (byte) i};
  }

  @Test
  void closeWaitsForARunningScanChunk() throws InterruptedException {
    Store store = open(100);
    try (Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
      assertThat(closeRacingTheNextChunk(scan, "store close", store::close)).isTrue();
      assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class).hasMessageContaining("was closed");
      assertThatThrownBy(scan::next).isInstanceOf(StoreClosedException.class);
    }
  }

  @Test
  void snapshotCloseWaitsForARunningChunkOfItsScan() throws InterruptedException {
    try (Store store = open(100); Snapshot snapshot = store.snapshot();
        Scan scan = snapshot.scan("rows", new byte[0], null, Direction.REVERSE)) {
      assertThat(closeRacingTheNextChunk(scan, "snapshot close", snapshot::close)).isTrue();
      assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
      assertThat(store.get("rows", key(1))).containsExactly(1); // the store itself stays open
    }
  }

  @Test
  void reopenAfterAWriteFailureWaitsForARunningScanChunk() throws InterruptedException {
    try (Store store = open(100); Scan scan = store.scan("rows", key(10), key(90), Direction.FORWARD)) {
      assertThat(closeRacingTheNextChunk(scan, "reportWriteFailure",
          () -> store.reportWriteFailure(new RuntimeException("disk said no")))).isTrue();
      assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class).hasMessageContaining("reopened");
      assertThat(store.get("rows", key(1))).containsExactly(1);
    }
  }

  /**
   * Starts {@code close} from the seam while the scan reads its first chunk, checks it waits, lets
   * the chunk finish and the close end; returns what the running {@code hasNext} answered.
   */
  private static boolean closeRacingTheNextChunk(Scan scan, String what, Runnable close) throws InterruptedException {
    AtomicReference<Thread> closer = new AtomicReference<>();
    RocksDbScan.whileReadingChunk = () -> {
      RocksDbScan.whileReadingChunk = null;
      closer.set(CloseRace.startAndExpectItToWait(what, close));
    };
    boolean answered = scan.hasNext();
    assertThat(closer.get()).as("the seam ran").isNotNull();
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).as(what + " ended once the chunk was read").isFalse();
    return answered;
  }

  @Test
  void closeWaitsForARunningVisitChunk() throws InterruptedException {
    Store store = open(300);
    List<Integer> seen = new ArrayList<>();
    AtomicReference<Thread> closer = new AtomicReference<>();
    RocksDbScan.whileReadingChunk = () -> {
      RocksDbScan.whileReadingChunk = null;
      closer.set(CloseRace.startAndExpectItToWait("store close", store::close));
    };
    assertThatThrownBy(() -> store.visit("rows", new byte[0], null, Direction.FORWARD, (key, value) -> seen.add(value[0] & 0xff)))
        .isInstanceOf(StoreClosedException.class).hasMessageContaining("closed");
    assertThat(seen).as("the first chunk, read while the close waited").hasSize(RocksDbScan.MAX_CHUNK);
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).isFalse();
  }

  /**
   * A visitor reads its own store while a close, started on another thread, waits for the visit: the
   * nested read is let in (the visit already holds the guard), where making it queue behind the close
   * would deadlock, the close waiting for the visit and the visit for the close.
   */
  @Test
  void aVisitorReadsItsStoreWhileACloseWaitsForTheVisit() throws InterruptedException {
    Store store = open(3);
    AtomicReference<Thread> closer = new AtomicReference<>();
    List<Integer> read = new ArrayList<>();
    Thread visitor = new Thread(() -> store.visit("rows", new byte[0], null, Direction.FORWARD, (key, value) -> {
      closer.set(CloseRace.startAndExpectItToWait("store close", store::close));
      read.add(store.get("rows", key(2))[0] & 0xff);
      return false;
    }), "visitor");
    visitor.setDaemon(true); // a deadlocked one must not keep the test JVM alive
    visitor.start();
    visitor.join(60_000);
    assertThat(visitor.isAlive()).as("the visitor's read queued behind the close that waits for the visit: deadlock")
        .isFalse();
    assertThat(read).containsExactly(2);
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).isFalse();
    assertThatThrownBy(() -> store.get("rows", key(2))).isInstanceOf(StoreClosedException.class);
  }

  @Test
  void closingFromInsideAVisitIsRefusedNotAHang() {
    try (Store store = open(3); Snapshot snapshot = store.snapshot()) {
      store.visit("rows", new byte[0], null, Direction.FORWARD, (key, value) -> {
        assertThatThrownBy(store::close).isInstanceOf(StoreArgumentException.class).hasMessageContaining("inside a visit");
        assertThatThrownBy(() -> store.reportWriteFailure(new RuntimeException("x")))
            .isInstanceOf(StoreArgumentException.class);
        store.write(new Batch().put("rows", key(999), new byte[] {1}), Durability.NO_SYNC); // writes are fine
        return false;
      });
      snapshot.visit("rows", new byte[0], null, Direction.FORWARD, (key, value) -> {
        assertThatThrownBy(snapshot::close).isInstanceOf(StoreArgumentException.class);
        return false;
      });
      assertThat(store.get("rows", key(999))).containsExactly(1);
    }
  }

  /**
   * A scan that has passed its own open check and waits for the store's guard while a reopen after a
   * write failure runs: the reopen invalidates the scan, and once the scan gets the guard it must see
   * that and throw, not read its iterator, which the reopen freed with the old engine. Forced: a
   * visit holds the guard, the reopen queues for it, the scan queues behind the reopen, then the visit
   * lets go.
   */
  @Test
  void aScanWaitingForTheGuardDuringAReopenSeesItWasInvalidated() throws Exception {
    try (Store store = open(100); Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
      for (int i = 0; i < 8; i++) {
        scan.next(); // the first chunk (8 entries) is read; the next hasNext reads another under the guard
      }
      CountDownLatch visiting = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Thread holder = new Thread(() -> store.visit("rows", new byte[0], null, Direction.FORWARD, (k, v) -> {
        visiting.countDown();
        awaitQuietly(release);
        return false;
      }), "guard-holder");
      holder.start();
      visiting.await();
      AtomicReference<Throwable> reopenFailure = new AtomicReference<>();
      Thread reopen = CloseRace.startAndExpectItToBlock("a reopen after a write failure", () -> reopen(store, reopenFailure));
      AtomicReference<Throwable> scanOutcome = new AtomicReference<>();
      Thread reader = CloseRace.startAndExpectItToBlock("the scan's next chunk", () -> {
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
      assertThat(scanOutcome.get()).isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reopened after a write failure");
      assertThat(store.get("rows", key(1))).containsExactly(1);
    }
  }

  /**
   * A visit lets go of the guard between chunks; a reopen after a write failure that queued for it
   * meanwhile runs there and invalidates the visit, which must then throw rather than read on with
   * the iterator the reopen freed. Forced: at the last entry of the first chunk the visitor starts the
   * reopen and waits until it queues.
   */
  @Test
  void aVisitResumingAfterAReopenSeesItWasInvalidated() throws Exception {
    try (Store store = open(600)) {
      AtomicReference<Throwable> reopenFailure = new AtomicReference<>();
      Thread[] reopen = new Thread[1];
      int[] visited = {0};
      assertThatThrownBy(() -> store.visit("rows", new byte[0], null, Direction.FORWARD, (k, v) -> {
        if (++visited[0] == RocksDbScan.MAX_CHUNK) {
          reopen[0] = CloseRace.startAndExpectItToBlock("a reopen after a write failure", () -> reopen(store, reopenFailure));
        }
        return true;
      })).isInstanceOf(StoreClosedException.class).hasMessageContaining("reopened after a write failure");
      reopen[0].join();
      assertThat(reopenFailure.get()).isNull();
      assertThat(visited[0]).as("entries visited before the reopen").isEqualTo(RocksDbScan.MAX_CHUNK);
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

  @Test
  void chunkBoundariesLoseAndRepeatNothingInEitherDirection() {
    try (Store store = open(700)) {
      for (int n : new int[] {0, 1, 7, 8, 9, 24, 25, 120, 504, 505, 700}) {
        assertThat(keysOf(store, key(0), n == 700 ? null : key(n), Direction.FORWARD)).hasSize(n)
            .isSortedAccordingTo(Integer::compare).doesNotHaveDuplicates();
        List<Integer> reverse = keysOf(store, key(0), n == 700 ? null : key(n), Direction.REVERSE);
        assertThat(reverse).hasSize(n).isSortedAccordingTo((a, b) -> Integer.compare(b, a)).doesNotHaveDuplicates();
      }
    }
  }

  private static List<Integer> keysOf(ReadView view, byte[] lo, byte[] hi, Direction direction) {
    List<Integer> seen = new ArrayList<>();
    try (Scan scan = view.scan("rows", lo, hi, direction)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        seen.add(((e.key()[0] & 0xff) << 8) | (e.key()[1] & 0xff));
      }
    }
    return seen;
  }
}
