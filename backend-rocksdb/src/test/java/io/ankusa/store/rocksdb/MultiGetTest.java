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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;

/**
 * A multiGet is point reads at one pinned state, in order, whatever the number of keys or the size
 * of the values. A million keys and more in bounded memory: {@link MultiGetOfManyKeysTest}.
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
    try (Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      byte[][] values = {new byte[0], filled(511, 1), filled(512, 2), filled(513, 3), filled(10_000, 4)};
      Batch b = new Batch();
      for (int i = 0; i < values.length; i++) {
        b.put("p", new byte[] {(byte) i}, values[i]);
      }
      store.write(b, Durability.SYNC);
      List<byte[]> few = List.of(new byte[] {4}, new byte[] {9}, new byte[] {0}, new byte[] {3}, new byte[] {2},
          new byte[] {1}, new byte[] {4});
      List<byte[]> many = new ArrayList<>(few);
      for (int i = 0; i < 1000; i++) {
        many.add(new byte[] {(byte) 0xEE, (byte) (i >> 8), (byte) i}); // absent, and never one of the one-byte keys above
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

  /**
   * A multiGet is point reads, one after another; a write that commits between two of them (forced
   * through the seam) is seen by none of them, on the live store and on a snapshot.
   */
  @Test
  void aWriteBetweenTheReadsOfAMultiGetIsNotSeen() throws Exception {
    byte[] a = {1};
    byte[] b = {2};
    try (Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      store.write(new Batch().put("p", a, new byte[] {10}).put("p", b, new byte[] {10}), Durability.NO_SYNC);
      int[] writes = {0};
      List<Integer> readsSeen = new ArrayList<>();
      RocksDbReadView.afterPointRead = i -> {
        readsSeen.add(i);
        if (i != 0) {
          return;
        }
        writes[0]++;
        // Another thread, as in production: this one holds the view while it reads.
        Thread writer = new Thread(() -> store.write(
            new Batch().put("p", a, new byte[] {(byte) (10 + writes[0])}).put("p", b, new byte[] {(byte) (10 + writes[0])}),
            Durability.NO_SYNC));
        writer.start();
        try {
          writer.join();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      };
      try {
        assertThat(store.multiGet("p", List.of(a, b))).extracting(Bytes::hex).containsExactly("0a", "0a");
        try (var snap = store.snapshot()) {
          assertThat(snap.multiGet("p", List.of(b, a))).extracting(Bytes::hex).containsExactly("0b", "0b");
        }
      } finally {
        RocksDbReadView.afterPointRead = null;
      }
      assertThat(readsSeen).as("the keys read, each seen by the seam").containsExactly(0, 1, 0, 1);
      assertThat(writes[0]).as("writes forced between reads").isEqualTo(2);
      assertThat(store.multiGet("p", List.of(a, b))).extracting(Bytes::hex).containsExactly("0c", "0c");
    }
  }

  /**
   * A counters family's reads go into an 8-byte array; a value of another length (written here past
   * the SPI, as damage would leave it) still reads back whole through get and multiGet, live and at a
   * snapshot, and counter() reports it instead of decoding part of it.
   */
  @Test
  void aCounterValueOfAnotherWidthReadsBackWhole() {
    byte[] shortKey = {1};
    byte[] longKey = {2};
    byte[] good = {3};
    byte[] absent = {4};
    byte[] shortValue = {1, 2, 3};
    byte[] longValue = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    try (Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(),
        List.of(FamilySpec.counters("c", 0)))) {
      store.write(new Batch().merge("c", good, 5), Durability.NO_SYNC);
      EngineProbe.read((RocksDbStore) store, e -> {
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
      assertThat(store.multiGet("c", keys)).containsExactly(longValue, null, Int64Add.encode(5),
          shortValue);
      try (var snap = store.snapshot()) {
        assertThat(snap.multiGet("c", keys)).containsExactly(longValue, null, Int64Add.encode(5),
            shortValue);
      }
      assertThat(store.counter("c", good)).isEqualTo(5);
      assertThat(store.counter("c", absent)).isZero();
      for (byte[] k : List.of(shortKey, longKey)) {
        assertThatThrownBy(() -> store.counter("c", k))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining("at key " + Bytes.hex(k) + " is " + (k == shortKey ? 3 : 12) + " bytes");
      }
    }
  }
}
