package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Batches: ops apply in order, atomically to readers, a bad batch is refused whole, an empty one is
 * a no-op, families stay apart.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface BatchCases extends EngineCase {
  /**
   * Ops of one batch apply in order: a put after a delete of the same key wins, a merge after a put
   * adds to it, a deleteRange keeps a later put and removes an earlier one (also one of a key above
   * its {@code lo}, which a backend that applied the batch in key order would put after the range),
   * and the last of several puts of one key wins when other keys' ops lie between them.
   */
  @Property
  default void batchOpsApplyInOrder(
      @ForAll("keys") byte[] key,
      @ForAll("values") byte[] value,
      @ForAll("deltas") long base,
      @ForAll("deltas") long delta) {
    byte[] lo = key;
    byte[] hi = concat(key, new byte[] {0});
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(
          new Batch().put(PLAIN, key, new byte[] {1, 2, 3}).put(COUNTERS, key, Int64Add.encode(7)),
          Durability.NO_SYNC);

      s.write(new Batch().delete(PLAIN, key).put(PLAIN, key, value), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key))
          .as("put after delete of %s in one batch wins", Bytes.hex(key))
          .isEqualTo(value);

      s.write(
          new Batch().put(COUNTERS, key, Int64Add.encode(base)).merge(COUNTERS, key, delta),
          Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key))
          .as("merge %d after put %d in one batch adds to it", delta, base)
          .isEqualTo(base + delta);

      s.write(new Batch().deleteRange(PLAIN, lo, hi).put(PLAIN, key, value), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key))
          .as("deleteRange then put of %s in one batch keeps the put", Bytes.hex(key))
          .isEqualTo(value);

      s.write(new Batch().put(PLAIN, key, value).deleteRange(PLAIN, lo, hi), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key))
          .as("put then deleteRange over %s in one batch removes it", Bytes.hex(key))
          .isNull();

      byte[] inside = concat(key, new byte[] {1});
      byte[] wideHi = concat(key, new byte[] {2});
      s.write(
          new Batch()
              .put(PLAIN, inside, value)
              .put(PLAIN, key, value)
              .deleteRange(PLAIN, key, wideHi),
          Durability.NO_SYNC);
      assertThat(s.get(PLAIN, inside))
          .as(
              "put of %s then deleteRange from %s in one batch removes it",
              Bytes.hex(inside), Bytes.hex(key))
          .isNull();

      s.write(
          new Batch()
              .put(PLAIN, inside, new byte[] {1})
              .put(PLAIN, key, new byte[] {2})
              .put(PLAIN, inside, value)
              .delete(PLAIN, key),
          Durability.NO_SYNC);
      assertThat(s.get(PLAIN, inside))
          .as("the last of two puts of %s in one batch wins", Bytes.hex(inside))
          .isEqualTo(value);

      s.write(
          new Batch().merge(COUNTERS, key, delta).delete(COUNTERS, key).merge(COUNTERS, key, base),
          Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key))
          .as("merge, delete, merge %d in one batch leaves the last merge", base)
          .isEqualTo(base);
    }
  }

  /**
   * A reader never sees part of a batch: a writer thread rewrites N keys together, batch after
   * batch, while a reader thread reads them with multiGet, get and scans; every read shows one
   * batch's value for all N keys.
   */
  @Example
  default void batchIsAtomicToConcurrentReaders() throws Exception {
    final int width = 8;
    final int minBatches = 1000;
    final int minOverlappingReads = 2000;
    final int maxBatches = 200_000;
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      keys.add(new byte[] {(byte) 0x80, (byte) (i * 17), 0x01});
    }
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(rewrite(keys, 0), Durability.NO_SYNC);
      AtomicBoolean writerDone = new AtomicBoolean();
      AtomicBoolean readerDone = new AtomicBoolean();
      AtomicInteger overlappingReads = new AtomicInteger();
      CountDownLatch start = new CountDownLatch(2);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        // The writer goes on until the reader has read often while it wrote (bounded by
        // maxBatches),
        // so the two overlap however the threads are scheduled; it stops early once the reader has
        // stopped (a torn read fails the reader at once, and writing on would only cost time).
        Future<Integer> writer =
            pool.submit(
                () -> {
                  start.countDown();
                  awaitQuietly(start);
                  int v = 0;
                  try {
                    while (!readerDone.get()
                        && (v < minBatches
                            || (overlappingReads.get() < minOverlappingReads && v < maxBatches))) {
                      v++;
                      s.write(rewrite(keys, v), Durability.NO_SYNC);
                    }
                  } finally {
                    writerDone.set(true);
                  }
                  return v;
                });
        Future<Integer> reader =
            pool.submit(
                () -> {
                  start.countDown();
                  awaitQuietly(start);
                  int reads = 0;
                  int last = 0;
                  // Stops after the first read that began once the writer was done, so the last
                  // read must
                  // see the last batch.
                  boolean finalRead = false;
                  try {
                    while (!finalRead) {
                      finalRead = writerDone.get();
                      int seen;
                      if (reads % 3 == 2) {
                        List<Entry> all = drain(s, PLAIN, START, null, Direction.FORWARD);
                        assertThat(all)
                            .as("scan during batches sees all %d keys", width)
                            .hasSize(width);
                        seen = sameValue(all.stream().map(Entry::value).toList(), "a scan");
                      } else {
                        seen = sameValue(s.multiGet(PLAIN, keys), "a multiGet");
                      }
                      assertThat(seen)
                          .as("reads never go back in time")
                          .isGreaterThanOrEqualTo(last);
                      last = seen;
                      reads++;
                      if (!finalRead) {
                        overlappingReads.incrementAndGet();
                      }
                    }
                  } finally {
                    readerDone.set(true);
                  }
                  return last;
                });
        int written = writer.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(reader.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS))
            .as("the last read")
            .isEqualTo(written);
      } catch (ExecutionException e) {
        throw unwrap(e);
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      }
    }
  }

  private static Batch rewrite(List<byte[]> keys, int value) {
    Batch b = new Batch();
    for (byte[] k : keys) {
      b.put(PLAIN, k, ByteBuffer.allocate(4).putInt(value).array());
    }
    return b;
  }

  private static int sameValue(List<byte[]> values, String how) {
    int first = ByteBuffer.wrap(values.get(0)).getInt();
    for (int i = 1; i < values.size(); i++) {
      int v = ByteBuffer.wrap(values.get(i)).getInt();
      if (v != first) {
        throw new AssertionError(
            how
                + " saw a half-applied batch: key 0 holds batch "
                + first
                + " but key "
                + i
                + " holds batch "
                + v);
      }
    }
    return first;
  }

  /**
   * A batch whose last op is bad (unknown family, merge into a plain family, empty key, a 7-byte
   * put into a counters family, an oversized key, a range with lo > hi) is refused with
   * StoreArgumentException and nothing of it is applied.
   */
  @Example
  default void badBatchIsRefusedWhole() {
    byte[] k = {(byte) 0x90, 0x01};
    Map<String, Op> badLastOps = new LinkedHashMap<>();
    badLastOps.put("unknown family", new Op.Put("no-such-family", k, new byte[] {1}));
    badLastOps.put("merge into a plain family", new Op.Merge(PLAIN, k, 1));
    badLastOps.put("empty key", new Op.Put(PLAIN, new byte[0], new byte[] {1}));
    badLastOps.put("7-byte put into a counters family", new Op.Put(COUNTERS, k, new byte[7]));
    if (capabilities().maxKeyBytes() < MAX_OVERSIZED_KEY) {
      badLastOps.put(
          "key longer than maxKeyBytes",
          new Op.Delete(PLAIN, new byte[capabilities().maxKeyBytes() + 1]));
    }
    badLastOps.put(
        "deleteRange with lo > hi", new Op.DeleteRange(PLAIN, new byte[] {2}, new byte[] {1}));
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(
          new Batch()
              .put(PLAIN, k, new byte[] {9})
              .put(PLAIN, new byte[] {0x10}, new byte[] {8})
              .merge(COUNTERS, k, 5),
          Durability.SYNC);
      List<Entry> plainBefore = drain(s, PLAIN, START, null, Direction.FORWARD);
      List<Entry> countersBefore = drain(s, COUNTERS, START, null, Direction.FORWARD);
      for (Map.Entry<String, Op> bad : badLastOps.entrySet()) {
        Batch b =
            new Batch()
                .put(PLAIN, new byte[] {(byte) 0xa0}, new byte[] {1})
                .delete(PLAIN, k)
                .deleteRange(PLAIN, new byte[] {0x00}, new byte[] {0x20})
                .merge(COUNTERS, k, 1000)
                .add(bad.getValue());
        thrownBy(() -> s.write(b, Durability.SYNC), "a batch ending with %s: %s", bad.getKey(), b)
            .isInstanceOf(StoreArgumentException.class);
        assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD)))
            .as("plain family after refusing a batch ending with %s", bad.getKey())
            .isEqualTo(hexEntries(plainBefore));
        assertThat(hexEntries(drain(s, COUNTERS, START, null, Direction.FORWARD)))
            .as("counters family after refusing a batch ending with %s", bad.getKey())
            .isEqualTo(hexEntries(countersBefore));
      }
    }
  }

  /**
   * A batch of one op applies like any other batch, with either durability: a put, a delete, a
   * deleteRange (an empty one included) and a merge, each alone. A backend may take a shorter path
   * for a single op (the RocksDB backend calls the engine's own put, delete, deleteRange and
   * merge); this is where that path is checked op by op.
   */
  @Example
  default void aBatchOfOneOpAppliesLikeAnyOther() {
    byte[] a = {0x31, 0x01};
    byte[] b = {0x31, 0x02};
    byte[] c = {0x31, 0x03};
    byte[] counter = {0x32};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      long expectedCounter = 0;
      for (Durability d : Durability.values()) {
        s.write(new Batch().put(PLAIN, a, new byte[] {1}), d);
        s.write(new Batch().put(PLAIN, b, new byte[] {2}), d);
        s.write(new Batch().put(PLAIN, c, new byte[] {3}), d);
        assertThat(s.get(PLAIN, a)).as("a one-put batch, %s", d).isEqualTo(new byte[] {1});
        s.write(new Batch().delete(PLAIN, a), d);
        assertThat(s.get(PLAIN, a)).as("a one-delete batch, %s", d).isNull();
        assertThat(s.get(PLAIN, b)).as("the delete's neighbour, %s", d).isEqualTo(new byte[] {2});
        s.write(new Batch().deleteRange(PLAIN, b, b), d);
        assertThat(s.get(PLAIN, b))
            .as("after a one-op batch deleting the empty range [b, b), %s", d)
            .isEqualTo(new byte[] {2});
        s.write(new Batch().deleteRange(PLAIN, b, c), d);
        assertThat(s.get(PLAIN, b)).as("a one-deleteRange batch [b, c), %s", d).isNull();
        assertThat(s.get(PLAIN, c)).as("its exclusive end c, %s", d).isEqualTo(new byte[] {3});
        s.write(new Batch().merge(COUNTERS, counter, 5), d);
        s.write(new Batch().merge(COUNTERS, counter, -2), d);
        expectedCounter += 3;
        assertThat(s.counter(COUNTERS, counter))
            .as("two one-merge batches, %s", d)
            .isEqualTo(expectedCounter);
        s.write(new Batch().delete(PLAIN, c), d);
      }
      assertThat(drain(s, PLAIN, START, null, Direction.FORWARD))
          .as("the plain family at the end")
          .isEmpty();
    }
  }

  /** An empty batch is a no-op, with either durability. */
  @Example
  default void emptyBatchIsANoOp() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, new byte[] {1}, new byte[] {2}), Durability.NO_SYNC);
      s.write(new Batch(), Durability.NO_SYNC);
      s.write(new Batch(), Durability.SYNC);
      assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD)))
          .containsExactly("01=02");
    }
  }

  /** The same key in two families are two entries: writing one leaves the other alone. */
  @Property
  default void familiesAreIndependent(@ForAll("keys") byte[] key, @ForAll("deltas") long delta) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(
          new Batch().put(PLAIN, key, new byte[] {1}).merge(COUNTERS, key, delta),
          Durability.NO_SYNC);
      s.write(new Batch().delete(PLAIN, key), Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).isEqualTo(delta);
      s.write(
          new Batch()
              .put(PLAIN, key, new byte[] {2})
              .deleteRange(COUNTERS, START, new byte[] {(byte) 0xff, (byte) 0xff}),
          Durability.NO_SYNC);
      s.write(new Batch().delete(COUNTERS, key), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).isEqualTo(new byte[] {2});
      assertThat(s.get(COUNTERS, key)).isNull();
    }
  }

  /** Deleting an absent key, or an empty range, changes nothing. */
  @Property
  default void deleteOfAbsentKeyIsANoOp(
      @ForAll("keySets") List<byte[]> present, @ForAll("keys") byte[] absent) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.UNSIGNED);
      Batch b = new Batch();
      for (byte[] k : present) {
        if (!Arrays.equals(k, absent)) {
          b.put(PLAIN, k, k);
          model.put(k, k);
        }
      }
      s.write(b, Durability.NO_SYNC);
      s.write(
          new Batch().delete(PLAIN, absent).deleteRange(PLAIN, absent, absent), Durability.NO_SYNC);
      assertSameEntries(
          drain(s, PLAIN, START, null, Direction.FORWARD),
          model,
          "after delete and empty deleteRange of absent " + Bytes.hex(absent));
    }
  }
}
