package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Txn;

/**
 * Point reads renew a read transaction an earlier read reset: each read still sees the newest
 * state, the map still grows while reset transactions are kept, at most the pool's capacity is
 * kept, and a transaction the pool does not keep gives its reader slot back. (That closing the
 * environment frees the kept ones is not checked: what would leak is a little native memory, see
 * docs/mutation-testing.md.)
 */
class PointReadTxnsTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));
  private static final int MIB = 1 << 20;

  @TempDir Path dir;

  private Store open(StoreOptions options) {
    return new LmdbStoreProvider().open(dir, options, FAMILIES);
  }

  @Test
  void aRenewedTransactionReadsTheNewestState() {
    try (Store store = open(StoreOptions.defaults())) {
      byte[] key = {7};
      for (int n = 0; n < 50; n++) {
        int i = n;
        store.write(new Batch().put("rows", key, new byte[] {(byte) i}), Durability.NO_SYNC);
        assertThat(store.get("rows", key))
            .as("read %d, through a transaction an earlier read reset", i)
            .containsExactly(i);
        assertThat(store.multiGet("rows", List.of(key, new byte[] {8})))
            .satisfiesExactly(v -> assertThat(v).containsExactly(i), v -> assertThat(v).isNull());
      }
    }
  }

  /**
   * Four readers share the kept transactions while a writer counts up: each reader's reads never go
   * back (a transaction handed from one thread to another is renewed at the newest state), and the
   * pool never holds more than its capacity. The interleaving is the threads' own; the order of the
   * checks is fixed.
   */
  @Test
  void readersOnSeveralThreadsNeverReadAnOlderState() throws InterruptedException {
    try (Store store = open(StoreOptions.defaults())) {
      byte[] key = {9};
      store.write(new Batch().put("rows", key, Longs.of(0)), Durability.NO_SYNC);
      AtomicReference<String> broken = new AtomicReference<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Thread reader =
            new Thread(
                () -> {
                  long last = 0;
                  while (writing.get() && broken.get() == null) {
                    long now = Longs.from(store.get("rows", key));
                    if (now < last) {
                      broken.compareAndSet(null, "read " + now + " after " + last);
                    }
                    last = now;
                  }
                });
        readers.add(reader);
        reader.start();
      }
      for (long v = 1; v <= 3000; v++) {
        store.write(new Batch().put("rows", key, Longs.of(v)), Durability.NO_SYNC);
      }
      writing.set(false);
      for (Thread reader : readers) {
        reader.join(30_000);
        assertThat(reader.isAlive()).isFalse();
      }
      assertThat(broken.get()).isNull();
      PointReadTxns pool = ((LmdbStore) store).shared(e -> e).pointReads();
      assertThat(pool.keptCount()).isBetween(1, pool.capacity());
      assertThat(Longs.from(store.get("rows", key))).isEqualTo(3000);
    }
  }

  /** Eight-byte big-endian values. */
  private static final class Longs {
    static byte[] of(long v) {
      return java.nio.ByteBuffer.allocate(8).putLong(v).array();
    }

    static long from(byte[] b) {
      return java.nio.ByteBuffer.wrap(b).getLong();
    }
  }

  @Test
  void theMapGrowsWhileResetTransactionsAreKept() {
    StoreOptions options =
        StoreOptions.defaults()
            .with("lmdb.mapSizeBytes", Long.toString(MIB))
            .with("lmdb.mapSizeMaxBytes", Long.toString(1L << 30))
            .with("lmdb.mapGrowWaitMillis", "50");
    try (Store store = open(options)) {
      LmdbStore lmdb = (LmdbStore) store;
      for (int b = 0; b < 40; b++) {
        Batch batch = new Batch();
        for (int i = 0; i < 50; i++) {
          batch.put("rows", MapGrowthTest.key(b, i), MapGrowthTest.value(b, i, 1000));
        }
        store.write(batch, Durability.NO_SYNC); // a reset transaction is kept from the read before
        assertThat(store.get("rows", MapGrowthTest.key(b, 49)))
            .isEqualTo(MapGrowthTest.value(b, 49, 1000));
      }
      assertThat(lmdb.mapSize()).as("the map grew past its first MiB").isGreaterThan(MIB);
      assertThat(store.get("rows", MapGrowthTest.key(0, 0)))
          .isEqualTo(MapGrowthTest.value(0, 0, 1000));
    }
  }

  @Test
  void atMostTheCapacityIsKeptAndOneNotKeptGivesItsSlotBack() {
    try (Store store = open(StoreOptions.defaults())) {
      store.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC);
      LmdbEnvironment env = ((LmdbStore) store).shared(e -> e);
      PointReadTxns pool = env.pointReads();
      int capacity = pool.capacity();
      assertThat(capacity).isPositive();
      Txn<MapBytes> first = pool.begin("test");
      pool.end(first, true);
      assertThat(pool.begin("test"))
          .as("the kept transaction, reset and then renewed, not a new one")
          .isSameAs(first);
      pool.end(first, true);
      List<Txn<MapBytes>> open = new ArrayList<>();
      for (int i = 0; i < capacity + 3; i++) {
        open.add(pool.begin("test"));
      }
      for (Txn<MapBytes> txn : open) {
        pool.end(txn, true);
      }
      assertThat(pool.keptCount()).isEqualTo(capacity);
      List<Txn<MapBytes>> again = new ArrayList<>();
      for (int i = 0; i < capacity; i++) {
        again.add(pool.begin("test"));
      }
      assertThat(pool.keptCount()).as("every kept transaction was handed out again").isZero();
      for (Txn<MapBytes> txn : again) {
        pool.end(txn, false); // a read that failed: closed, not kept
      }
      assertThat(pool.keptCount()).isZero();
      assertThat(store.get("rows", new byte[] {1})).containsExactly(1);
      assertThat(pool.keptCount()).isEqualTo(1);
      int slots = env.env().info().maxReaders;
      for (int i = 0; i < 2 * slots; i++) { // a transaction not kept gives its reader slot back
        Txn<MapBytes> txn = pool.begin("test");
        pool.end(txn, false);
      }
    }
  }
}
