package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;
import net.jqwik.api.lifecycle.AfterExample;

/**
 * The guard of a scan that reads its entries in chunks (a backend kit {@code ChunkedScan}), holding
 * the store's guard once per chunk and nothing between chunks. These cases force the bad
 * interleaving — a close, a snapshot's close or a reopen after a write failure that starts while a
 * chunk is being read — and check that it waits for the chunk (property {@code
 * closeWaitsForARunningScanChunk}), that the scan then throws {@link StoreClosedException} although
 * it still holds entries it read, and that chunk boundaries lose or repeat no entry in either
 * direction.
 *
 * <p>A backend whose scans are chunked runs them by extending this class in its tests with its
 * store and the seam its scan runs while it reads a chunk. The seam is a test hook: a static the
 * scan reads once per chunk, null outside these cases.
 */
public abstract class ChunkedScanGuardCases {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));

  private final List<Path> dirs = new ArrayList<>();

  /** A new store in the empty directory {@code dir}, with {@code families}. */
  protected abstract Store open(Path dir, List<FamilySpec> families);

  /**
   * Sets the seam the backend's scan runs while it reads a chunk under the guard ({@code null}:
   * none). The cases clear it themselves once it has run, and after every case.
   */
  protected abstract void whileReadingChunk(Runnable hook);

  @AfterExample
  void clearSeamAndDirectories() {
    whileReadingChunk(null);
    dirs.forEach(FileTrees::deleteRecursively);
    dirs.clear();
  }

  /** A new store holding {@code keys} rows, keys 0 .. keys-1. */
  protected final Store openWith(int keys) {
    Path dir;
    try {
      dir = Files.createTempDirectory("ankusa-scan-guard-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dirs.add(dir);
    Store store = open(dir, FAMILIES);
    Batch b = new Batch();
    for (int i = 0; i < keys; i++) {
      b.put("rows", key(i), new byte[] {(byte) i});
    }
    store.write(b, Durability.NO_SYNC);
    return store;
  }

  protected static byte[] key(int i) {
    return new byte[] {(byte) (i >>> 8), (byte) i};
  }

  @Example
  void closeWaitsForARunningScanChunk() throws InterruptedException {
    Store store = openWith(100);
    try (Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
      assertThat(closeRacingTheNextChunk(scan, "store close", store::close)).isTrue();
      assertThatThrownBy(scan::hasNext)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("closed");
      assertThatThrownBy(scan::next).isInstanceOf(StoreClosedException.class);
    }
  }

  @Example
  void snapshotCloseWaitsForARunningChunkOfItsScan() throws InterruptedException {
    try (Store store = openWith(100);
        Snapshot snapshot = store.snapshot();
        Scan scan = snapshot.scan("rows", new byte[0], null, Direction.REVERSE)) {
      assertThat(closeRacingTheNextChunk(scan, "snapshot close", snapshot::close)).isTrue();
      assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
      assertThat(store.get("rows", key(1))).containsExactly(1); // the store itself stays open
    }
  }

  @Example
  void reopenAfterAWriteFailureWaitsForARunningScanChunk() throws InterruptedException {
    try (Store store = openWith(100);
        Scan scan = store.scan("rows", key(10), key(90), Direction.FORWARD)) {
      assertThat(
              closeRacingTheNextChunk(
                  scan,
                  "reportWriteFailure",
                  () -> store.reportWriteFailure(new RuntimeException("disk said no"))))
          .isTrue();
      assertThatThrownBy(scan::hasNext)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reopened");
      assertThat(store.get("rows", key(1))).containsExactly(1);
    }
  }

  /**
   * Cut points on both sides of the chunk boundaries (chunks of 8, 16, 32, ... up to the largest).
   */
  @Example
  void chunkBoundariesLoseAndRepeatNothingInEitherDirection() {
    try (Store store = openWith(700)) {
      for (int n : new int[] {0, 1, 7, 8, 9, 24, 25, 120, 504, 505, 700}) {
        byte[] hi = n == 700 ? null : key(n);
        assertThat(keysOf(store, key(0), hi, Direction.FORWARD))
            .hasSize(n)
            .isSortedAccordingTo(Integer::compare)
            .doesNotHaveDuplicates();
        assertThat(keysOf(store, key(0), hi, Direction.REVERSE))
            .hasSize(n)
            .isSortedAccordingTo((a, b) -> Integer.compare(b, a))
            .doesNotHaveDuplicates();
      }
    }
  }

  /**
   * Starts {@code close} from the seam while the scan reads its next chunk, checks it waits, lets
   * the chunk finish and the close end; returns what the running {@code hasNext} answered.
   */
  protected final boolean closeRacingTheNextChunk(Scan scan, String what, Runnable close)
      throws InterruptedException {
    AtomicReference<Thread> closer = new AtomicReference<>();
    whileReadingChunk(
        () -> {
          whileReadingChunk(null);
          closer.set(CloseRace.startAndExpectItToWait(what, close));
        });
    boolean answered = scan.hasNext();
    assertThat(closer.get()).as("the seam ran").isNotNull();
    closer.get().join(30_000);
    assertThat(closer.get().isAlive()).as(what + " ended once the chunk was read").isFalse();
    return answered;
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
