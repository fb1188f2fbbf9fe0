package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A multiGet of a few keys is point reads at one pinned state; more keys read per-key statuses into
 * fixed slots, and values that do not fit are read again. Any number of keys, in chunks through a
 * bounded direct buffer: {@link MultiGetOfManyKeysTest}.
 */
class MultiGetTest {
  @TempDir Path dir;

  private static byte[] filled(int n, int b) {
    byte[] v = new byte[n];
    Arrays.fill(v, (byte) b);
    return v;
  }

  /**
   * Values of every size around the native multiGet's slot come back whole and in order, through
   * both paths: a few keys (point reads) and more than {@value RocksDbReadView#POINT_READ_KEYS} (the
   * native multiGet, whose slot a larger value overflows and is read again).
   */
  @Test
  void valuesOfEverySizeAroundTheSlotComeBackWholeAndInOrder() {
    int slot = RocksDbReadView.MULTI_GET_VALUE_BYTES;
    try (Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      byte[][] values = {new byte[0], filled(slot - 1, 1), filled(slot, 2), filled(slot + 1, 3), filled(10_000, 4)};
      Batch b = new Batch();
      for (int i = 0; i < values.length; i++) {
        b.put("p", new byte[] {(byte) i}, values[i]);
      }
      store.write(b, Durability.SYNC);
      List<byte[]> few = List.of(new byte[] {4}, new byte[] {9}, new byte[] {0}, new byte[] {3}, new byte[] {2},
          new byte[] {1}, new byte[] {4});
      List<byte[]> many = new ArrayList<>(few);
      for (int i = 0; i < RocksDbReadView.POINT_READ_KEYS; i++) {
        many.add(new byte[] {(byte) 0xEE, (byte) (i >> 8), (byte) i}); // absent, and never one of the one-byte keys above
      }
      assertThat(few).hasSizeLessThanOrEqualTo(RocksDbReadView.POINT_READ_KEYS);
      assertThat(many).hasSizeGreaterThan(RocksDbReadView.POINT_READ_KEYS);
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
   * A multiGet of a few keys is point reads, one after another; a write that commits between two of
   * them (forced through the seam) is seen by none of them, on the live store and on a snapshot.
   */
  @Test
  void aWriteBetweenTheReadsOfASmallMultiGetIsNotSeen() throws Exception {
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
   * The direct buffer a multiGet of many keys used is kept for the next one, and a reused buffer
   * answers only its own keys: absent keys read after present ones in the same slots come back null,
   * and values shorter than the slot's last occupant come back at their own length.
   */
  @Test
  void aReusedMultiGetBufferAnswersOnlyItsOwnKeys() {
    int n = RocksDbReadView.POINT_READ_KEYS + 72;
    try (Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      RocksDbStore rocks = (RocksDbStore) store;
      Batch b = new Batch();
      List<byte[]> present = new ArrayList<>();
      List<byte[]> absent = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] key = {1, (byte) (i >> 8), (byte) i};
        present.add(key);
        b.put("p", key, filled(300 - i, i));
        absent.add(new byte[] {2, (byte) (i >> 8), (byte) i});
      }
      store.write(b, Durability.SYNC);
      assertThat(idleArenas(rocks)).isZero();
      assertThat(store.multiGet("p", present)).allSatisfy(v -> assertThat(v).isNotNull());
      assertThat(idleArenas(rocks)).as("the buffer is kept").isEqualTo(1);
      assertThat(store.multiGet("p", absent)).as("absent keys in the slots present ones filled")
          .hasSize(n).containsOnlyNulls();
      List<byte[]> reversed = new ArrayList<>(present);
      Collections.reverse(reversed);
      List<byte[]> got = store.multiGet("p", reversed);
      for (int i = 0; i < n; i++) {
        int k = n - 1 - i;
        assertThat(got.get(i)).as("key %d", k).isEqualTo(filled(300 - k, k));
      }
      assertThat(idleArenas(rocks)).as("one buffer, reused").isEqualTo(1);
    }
  }

  private static int idleArenas(RocksDbStore store) {
    return EngineProbe.read(store, e -> e.multiGetArenas.idle());
  }
}
