package io.ankusa.store.rocksdb;

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
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.FlushOptions;

/**
 * Iterators of closed scans are kept for the next scan of the same range ({@link KeptIterators}):
 * that scan reads the latest state, no two open scans share one, and an idle one is freed after its
 * time, when evicted, and when the store closes.
 */
class KeptIteratorsTest {
  private static final String P = "p";
  private static final byte[] LO = {'k'};
  private static final byte[] HI = {'l'};

  @TempDir Path dir;

  private static byte[] key(int i) {
    return new byte[] {'k', (byte) (i >> 8), (byte) i};
  }

  private static Store open(Path dir) {
    return StoreProvider.named("rocksdb")
        .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain(P)));
  }

  /** The RocksDB store itself, unwrapped from the read-only wrapper of a read-only open. */
  private static RocksDbStore rocks(Store s) {
    if (s instanceof RocksDbStore r) {
      return r;
    }
    try {
      java.lang.reflect.Field delegate =
          io.ankusa.store.kit.forwarding.ForwardingStore.class.getDeclaredField("delegate");
      delegate.setAccessible(true);
      return (RocksDbStore) delegate.get(s);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Takes the iterator the last scan of {@code [LO, HI)} left and keeps it again as if it had been
   * idle for {@code ageNanos}; returns it.
   */
  private static ScanIterator keptAgain(Store s, long ageNanos) {
    ScanIterator[] kept = new ScanIterator[1];
    EngineProbe.read(
        rocks(s),
        e -> {
          long now = System.nanoTime();
          kept[0] = e.keptIterators.take(P, HI, now);
          assertThat(kept[0]).as("the last scan's iterator is kept").isNotNull();
          e.keptIterators.keep(kept[0], now - ageNanos);
          return 0;
        });
    return kept[0];
  }

  private static int idle(Store s) {
    return EngineProbe.read(rocks(s), e -> e.keptIterators.idle());
  }

  private static int reuses(Store s) {
    return EngineProbe.read(rocks(s), e -> (int) e.keptIterators.reuses());
  }

  private static List<Integer> scanned(Store s) {
    List<Integer> got = new ArrayList<>();
    try (Scan scan = s.scan(P, LO, HI, Direction.FORWARD)) {
      while (scan.hasNext()) {
        byte[] k = scan.next().key();
        got.add(((k[1] & 0xff) << 8) | (k[2] & 0xff));
      }
    }
    return got;
  }

  private static List<Integer> visited(Store s) {
    List<Integer> got = new ArrayList<>();
    s.visit(P, LO, HI, Direction.FORWARD, (k, v) -> got.add(((k[1] & 0xff) << 8) | (k[2] & 0xff)));
    return got;
  }

  private static void put(Store s, int... keys) {
    Batch b = new Batch();
    for (int k : keys) {
      b.put(P, key(k), new byte[] {1});
    }
    s.write(b, Durability.NO_SYNC);
  }

  /**
   * A scan on a kept iterator reads what was written since the iterator was kept: puts, deletes and
   * a range delete, with and without a flush and a compaction in between (a refresh with the
   * family's version unchanged only moves the sequence number; after a flush it rebuilds the
   * iterator).
   */
  @Test
  void aScanOnAKeptIteratorSeesWritesSinceItWasKept() throws Exception {
    try (Store s = open(dir)) {
      put(s, 1, 2);
      assertThat(scanned(s)).containsExactly(1, 2);
      assertThat(idle(s)).isEqualTo(1);
      put(s, 3);
      s.write(new Batch().delete(P, key(1)), Durability.NO_SYNC);
      assertThat(scanned(s)).containsExactly(2, 3);
      assertThat(visited(s)).containsExactly(2, 3);
      s.write(new Batch().deleteRange(P, key(2), key(3)), Durability.NO_SYNC);
      assertThat(scanned(s)).containsExactly(3);
      put(s, 4);
      EngineProbe.read(
          rocks(s),
          e -> {
            try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
              e.db.flush(f, e.handle(P));
              e.db.compactRange(e.handle(P));
            } catch (org.rocksdb.RocksDBException ex) {
              throw new AssertionError(ex);
            }
            return 0;
          });
      assertThat(scanned(s)).containsExactly(3, 4);
      put(s, 5);
      assertThat(visited(s)).containsExactly(3, 4, 5);
      assertThat(reuses(s)).as("every scan after the first ran on the kept iterator").isEqualTo(5);
      assertThat(idle(s)).isEqualTo(1);
    }
  }

  /**
   * Two scans of one range open at once each have their own iterator, read in turns past the first
   * chunk: the second took the iterator a closed third scan left, and the first, opened before a
   * write, keeps reading its own state.
   */
  @Test
  void openScansOfOneRangeNeverShareAnIterator() {
    try (Store s = open(dir)) {
      int n = 300;
      int[] all = new int[n];
      for (int i = 0; i < n; i++) {
        all[i] = i;
      }
      put(s, all);
      try (Scan first = s.scan(P, LO, HI, Direction.FORWARD)) {
        assertThat(first.next().key()).isEqualTo(key(0));
        assertThat(scanned(s)).hasSize(n); // opened, read and closed: its iterator is kept
        put(s, n);
        try (Scan second = s.scan(P, LO, HI, Direction.FORWARD);
            Scan third = s.scan(P, LO, HI, Direction.FORWARD)) {
          assertThat(reuses(s)).as("one of the two took the kept iterator").isEqualTo(1);
          List<Integer> a = new ArrayList<>(List.of(0));
          List<Integer> b = new ArrayList<>();
          List<Integer> c = new ArrayList<>();
          while (first.hasNext() || second.hasNext() || third.hasNext()) {
            for (Object[] pair : new Object[][] {{first, a}, {second, b}, {third, c}}) {
              Scan scan = (Scan) pair[0];
              if (scan.hasNext()) {
                Entry e = scan.next();
                @SuppressWarnings("unchecked")
                List<Integer> into = (List<Integer>) pair[1];
                into.add(((e.key()[1] & 0xff) << 8) | (e.key()[2] & 0xff));
              }
            }
          }
          List<Integer> before = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            before.add(i);
          }
          List<Integer> after = new ArrayList<>(before);
          after.add(n);
          assertThat(a).as("the scan opened before the write").isEqualTo(before);
          assertThat(b).as("a scan opened after it").isEqualTo(after);
          assertThat(c).as("the other scan opened after it").isEqualTo(after);
        }
      }
      assertThat(idle(s))
          .as("three closed scans of one range: two slots hold two, one was freed")
          .isEqualTo(2);
    }
  }

  /** Scans of a snapshot, reverse scans and every scan of a read-only store keep nothing. */
  @Test
  void onlyForwardScansOfTheLiveStoreAreKept() {
    try (Store s = open(dir)) {
      put(s, 1, 2);
      try (Snapshot snap = s.snapshot();
          Scan scan = snap.scan(P, LO, HI, Direction.FORWARD)) {
        assertThat(scan.next().key()).isEqualTo(key(1));
      }
      try (Scan scan = s.scan(P, LO, HI, Direction.REVERSE)) {
        assertThat(scan.next().key()).isEqualTo(key(2));
      }
      assertThat(idle(s)).isZero();
    }
    try (Store ro =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.readOnlyExisting(), List.of(FamilySpec.plain(P)))) {
      assertThat(scanned(ro)).containsExactly(1, 2);
      assertThat(scanned(ro)).containsExactly(1, 2);
      assertThat(idle(ro)).as("RocksDB cannot refresh a read-only instance's iterators").isZero();
    }
  }

  /**
   * An iterator idle longer than {@link KeptIterators#MAX_IDLE_NANOS} is freed, not reused: by the
   * take that finds it, and by the sweep a write runs.
   */
  @Test
  void anIteratorIdleTooLongIsFreed() {
    try (Store s = open(dir)) {
      put(s, 1);
      scanned(s);
      ScanIterator[] kept = new ScanIterator[1];
      EngineProbe.read(
          rocks(s),
          e -> {
            long now = System.nanoTime();
            kept[0] = e.keptIterators.take(P, HI, now);
            assertThat(kept[0]).isNotNull();
            e.keptIterators.keep(kept[0], now);
            assertThat(e.keptIterators.take(P, HI, now + KeptIterators.MAX_IDLE_NANOS + 1))
                .isNull();
            return 0;
          });
      assertThat(kept[0].iterator.isOwningHandle())
          .as("freed by the take that found it too old")
          .isFalse();
      assertThat(idle(s)).isZero();

      scanned(s);
      kept[0] = keptAgain(s, KeptIterators.MAX_IDLE_NANOS + 1);
      // The write's sweep may have run within the last period; a second one is due after it.
      EngineProbe.read(
          rocks(s),
          e -> {
            e.keptIterators.expire(System.nanoTime() + KeptIterators.MAX_IDLE_NANOS);
            return 0;
          });
      assertThat(kept[0].iterator.isOwningHandle()).as("freed by a sweep").isFalse();
      assertThat(idle(s)).isZero();
    }
  }

  /** A write sweeps the iterators idle too long. */
  @Test
  void aWriteFreesIteratorsIdleTooLong() throws Exception {
    try (Store s = open(dir)) {
      put(s, 1);
      scanned(s);
      ScanIterator kept = keptAgain(s, 2 * KeptIterators.MAX_IDLE_NANOS);
      Thread.sleep(KeptIterators.MAX_IDLE_NANOS / 1_000_000 + 50); // past the last sweep's period
      put(s, 2);
      assertThat(kept.iterator.isOwningHandle()).isFalse();
      assertThat(idle(s)).isZero();
    }
  }

  /**
   * A kept iterator evicted by a third range sharing its slots is freed, and closing the store
   * frees the rest.
   */
  @Test
  void evictedAndLeftOverIteratorsAreFreed() {
    byte[][] his = collidingBounds();
    List<ScanIterator> made = new ArrayList<>();
    try (Store s = open(dir)) {
      put(s, 1);
      for (byte[] hi : his) {
        try (Scan scan = s.scan(P, LO, hi, Direction.FORWARD)) {
          scan.hasNext();
        }
        EngineProbe.read(
            rocks(s),
            e -> {
              long now = System.nanoTime();
              ScanIterator it = e.keptIterators.take(P, hi, now);
              made.add(it);
              e.keptIterators.keep(it, now);
              return 0;
            });
      }
      assertThat(made.get(0).iterator.isOwningHandle()).as("evicted by the third range").isFalse();
      assertThat(made.get(1).iterator.isOwningHandle()).isTrue();
      assertThat(made.get(2).iterator.isOwningHandle()).isTrue();
      assertThat(idle(s)).isEqualTo(2);
    }
    assertThat(made).allSatisfy(it -> assertThat(it.iterator.isOwningHandle()).isFalse());
  }

  /**
   * Three upper bounds above {@link #LO} whose ranges of family {@link #P} land on one pair of
   * slots.
   */
  private static byte[][] collidingBounds() {
    List<byte[]> found = new ArrayList<>();
    int pair = -1;
    for (int i = 0; found.size() < 3; i++) {
      byte[] hi = {'l', (byte) (i >> 8), (byte) i};
      int slots = KeptIterators.slotOf(P, hi) >> 1;
      if (pair < 0) {
        pair = slots;
      }
      if (slots == pair) {
        found.add(hi);
      }
    }
    return found.toArray(new byte[0][]);
  }
}
