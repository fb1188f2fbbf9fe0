package io.ankusa.store.lmdb;

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
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    LmdbScan.whileReadingChunk = null;
  }

  private Store open(int keys) {
    Store store = new LmdbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES);
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
      assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class).hasMessageContaining("closed");
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
    LmdbScan.whileReadingChunk = () -> {
      LmdbScan.whileReadingChunk = null;
      closer.set(CloseRace.startAndExpectItToWait(what, close));
    };
    boolean answered = scan.hasNext();
    assertThat(closer.get()).as("the seam ran").isNotNull();
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).as(what + " ended once the chunk was read").isFalse();
    return answered;
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
