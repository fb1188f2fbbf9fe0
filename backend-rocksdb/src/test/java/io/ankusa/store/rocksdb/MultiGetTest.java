package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocksdb.RocksDBException;

/**
 * A multiGet is point reads of one state, in order, whatever the number of keys or the size of the
 * values: checked against the engine's write tally, or at a pinned engine snapshot when a write
 * overlaps. A million keys and more in bounded memory: {@link MultiGetOfManyKeysTest}.
 */
class MultiGetTest {
  @TempDir Path dir;

  private static byte[] filled(int n, int b) {
    byte[] v = new byte[n];
    Arrays.fill(v, (byte) b);
    return v;
  }

  /**
   * Values of every size (empty, 511 to 513 bytes, 10 000 bytes) come back whole and in order, the
   * same with a few keys and with a thousand absent ones after them.
   */
  @Test
  void valuesOfEverySizeComeBackWholeAndInOrder() {
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      byte[][] values = {
        new byte[0], filled(511, 1), filled(512, 2), filled(513, 3), filled(10_000, 4)
      };
      Batch b = new Batch();
      for (int i = 0; i < values.length; i++) {
        b.put("p", new byte[] {(byte) i}, values[i]);
      }
      store.write(b, Durability.SYNC);
      List<byte[]> few =
          List.of(
              new byte[] {4},
              new byte[] {9},
              new byte[] {0},
              new byte[] {3},
              new byte[] {2},
              new byte[] {1},
              new byte[] {4});
      List<byte[]> many = new ArrayList<>(few);
      for (int i = 0; i < 1000; i++) {
        many.add(
            new byte[] {
              (byte) 0xEE, (byte) (i >> 8), (byte) i
            }); // absent, and never one of the one-byte keys above
      }
      for (List<byte[]> keys : List.of(few, many)) {
        List<byte[]> got = store.multiGet("p", keys);
        assertThat(got).as("%d keys", keys.size()).hasSize(keys.size());
        assertThat(got.get(0)).isEqualTo(values[4]);
        assertThat(got.get(1)).isNull();
        assertThat(got.get(2)).isEqualTo(values[0]);
        assertThat(got.get(3)).isEqualTo(values[3]);
        assertThat(got.get(4)).isEqualTo(values[2]);
        assertThat(got.get(5)).isEqualTo(values[1]);
        assertThat(got.get(6)).isEqualTo(values[4]);
        assertThat(got.subList(7, got.size())).allMatch(v -> v == null);
      }
    }
  }

  /** The number of engine snapshots {@code store} holds now. */
  private static int snapshotsHeld(Store store) {
    return EngineProbe.read(
        (RocksDbStore) store,
        e -> {
          try {
            return Integer.parseInt(e.db.getProperty("rocksdb.num-snapshots"));
          } catch (RocksDBException ex) {
            throw new AssertionError(ex);
          }
        });
  }

  /**
   * Writes {@code value} at both keys, in one batch or as two single-op writes ({@code a} first),
   * on another thread (this one holds the view while it reads). Both are how the backend writes,
   * each counted on the write tally.
   */
  private static void writeBothFromAnotherThread(
      Store store, byte[] a, byte[] b, int value, boolean oneBatch) {
    byte[] v = {(byte) value};
    Thread writer =
        new Thread(
            () -> {
              if (oneBatch) {
                store.write(new Batch().put("p", a, v).put("p", b, v), Durability.NO_SYNC);
              } else {
                store.write(new Batch().put("p", a, v), Durability.NO_SYNC);
                store.write(new Batch().put("p", b, v), Durability.NO_SYNC);
              }
            });
    writer.start();
    try {
      writer.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Each read the seam saw: the key's index and the engine snapshots held then. */
  private record SeenRead(int index, int snapshots) {}

  /**
   * Runs {@code body} with {@code seam} called after each point read of a multiGet, then removes
   * it.
   */
  private static void withSeam(IntConsumer seam, Runnable body) {
    RocksDbReadView.afterPointRead = seam;
    try {
      body.run();
    } finally {
      RocksDbReadView.afterPointRead = null;
    }
  }

  /**
   * With no write during it, a multiGet of several keys reads them all without an engine snapshot.
   */
  @Test
  void aMultiGetWithNoWriteDuringItTakesNoSnapshot() {
    byte[] a = {1};
    byte[] b = {2};
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      store.write(
          new Batch().put("p", a, new byte[] {10}).put("p", b, new byte[] {10}),
          Durability.NO_SYNC);
      List<SeenRead> seen = new ArrayList<>();
      withSeam(
          i -> seen.add(new SeenRead(i, snapshotsHeld(store))),
          () ->
              assertThat(store.multiGet("p", List.of(a, b, a)))
                  .extracting(Bytes::hex)
                  .containsExactly("0a", "0a", "0a"));
      assertThat(seen).containsExactly(new SeenRead(0, 0), new SeenRead(1, 0), new SeenRead(2, 0));
    }
  }

  /**
   * Up to {@link RocksDbReadView#MAX_KEYS_UNPINNED} keys are read with no engine snapshot; one key
   * more, and the call pins one before its first read.
   */
  @Test
  void aLongerMultiGetPinsASnapshotFromItsFirstRead() {
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      store.write(new Batch().put("p", new byte[] {1}, new byte[] {10}), Durability.NO_SYNC);
      for (int n :
          new int[] {RocksDbReadView.MAX_KEYS_UNPINNED, RocksDbReadView.MAX_KEYS_UNPINNED + 1}) {
        List<byte[]> keys = java.util.Collections.nCopies(n, new byte[] {1});
        List<SeenRead> seen = new ArrayList<>();
        withSeam(
            i -> seen.add(new SeenRead(i, snapshotsHeld(store))),
            () ->
                assertThat(store.multiGet("p", keys))
                    .hasSize(n)
                    .allSatisfy(v -> assertThat(v).containsExactly(10)));
        assertThat(seen)
            .as("%d keys", n)
            .hasSize(n)
            .allSatisfy(
                r ->
                    assertThat(r.snapshots())
                        .isEqualTo(n > RocksDbReadView.MAX_KEYS_UNPINNED ? 1 : 0));
      }
    }
  }

  /**
   * A write that commits between two reads of a multiGet (forced through the seam) stops the reads;
   * they start again at a pinned engine snapshot, which a second write forced between them does not
   * change. So the answer is of one state, the one after the first write. On a snapshot, a write
   * forced between the reads is seen by none of them. The same with the writes made as one batch or
   * as single ops (two of them, which a read of {@code a} before and of {@code b} after would see
   * as a state that never was).
   */
  @ParameterizedTest(name = "one batch: {0}")
  @ValueSource(booleans = {true, false})
  void aWriteBetweenTheReadsOfAMultiGetIsNotSeen(boolean oneBatch) {
    byte[] a = {1};
    byte[] b = {2};
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      store.write(
          new Batch().put("p", a, new byte[] {10}).put("p", b, new byte[] {10}),
          Durability.NO_SYNC);
      int[] writes = {0};
      List<SeenRead> seen = new ArrayList<>();
      IntConsumer seam =
          i -> {
            seen.add(new SeenRead(i, snapshotsHeld(store)));
            if (i == 0) {
              writes[0]++;
              writeBothFromAnotherThread(store, a, b, 10 + writes[0], oneBatch);
            }
          };
      withSeam(
          seam,
          () -> {
            assertThat(store.multiGet("p", List.of(a, b)))
                .extracting(Bytes::hex)
                .containsExactly("0b", "0b");
            assertThat(seen)
                .as("the reads: stopped after the first write, then again at a snapshot")
                .containsExactly(new SeenRead(0, 0), new SeenRead(0, 1), new SeenRead(1, 1));
            seen.clear();
            try (var snap = store.snapshot()) {
              assertThat(snap.multiGet("p", List.of(b, a)))
                  .extracting(Bytes::hex)
                  .containsExactly("0c", "0c");
            }
            assertThat(seen).extracting(SeenRead::index).containsExactly(0, 1);
          });
      assertThat(writes[0]).as("writes forced between reads").isEqualTo(3);
      assertThat(store.multiGet("p", List.of(a, b)))
          .extracting(Bytes::hex)
          .containsExactly("0d", "0d");
    }
  }

  /**
   * A write that has begun when a multiGet starts, and lands between its reads, is seen by none of
   * them: the reads go straight to a pinned engine snapshot. The write is forced as the tally
   * counts one: begun here, its engine call made in the seam, ended after the multiGet.
   */
  @Test
  void aWriteInFlightWhenAMultiGetStartsIsNotSeen() {
    byte[] a = {1};
    byte[] b = {2};
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      store.write(
          new Batch().put("p", a, new byte[] {10}).put("p", b, new byte[] {10}),
          Durability.NO_SYNC);
      RocksDbStore rocks = (RocksDbStore) store;
      List<SeenRead> seen = new ArrayList<>();
      IntConsumer seam =
          i -> {
            seen.add(new SeenRead(i, snapshotsHeld(store)));
            if (i == 0) {
              EngineProbe.read(
                  rocks,
                  e -> {
                    try (org.rocksdb.WriteBatch wb = new org.rocksdb.WriteBatch();
                        org.rocksdb.WriteOptions wo = new org.rocksdb.WriteOptions()) {
                      wb.put(e.handle("p"), a, new byte[] {11});
                      wb.put(e.handle("p"), b, new byte[] {11});
                      e.db.write(wo, wb);
                    } catch (RocksDBException ex) {
                      throw new AssertionError(ex);
                    }
                    return 0;
                  });
            }
          };
      EngineProbe.read(
          rocks,
          e -> {
            e.writes.begin();
            return 0;
          });
      try {
        withSeam(
            seam,
            () ->
                assertThat(store.multiGet("p", List.of(a, b)))
                    .extracting(Bytes::hex)
                    .containsExactly("0a", "0a"));
      } finally {
        EngineProbe.read(
            rocks,
            e -> {
              e.writes.end();
              return 0;
            });
      }
      assertThat(seen).containsExactly(new SeenRead(0, 1), new SeenRead(1, 1));
      assertThat(store.multiGet("p", List.of(a, b)))
          .extracting(Bytes::hex)
          .containsExactly("0b", "0b");
    }
  }

  /**
   * A counters family's reads go into an 8-byte array; a value of another length (written here past
   * the SPI, as damage would leave it) still reads back whole through get and multiGet, live and at
   * a snapshot, and counter() reports it instead of decoding part of it.
   */
  @Test
  void aCounterValueOfAnotherWidthReadsBackWhole() {
    byte[] shortKey = {1};
    byte[] longKey = {2};
    byte[] good = {3};
    byte[] absent = {4};
    byte[] shortValue = {1, 2, 3};
    byte[] longValue = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.counters("c", 0)))) {
      store.write(new Batch().merge("c", good, 5), Durability.NO_SYNC);
      EngineProbe.read(
          (RocksDbStore) store,
          e -> {
            try {
              e.db.put(e.handle("c"), shortKey, shortValue);
              e.db.put(e.handle("c"), longKey, longValue);
            } catch (RocksDBException ex) {
              throw new AssertionError(ex);
            }
            return 0;
          });
      assertThat(store.get("c", shortKey)).isEqualTo(shortValue);
      assertThat(store.get("c", longKey)).isEqualTo(longValue);
      assertThat(store.get("c", absent)).isNull();
      assertThat(store.get("c", good)).isEqualTo(Int64Add.encode(5));
      List<byte[]> keys = List.of(longKey, absent, good, shortKey);
      assertThat(store.multiGet("c", keys))
          .containsExactly(longValue, null, Int64Add.encode(5), shortValue);
      try (var snap = store.snapshot()) {
        assertThat(snap.multiGet("c", keys))
            .containsExactly(longValue, null, Int64Add.encode(5), shortValue);
      }
      assertThat(store.counter("c", good)).isEqualTo(5);
      assertThat(store.counter("c", absent)).isZero();
      for (byte[] k : List.of(shortKey, longKey)) {
        assertThatThrownBy(() -> store.counter("c", k))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining(
                "at key " + Bytes.hex(k) + " is " + (k == shortKey ? 3 : 12) + " bytes");
      }
    }
  }
}
