package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.FileTrees;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreMarker;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Reporter;
import net.jqwik.api.Tuple;
import org.opentest4j.TestAbortedException;

/**
 * Layer 1 of the conformance suite: every guarantee of the engine contract (spi javadoc), as named
 * jqwik properties (and a few JUnit tests for capability-gated checks) run against the backend a
 * concrete subclass names:
 *
 * <pre>{@code
 * class RocksDbEngineConformanceTest extends EngineConformance {
 *   @Override protected BackendFixture fixture() { return new RocksDbFixture(); }
 * }
 * }</pre>
 *
 * <p>Each case opens its own store in a fresh temporary directory ({@link TempDirStore}) and closes
 * and deletes it, also on failure. Stores have two families: {@value #PLAIN} (plain) and {@value
 * #COUNTERS} (counters). Generated keys are 1..32 bytes (never above {@link
 * Capabilities#maxKeyBytes()}), drawn so that bytes {@code >= 0x80} and shared prefixes are common.
 * A case needing a capability the backend does not claim is skipped visibly with the reason ({@link
 * TestAbortedException}). The method names are the property names the SPI javadoc refers to.
 *
 * <p>The keystone is {@link #modelBasedRandomBatches}: random, shrinkable sequences of batches
 * applied to the backend and to {@code backend-memory}, with the whole state compared after each
 * batch. The other properties pin down one promise each, so a failure names the broken promise.
 */
public abstract class EngineConformance extends ConformanceSuite {
  /** The plain family of every store the suite opens. */
  protected static final String PLAIN = "plain";
  /** The counters family of every store the suite opens. */
  protected static final String COUNTERS = "counters";
  /** The families of every store the suite opens. */
  protected static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain(PLAIN), FamilySpec.counters(COUNTERS, 0));

  private static final byte[] START = new byte[0];
  /** Longest wait for the threads of a concurrency case; a hang fails the case instead of the build. */
  private static final long THREAD_WAIT_SECONDS = 120;
  /** Oversized keys are tried only when maxKeyBytes is below this (allocating one must be cheap). */
  private static final int MAX_OVERSIZED_KEY = 1 << 20;


  /** A new store of the backend under test with {@link #FAMILIES}, in a fresh temporary directory. */
  protected final TempDirStore openFresh() {
    return TempDirStore.open(backend(), FAMILIES);
  }

  protected final Capabilities capabilities() {
    return backend().capabilities();
  }


  // ================================================================ batches

  /**
   * Ops of one batch apply in order: a put after a delete of the same key wins, a merge after a put
   * adds to it, a deleteRange keeps a later put and removes an earlier one.
   */
  @Property
  public void batchOpsApplyInOrder(@ForAll("keys") byte[] key, @ForAll("values") byte[] value,
      @ForAll("deltas") long base, @ForAll("deltas") long delta) {
    byte[] lo = key;
    byte[] hi = concat(key, new byte[] {0});
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, new byte[] {1, 2, 3}).put(COUNTERS, key, Int64Add.encode(7)),
          Durability.NO_SYNC);

      s.write(new Batch().delete(PLAIN, key).put(PLAIN, key, value), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).as("put after delete of %s in one batch wins", Bytes.hex(key))
          .isEqualTo(value);

      s.write(new Batch().put(COUNTERS, key, Int64Add.encode(base)).merge(COUNTERS, key, delta),
          Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).as("merge %d after put %d in one batch adds to it", delta, base)
          .isEqualTo(base + delta);

      s.write(new Batch().deleteRange(PLAIN, lo, hi).put(PLAIN, key, value), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).as("deleteRange then put of %s in one batch keeps the put", Bytes.hex(key))
          .isEqualTo(value);

      s.write(new Batch().put(PLAIN, key, value).deleteRange(PLAIN, lo, hi), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).as("put then deleteRange over %s in one batch removes it", Bytes.hex(key))
          .isNull();

      s.write(new Batch().merge(COUNTERS, key, delta).delete(COUNTERS, key).merge(COUNTERS, key, base),
          Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).as("merge, delete, merge %d in one batch leaves the last merge", base)
          .isEqualTo(base);
    }
  }

  /**
   * A reader never sees part of a batch: a writer thread rewrites N keys together, batch after batch,
   * while a reader thread reads them with multiGet, get and scans; every read shows one batch's value
   * for all N keys.
   */
  @Example
  public void batchIsAtomicToConcurrentReaders() throws Exception {
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
        // The writer goes on until the reader has read often while it wrote (bounded by maxBatches),
        // so the two overlap however the threads are scheduled; it stops early once the reader has
        // stopped (a torn read fails the reader at once, and writing on would only cost time).
        Future<Integer> writer = pool.submit(() -> {
          start.countDown();
          awaitQuietly(start);
          int v = 0;
          try {
            while (!readerDone.get()
                && (v < minBatches || (overlappingReads.get() < minOverlappingReads && v < maxBatches))) {
              v++;
              s.write(rewrite(keys, v), Durability.NO_SYNC);
            }
          } finally {
            writerDone.set(true);
          }
          return v;
        });
        Future<Integer> reader = pool.submit(() -> {
          start.countDown();
          awaitQuietly(start);
          int reads = 0;
          int last = 0;
          // Stops after the first read that began once the writer was done, so the last read must
          // see the last batch.
          boolean finalRead = false;
          try {
            while (!finalRead) {
              finalRead = writerDone.get();
              int seen;
              if (reads % 3 == 2) {
                List<Entry> all = drain(s, PLAIN, START, null, Direction.FORWARD);
                assertThat(all).as("scan during batches sees all %d keys", width).hasSize(width);
                seen = sameValue(all.stream().map(Entry::value).toList(), "a scan");
              } else {
                seen = sameValue(s.multiGet(PLAIN, keys), "a multiGet");
              }
              assertThat(seen).as("reads never go back in time").isGreaterThanOrEqualTo(last);
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
        assertThat(reader.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS)).as("the last read").isEqualTo(written);
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
        throw new AssertionError(how + " saw a half-applied batch: key 0 holds batch " + first
            + " but key " + i + " holds batch " + v);
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
  public void badBatchIsRefusedWhole() {
    byte[] k = {(byte) 0x90, 0x01};
    Map<String, Op> badLastOps = new LinkedHashMap<>();
    badLastOps.put("unknown family", new Op.Put("no-such-family", k, new byte[] {1}));
    badLastOps.put("merge into a plain family", new Op.Merge(PLAIN, k, 1));
    badLastOps.put("empty key", new Op.Put(PLAIN, new byte[0], new byte[] {1}));
    badLastOps.put("7-byte put into a counters family", new Op.Put(COUNTERS, k, new byte[7]));
    if (capabilities().maxKeyBytes() < MAX_OVERSIZED_KEY) {
      badLastOps.put("key longer than maxKeyBytes",
          new Op.Delete(PLAIN, new byte[capabilities().maxKeyBytes() + 1]));
    }
    badLastOps.put("deleteRange with lo > hi", new Op.DeleteRange(PLAIN, new byte[] {2}, new byte[] {1}));
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {9}).put(PLAIN, new byte[] {0x10}, new byte[] {8})
          .merge(COUNTERS, k, 5), Durability.SYNC);
      List<Entry> plainBefore = drain(s, PLAIN, START, null, Direction.FORWARD);
      List<Entry> countersBefore = drain(s, COUNTERS, START, null, Direction.FORWARD);
      for (Map.Entry<String, Op> bad : badLastOps.entrySet()) {
        Batch b = new Batch().put(PLAIN, new byte[] {(byte) 0xa0}, new byte[] {1}).delete(PLAIN, k)
            .deleteRange(PLAIN, new byte[] {0x00}, new byte[] {0x20}).merge(COUNTERS, k, 1000)
            .add(bad.getValue());
        assertThatThrownBy(() -> s.write(b, Durability.SYNC))
            .as("a batch ending with %s: %s", bad.getKey(), b)
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

  /** An empty batch is a no-op, with either durability. */
  @Example
  public void emptyBatchIsANoOp() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, new byte[] {1}, new byte[] {2}), Durability.NO_SYNC);
      s.write(new Batch(), Durability.NO_SYNC);
      s.write(new Batch(), Durability.SYNC);
      assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD))).containsExactly("01=02");
    }
  }

  /** Arrays given to a batch are the caller's again once write returns: changing them changes nothing stored. */
  @Property
  public void writeDoesNotKeepCallerArrays(@ForAll("keys") byte[] key, @ForAll("values") byte[] value) {
    byte[] k = key.clone();
    byte[] v = value.clone();
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, v), Durability.NO_SYNC);
      Arrays.fill(k, (byte) 0x5a);
      Arrays.fill(v, (byte) 0x5a);
      assertThat(s.get(PLAIN, key)).as("value at %s after the caller reused its arrays", Bytes.hex(key))
          .isEqualTo(value);
    }
  }

  /** Arrays returned by reads are fresh copies: changing them changes nothing stored. */
  @Property
  public void readsReturnFreshCopies(@ForAll("keys") byte[] key, @ForAll("values") byte[] value) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, value), Durability.NO_SYNC);
      Arrays.fill(s.get(PLAIN, key), (byte) 0x5a);
      Arrays.fill(s.multiGet(PLAIN, List.of(key)).get(0), (byte) 0x5a);
      try (Scan scan = s.scan(PLAIN, START, null, Direction.FORWARD)) {
        Entry e = scan.next();
        Arrays.fill(e.key(), (byte) 0x5a);
        Arrays.fill(e.value(), (byte) 0x5a);
      }
      assertThat(s.get(PLAIN, key)).as("value at %s after the caller changed returned arrays", Bytes.hex(key))
          .isEqualTo(value);
      assertThat(hexKeys(drain(s, PLAIN, START, null, Direction.FORWARD))).containsExactly(Bytes.hex(key));
    }
  }

  /** The same key in two families are two entries: writing one leaves the other alone. */
  @Property
  public void familiesAreIndependent(@ForAll("keys") byte[] key, @ForAll("deltas") long delta) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, new byte[] {1}).merge(COUNTERS, key, delta), Durability.NO_SYNC);
      s.write(new Batch().delete(PLAIN, key), Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).isEqualTo(delta);
      s.write(new Batch().put(PLAIN, key, new byte[] {2}).deleteRange(COUNTERS, START, new byte[] {(byte) 0xff, (byte) 0xff}),
          Durability.NO_SYNC);
      s.write(new Batch().delete(COUNTERS, key), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).isEqualTo(new byte[] {2});
      assertThat(s.get(COUNTERS, key)).isNull();
    }
  }

  /** Deleting an absent key, or an empty range, changes nothing. */
  @Property
  public void deleteOfAbsentKeyIsANoOp(@ForAll("keySets") List<byte[]> present, @ForAll("keys") byte[] absent) {
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
      s.write(new Batch().delete(PLAIN, absent).deleteRange(PLAIN, absent, absent), Durability.NO_SYNC);
      assertSameEntries(drain(s, PLAIN, START, null, Direction.FORWARD), model,
          "after delete and empty deleteRange of absent " + Bytes.hex(absent));
    }
  }

  // ================================================================ merge law

  /** A merge onto an absent key stores the delta itself; counter() of an absent key is 0. */
  @Property
  public void mergeOntoAbsentKeyEqualsDelta(@ForAll("keys") byte[] key, @ForAll("deltas") long delta) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      assertThat(s.counter(COUNTERS, key)).as("counter of absent key %s", Bytes.hex(key)).isZero();
      s.write(new Batch().merge(COUNTERS, key, delta), Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).as("counter after one merge of %d", delta).isEqualTo(delta);
    }
  }

  /** Merges add as signed 64-bit integers, wrapping around on overflow, within and across batches. */
  @Property
  public void mergeIsSigned64BitAdditionWithWrapAround(
      @ForAll("keys") byte[] key, @ForAll("deltaLists") List<Long> deltas, @ForAll boolean oneBatch) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      long expected = 0;
      Batch together = new Batch();
      for (long d : deltas) {
        if (oneBatch) {
          together.merge(COUNTERS, key, d);
        } else {
          s.write(new Batch().merge(COUNTERS, key, d), Durability.NO_SYNC);
        }
        expected += d;
      }
      s.write(together, Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).as("sum of %s with wrap-around", deltas).isEqualTo(expected);
    }
  }

  /** The stored bytes of a counter are Int64Add.encode(value): 8 bytes, little-endian, on every backend. */
  @Property
  public void mergeBytesIdenticalOnEveryBackend(@ForAll("keys") byte[] key, @ForAll("deltaLists") List<Long> deltas) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      long expected = 0;
      for (long d : deltas) {
        s.write(new Batch().merge(COUNTERS, key, d), Durability.NO_SYNC);
        expected += d;
      }
      byte[] want = Int64Add.encode(expected);
      assertThat(Bytes.hex(s.get(COUNTERS, key)))
          .as("get() of counter %s holding %d (8 bytes little-endian)", Bytes.hex(key), expected)
          .isEqualTo(Bytes.hex(want));
      assertThat(hexEntries(drain(s, COUNTERS, START, null, Direction.FORWARD)))
          .as("scan of the counters family")
          .containsExactly(Bytes.hex(key) + "=" + Bytes.hex(want));
    }
  }

  /** Four threads merging into one key lose no operand. */
  @Example
  public void concurrentMergesLoseNoOperand() throws Exception {
    requireCapability(capabilities().concurrentWriters(), "concurrentWriters",
        "Store.write may not be called from several threads at once");
    final int threads = 4;
    final int mergesPerThread = 400;
    byte[] key = {(byte) 0xc0, 0x00, 0x01};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(threads);
      try {
        List<Future<?>> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
          final long delta = (i % 2 == 0) ? (i + 1) * 1_000_003L : -(i + 1);
          all.add(pool.submit(() -> {
            start.countDown();
            awaitQuietly(start);
            for (int m = 0; m < mergesPerThread; m++) {
              s.write(new Batch().merge(COUNTERS, key, delta).put(PLAIN, key, new byte[] {(byte) m}),
                  Durability.NO_SYNC);
            }
            return null;
          }));
        }
        for (Future<?> f : all) {
          f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
        }
      } catch (ExecutionException e) {
        throw unwrap(e);
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      }
      long expected = 0;
      for (int i = 0; i < threads; i++) {
        expected += mergesPerThread * ((i % 2 == 0) ? (i + 1) * 1_000_003L : -(i + 1));
      }
      assertThat(s.counter(COUNTERS, key)).as("%d threads x %d merges", threads, mergesPerThread)
          .isEqualTo(expected);
    }
  }

  /** counter() on a plain family is refused, not decoded. */
  @Example
  public void counterOfPlainFamilyIsRefused() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, new byte[] {1}, Int64Add.encode(3)), Durability.NO_SYNC);
      assertThatThrownBy(() -> s.counter(PLAIN, new byte[] {1})).isInstanceOf(StoreArgumentException.class);
    }
  }

  // ================================================================ ordering and ranges

  /** Keys compare as unsigned bytes: 0x80 after 0x7f, a prefix before its extensions. */
  @Example
  public void keysCompareAsUnsignedBytes() {
    byte[][] ascending = {
      {0x00}, {0x00, 0x00}, {0x01}, {0x7f}, {0x7f, (byte) 0xff}, {(byte) 0x80}, {(byte) 0x80, 0x00},
      {(byte) 0xfe, 0x01}, {(byte) 0xff}, {(byte) 0xff, 0x00}, {(byte) 0xff, (byte) 0xff, (byte) 0xff}
    };
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Batch b = new Batch();
      for (int i = ascending.length - 1; i >= 0; i--) {
        b.put(PLAIN, ascending[i], new byte[] {(byte) i});
      }
      s.write(b, Durability.NO_SYNC);
      assertThat(hexKeys(drain(s, PLAIN, START, null, Direction.FORWARD)))
          .as("a forward scan lists keys in unsigned byte order, prefixes first")
          .containsExactlyElementsOf(hex(List.of(ascending)));
      assertThat(hexKeys(drain(s, PLAIN, new byte[] {0x7f}, new byte[] {(byte) 0x81}, Direction.FORWARD)))
          .as("[7f, 81) holds 7f, 7fff, 80, 8000 and nothing signed-smaller")
          .containsExactly("7f", "7fff", "80", "8000");
    }
  }

  /** A scan lists exactly the keys k with lo <= k < hi, in unsigned order. */
  @Property
  public void scanRespectsHalfOpenBounds(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, withBounds(keys, lo, hi));
      assertSameEntries(drain(s, PLAIN, lo, hi, Direction.FORWARD), model.subMap(lo, true, hi, false),
          "forward scan [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")");
    }
  }

  /** A reverse scan of [lo, hi) is the forward scan reversed, hi excluded. */
  @Property
  public void reverseScanIsForwardReversed(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, keys);
      s.write(new Batch().put(PLAIN, hi, hi), Durability.NO_SYNC);
      model.put(hi, hi);
      assertSameEntries(drain(s, PLAIN, lo, hi, Direction.REVERSE), model.subMap(lo, true, hi, false).descendingMap(),
          "reverse scan [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")");
      List<Entry> forward = new ArrayList<>(drain(s, PLAIN, START, null, Direction.FORWARD));
      java.util.Collections.reverse(forward);
      assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.REVERSE)))
          .as("unbounded reverse scan is the unbounded forward scan reversed")
          .isEqualTo(hexEntries(forward));
    }
  }

  /** lo == hi is an empty range in both directions, even when lo is a key. */
  @Property
  public void emptyRangeScansNothing(@ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] at) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      putAll(s, keys);
      s.write(new Batch().put(PLAIN, at, at), Durability.NO_SYNC);
      assertThat(drain(s, PLAIN, at, at, Direction.FORWARD)).as("forward [%s, %s)", Bytes.hex(at), Bytes.hex(at)).isEmpty();
      assertThat(drain(s, PLAIN, at, at, Direction.REVERSE)).as("reverse [%s, %s)", Bytes.hex(at), Bytes.hex(at)).isEmpty();
      assertThat(drain(s, PLAIN, START, START, Direction.FORWARD)).as("forward [, )").isEmpty();
    }
  }

  /** hi == null scans to the end of the family, forward and reverse; an empty lo starts at the beginning. */
  @Property
  public void unboundedHiScansToTheEnd(@ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] lo) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, keys);
      s.write(new Batch().put(PLAIN, new byte[] {(byte) 0xff, (byte) 0xff}, new byte[] {1}), Durability.NO_SYNC);
      model.put(new byte[] {(byte) 0xff, (byte) 0xff}, new byte[] {1});
      assertSameEntries(drain(s, PLAIN, lo, null, Direction.FORWARD), model.tailMap(lo, true),
          "forward scan [" + Bytes.hex(lo) + ", end)");
      assertSameEntries(drain(s, PLAIN, lo, null, Direction.REVERSE), model.tailMap(lo, true).descendingMap(),
          "reverse scan [" + Bytes.hex(lo) + ", end)");
      assertSameEntries(drain(s, PLAIN, START, null, Direction.FORWARD), model, "forward scan of the family");
    }
  }

  /** deleteRange removes exactly [lo, hi): lo is removed, hi is kept. */
  @Property
  public void deleteRangeIsHalfOpen(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, withBounds(keys, lo, hi));
      s.write(new Batch().deleteRange(PLAIN, lo, hi), Durability.NO_SYNC);
      model.subMap(lo, true, hi, false).clear();
      assertSameEntries(drain(s, PLAIN, START, null, Direction.FORWARD), model,
          "after deleteRange [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")");
      if (Bytes.compare(lo, hi) < 0) {
        assertThat(s.get(PLAIN, lo)).as("lo %s is inside the range and removed", Bytes.hex(lo)).isNull();
      }
      assertThat(s.get(PLAIN, hi)).as("hi %s is outside the range and kept", Bytes.hex(hi)).isEqualTo(hi);
    }
  }

  /** Bad read arguments are refused: unknown family, empty or oversized key, a range with lo > hi. */
  @Example
  public void badReadArgumentsAreRefused() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      byte[] tooLong = new byte[Math.min(capabilities().maxKeyBytes(), MAX_OVERSIZED_KEY) + 1];
      assertThatThrownBy(() -> s.get("no-such-family", new byte[] {1})).isInstanceOf(StoreArgumentException.class);
      assertThatThrownBy(() -> s.get(PLAIN, new byte[0])).isInstanceOf(StoreArgumentException.class);
      if (capabilities().maxKeyBytes() < MAX_OVERSIZED_KEY) {
        assertThatThrownBy(() -> s.get(PLAIN, tooLong)).isInstanceOf(StoreArgumentException.class);
      }
      assertThatThrownBy(() -> s.multiGet(PLAIN, List.of(new byte[] {1}, new byte[0])))
          .isInstanceOf(StoreArgumentException.class);
      assertThatThrownBy(() -> s.scan(PLAIN, new byte[] {2}, new byte[] {1}, Direction.FORWARD))
          .isInstanceOf(StoreArgumentException.class);
      assertThatThrownBy(() -> s.scan("no-such-family", START, null, Direction.FORWARD))
          .isInstanceOf(StoreArgumentException.class);
    }
  }

  /** multiGet answers in the order asked, null for each absent key, duplicates allowed. */
  @Property
  public void multiGetKeepsOrderAndNulls(@ForAll("keySets") List<byte[]> present, @ForAll("keySets") List<byte[]> asked) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, present);
      List<byte[]> query = new ArrayList<>(asked);
      if (!present.isEmpty()) {
        query.add(present.get(0));
        query.add(0, present.get(present.size() - 1));
      }
      if (!query.isEmpty()) {
        query.add(query.get(0));
      }
      List<byte[]> got = s.multiGet(PLAIN, query);
      assertThat(got).as("multiGet of %s", hex(query)).hasSize(query.size());
      for (int i = 0; i < query.size(); i++) {
        assertThat(Bytes.hex(got.get(i))).as("multiGet answer %d, key %s", i, Bytes.hex(query.get(i)))
            .isEqualTo(Bytes.hex(model.get(query.get(i))));
      }
    }
  }

  /** Values of every length up to a bound (and the empty value) round-trip through put and get. */
  @Property
  public void putThenGetRoundTrips(@ForAll("keys") byte[] key, @ForAll("largeValues") byte[] value) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, value), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).isEqualTo(value);
      s.write(new Batch().put(PLAIN, key, new byte[] {7}), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).as("a second put overwrites").isEqualTo(new byte[] {7});
    }
  }

  // ================================================================ consistent views

  /** A snapshot keeps showing the state at its creation while puts, deletes, ranges and merges go on. */
  @Example
  public void snapshotDoesNotSeeLaterWrites() {
    requireCapability(capabilities().snapshots(), "snapshots", "Store.snapshot() does not give a frozen view");
    byte[] a = {0x10};
    byte[] b = {(byte) 0x80};
    byte[] c = {(byte) 0x90, 0x01};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, a, new byte[] {1}).put(PLAIN, b, new byte[] {2}).merge(COUNTERS, a, 10),
          Durability.NO_SYNC);
      List<String> before = hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD));
      try (Snapshot snap = s.snapshot()) {
        s.write(new Batch().put(PLAIN, a, new byte[] {9}).delete(PLAIN, b).put(PLAIN, c, new byte[] {3})
            .merge(COUNTERS, a, 5), Durability.NO_SYNC);
        s.write(new Batch().deleteRange(PLAIN, START, new byte[] {(byte) 0x85}).merge(COUNTERS, b, 1), Durability.SYNC);
        assertThat(snap.get(PLAIN, a)).as("snapshot get of an overwritten then range-deleted key").isEqualTo(new byte[] {1});
        assertThat(snap.get(PLAIN, b)).as("snapshot get of a deleted key").isEqualTo(new byte[] {2});
        assertThat(snap.get(PLAIN, c)).as("snapshot get of a key put later").isNull();
        assertThat(snap.multiGet(PLAIN, List.of(c, b, a))).extracting(Bytes::hex).containsExactly("null", "02", "01");
        assertThat(snap.counter(COUNTERS, a)).as("snapshot counter after a later merge").isEqualTo(10);
        assertThat(snap.counter(COUNTERS, b)).as("snapshot counter merged later").isZero();
        assertThat(hexEntries(drain(snap, PLAIN, START, null, Direction.FORWARD))).as("snapshot scan").isEqualTo(before);
        assertThat(hexEntries(drain(snap, PLAIN, START, null, Direction.REVERSE))).as("snapshot reverse scan")
            .containsExactly("80=02", "10=01");
        assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD))).as("live store").containsExactly("9001=03");
      }
    }
  }

  /**
   * A scan yields exactly the state at its opening, while keys inside and outside its range are
   * written and deleted after it opened (and after it returned its first entry).
   */
  @Property
  public void scanSeesOneStateWhileWritesGoOn(@ForAll("keySets") List<byte[]> initial,
      @ForAll("keySets") List<byte[]> later, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b,
      @ForAll boolean reverse, @ForAll boolean readOneFirst) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    Direction dir = reverse ? Direction.REVERSE : Direction.FORWARD;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, initial);
      NavigableMap<byte[], byte[]> range = model.subMap(lo, true, hi, false);
      List<String> expected = (reverse ? range.descendingMap() : range).entrySet().stream()
          .map(e -> Bytes.hex(e.getKey()) + "=" + Bytes.hex(e.getValue())).toList();
      List<String> got = new ArrayList<>();
      try (Scan scan = s.scan(PLAIN, lo, hi, dir)) {
        if (readOneFirst && scan.hasNext()) {
          got.add(scan.next().toString());
        }
        Batch changes = new Batch();
        for (int i = 0; i < later.size(); i++) {
          if (i % 3 == 0) {
            changes.delete(PLAIN, later.get(i));
          } else {
            changes.put(PLAIN, later.get(i), new byte[] {(byte) 0xee, (byte) i});
          }
        }
        for (byte[] k : initial) {
          changes.put(PLAIN, k, new byte[] {(byte) 0xdd});
        }
        changes.deleteRange(PLAIN, lo, lo.length < 2 ? concat(lo, new byte[] {0x40}) : lo);
        s.write(changes, Durability.NO_SYNC);
        s.write(new Batch().put(PLAIN, lo, new byte[] {(byte) 0xcc}), Durability.NO_SYNC);
        while (scan.hasNext()) {
          got.add(scan.next().toString());
        }
      }
      assertThat(got).as("%s scan of [%s, %s) opened before the writes", dir, Bytes.hex(lo), Bytes.hex(hi))
          .isEqualTo(expected);
    }
  }

  // ================================================================ lifecycle

  /**
   * After close every Store method, an open Scan and an open Snapshot (and its scans) throw
   * StoreClosedException; closing again, and closing the scan and snapshot afterwards, is fine.
   * Snapshots are checked when the backend claims them. Store.capabilities(), families() and
   * directory() describe the store and keep answering ({@link #descriptiveGettersAnswerAfterClose}).
   */
  @Example
  public void everyCallAfterCloseThrows() {
    byte[] k = {0x42};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}).put(PLAIN, new byte[] {0x43}, new byte[] {2})
          .merge(COUNTERS, k, 1), Durability.SYNC);

      Scan closedScan = s.scan(PLAIN, START, null, Direction.FORWARD);
      closedScan.close();
      closedScan.close();
      assertClosed("a closed scan's hasNext", closedScan::hasNext);
      assertClosed("a closed scan's next", closedScan::next);
      boolean snapshots = capabilities().snapshots();
      if (snapshots) {
        Snapshot closedSnap = s.snapshot();
        closedSnap.close();
        closedSnap.close();
        assertClosed("a closed snapshot's get", () -> closedSnap.get(PLAIN, k));
      }

      Scan scan = s.scan(PLAIN, START, null, Direction.FORWARD);
      assertThat(scan.hasNext()).isTrue();
      scan.next();
      Scan reverse = s.scan(PLAIN, START, null, Direction.REVERSE);
      Snapshot snap = snapshots ? s.snapshot() : null;
      Scan snapScan = snapshots ? snap.scan(PLAIN, START, null, Direction.FORWARD) : null;

      s.close();
      s.close();

      assertClosed("Store.get", () -> s.get(PLAIN, k));
      assertClosed("Store.multiGet", () -> s.multiGet(PLAIN, List.of(k)));
      assertClosed("Store.scan", () -> s.scan(PLAIN, START, null, Direction.FORWARD));
      assertClosed("Store.counter", () -> s.counter(COUNTERS, k));
      assertClosed("Store.write", () -> s.write(new Batch().put(PLAIN, k, k), Durability.NO_SYNC));
      assertClosed("Store.write of an empty batch", () -> s.write(new Batch(), Durability.SYNC));
      assertClosed("Store.syncWal", s::syncWal);
      assertClosed("Store.snapshot", s::snapshot);
      assertClosed("Store.reportWriteFailure", () -> s.reportWriteFailure(new RuntimeException("test")));
      assertClosed("an open scan's hasNext", scan::hasNext);
      assertClosed("an open scan's next", scan::next);
      assertClosed("an open reverse scan's next", reverse::next);
      if (snapshots) {
        assertClosed("an open snapshot's get", () -> snap.get(PLAIN, k));
        assertClosed("an open snapshot's multiGet", () -> snap.multiGet(PLAIN, List.of(k)));
        assertClosed("an open snapshot's scan", () -> snap.scan(PLAIN, START, null, Direction.FORWARD));
        assertClosed("an open snapshot's counter", () -> snap.counter(COUNTERS, k));
        assertClosed("an open snapshot scan's hasNext", snapScan::hasNext);
        snapScan.close();
        snap.close();
      }
      scan.close();
      reverse.close();
    }
  }

  private static void assertClosed(String call, Runnable r) {
    assertThatThrownBy(r::run).as("%s after close", call).isInstanceOf(StoreClosedException.class);
  }

  /** SYNC writes are all there after close and reopen: both families, every key, every counter. */
  @Property
  public void syncWritesSurviveReopen(@ForAll("smallBatches") List<List<Op>> batches) {
    survivesReopen(batches, Durability.SYNC, false);
  }

  /** NO_SYNC writes followed by a returned syncWal() are all there after close and reopen. */
  @Property
  public void noSyncWritesSurviveReopenAfterSyncWal(@ForAll("smallBatches") List<List<Op>> batches) {
    survivesReopen(batches, Durability.NO_SYNC, true);
  }

  private void survivesReopen(List<List<Op>> batches, Durability durability, boolean syncWal) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      ReferenceModel model = new ReferenceModel(ModelReplay.FAMILIES);
      for (List<Op> ops : batches) {
        Batch b = new Batch();
        ops.forEach(b::add);
        s.write(b, durability);
        model.apply(b);
      }
      if (syncWal) {
        s.syncWal();
      }
      Store reopened = t.reopen();
      for (FamilySpec f : FAMILIES) {
        assertSameState(reopened, model, f.name(), "after " + durability + " writes"
            + (syncWal ? ", syncWal()" : "") + ", close and reopen");
      }
    }
  }

  /** Opening a store without listing one of its families fails with StoreFormatException naming it. */
  @Example
  public void openRefusesUnlistedFamilies() {
    List<FamilySpec> both = List.of(FamilySpec.plain("kept"), FamilySpec.plain("newer-family"));
    try (TempDirStore t = TempDirStore.open(backend(), both)) {
      t.store().write(new Batch().put("kept", new byte[] {1}, new byte[] {1})
          .put("newer-family", new byte[] {2}, new byte[] {2}), Durability.SYNC);
      t.closeStore();
      assertThatThrownBy(() -> t.reopen(List.of(FamilySpec.plain("kept"))))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("newer-family");
      Store again = t.reopen(both);
      assertThat(again.get("kept", new byte[] {1})).as("the refused open changed nothing").isEqualTo(new byte[] {1});
      assertThat(again.get("newer-family", new byte[] {2})).isEqualTo(new byte[] {2});
    }
  }

  // ================================================================ directories, read-only opens, edges

  /** The reason disk-directory cases do not apply to a backend whose stores live in the JVM. */
  private void requireFilesInDirectory() {
    requireCapability(capabilities().filesInDirectory(), "filesInDirectory",
        "its stores live in the JVM and the directory is only their name: no file to lock, mark, refuse or keep unchanged");
  }

  /** Prints what the case saw, under the backend's name (jqwik's report). */
  private void report(Reporter reporter, String property, String what) {
    reporter.publishValue(backend().name(), property + ": " + what);
  }

  /** The exception an open that must be refused threw; an open that succeeds is closed and fails the case. */
  private static StoreException openIsRefused(String what, Supplier<Store> open) {
    Store opened;
    try {
      opened = open.get();
    } catch (StoreException e) {
      return e;
    }
    opened.close();
    throw new AssertionError(what + " was not refused: it opened " + opened);
  }

  /** The exception's class and the start of its message's first line, for reports and assertion texts. */
  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    String line = nl < 0 ? m : m.substring(0, nl);
    return e.getClass().getSimpleName() + ": " + (line.length() <= 160 ? line : line.substring(0, 160) + "…");
  }

  /**
   * A second open of an open store's directory through a symlink is refused (the lock is keyed by the
   * real path), read-write and read-only; the first store keeps working, and once it is closed the
   * symlink opens the very same store.
   */
  @Example
  public void secondOpenThroughSymlinkIsRefused(Reporter reporter) throws IOException {
    requireFilesInDirectory();
    byte[] k1 = {0x51};
    byte[] k2 = {0x52};
    Path links = Files.createTempDirectory("ankusa-conformance-links-");
    try (TempDirStore t = openFresh()) {
      Store first = t.store();
      first.write(new Batch().put(PLAIN, k1, new byte[] {1}), Durability.SYNC);
      Path link = Files.createSymbolicLink(links.resolve("store-link"), t.dir());
      StoreException refused = openIsRefused("a second open of " + t.dir() + " through the symlink " + link,
          () -> backend().open(link, FAMILIES));
      assertThat(refused).as("the refusal of a second open through a symlink: %s", firstLine(refused))
          .isNotInstanceOf(StoreFormatException.class).isNotInstanceOf(StoreArgumentException.class);
      StoreException refusedReadOnly = openIsRefused("a second, read-only open through the symlink " + link,
          () -> backend().openReadOnly(link, FAMILIES));
      first.write(new Batch().put(PLAIN, k2, new byte[] {2}), Durability.SYNC);
      assertThat(first.multiGet(PLAIN, List.of(k1, k2))).as("the first store after the refused opens")
          .extracting(Bytes::hex).containsExactly("01", "02");
      t.closeStore();
      try (Store viaLink = backend().open(link, FAMILIES)) {
        assertThat(viaLink.multiGet(PLAIN, List.of(k1, k2))).as("the store opened through the symlink once closed")
            .extracting(Bytes::hex).containsExactly("01", "02");
      }
      report(reporter, "secondOpenThroughSymlinkIsRefused", "refused " + firstLine(refused)
          + " | read-only: " + firstLine(refusedReadOnly));
    } finally {
      FileTrees.deleteRecursively(links);
    }
  }

  /**
   * A refused second open leaves the first open's lock in force: after it, another process cannot open
   * the store while the first store is open (and can once it is closed), checked from a child JVM.
   */
  @Example
  public void refusedSecondOpenKeepsTheLock(Reporter reporter) {
    requireFilesInDirectory();
    byte[] k = {0x61};
    try (TempDirStore t = openFresh(); LockProbe other = LockProbe.start(backend(), t.dir(), FAMILIES)) {
      Store first = t.store();
      first.write(new Batch().put(PLAIN, k, new byte[] {1}), Durability.SYNC);
      StoreException again = openIsRefused("a second open of " + t.dir() + " in the same process",
          () -> backend().open(t.dir(), FAMILIES));
      StoreException againReadOnly = openIsRefused("a second, read-only open of " + t.dir(),
          () -> backend().openReadOnly(t.dir(), FAMILIES));
      String whileOpen = other.tryOpen();
      assertThat(whileOpen).as("another process opening %s while the first store is open, after this process's"
          + " second opens were refused (%s; %s)", t.dir(), firstLine(again), firstLine(againReadOnly))
          .startsWith("refused");
      first.write(new Batch().put(PLAIN, k, new byte[] {2}), Durability.SYNC);
      assertThat(first.get(PLAIN, k)).as("the first store still writes").isEqualTo(new byte[] {2});
      t.closeStore();
      assertThat(other.tryOpen()).as("another process opening %s once the store is closed", t.dir())
          .isEqualTo("opened");
      report(reporter, "refusedSecondOpenKeepsTheLock", "in-process " + firstLine(again) + " | other process: "
          + whileOpen);
    }
  }

  /**
   * A directory holding another backend's store, a marker that is not one, a marker of a newer format,
   * garbage files, or any other files without a store marker is refused with StoreFormatException
   * naming what was found, read-write (with createIfMissing) and read-only, and no file under it is
   * created, changed or removed.
   */
  @Example
  public void foreignOrNonEmptyDirectoryIsRefusedUntouched(Reporter reporter) throws IOException {
    requireFilesInDirectory();
    String name = backend().provider().name();
    String other = "not-" + name;
    java.util.Random random = new java.util.Random(42);
    byte[] garbage = new byte[4096];
    random.nextBytes(garbage);
    garbage[0] = (byte) 0xff; // never UTF-8
    Map<String, java.util.function.Consumer<Path>> kinds = new LinkedHashMap<>();
    Map<String, String> named = new LinkedHashMap<>();
    kinds.put("another backend's store", d -> {
      new StoreMarker(other, 1).write(d);
      write(d.resolve("data.bin"), garbage);
    });
    named.put("another backend's store", other);
    kinds.put("a marker file of garbage", d -> write(d.resolve(StoreMarker.FILE), garbage));
    named.put("a marker file of garbage", StoreMarker.FILE);
    kinds.put("a marker of a newer format", d -> new StoreMarker(name, 999_999).write(d));
    named.put("a marker of a newer format", "999999");
    kinds.put("garbage files without a marker", d -> {
      write(d.resolve("garbage-1.bin"), garbage);
      write(d.resolve("garbage-2.bin"), Arrays.copyOf(garbage, 17));
    });
    named.put("garbage files without a marker", "garbage-1.bin");
    kinds.put("a non-empty directory", d -> {
      write(d.resolve("notes.txt"), "not a store\n".getBytes(StandardCharsets.UTF_8));
      write(d.resolve("photos").resolve("cat.jpg"), Arrays.copyOf(garbage, 100));
    });
    named.put("a non-empty directory", "notes.txt");
    kinds.put("an empty file", d -> write(d.resolve("empty"), new byte[0]));
    named.put("an empty file", "empty");
    List<String> seen = new ArrayList<>();
    for (Map.Entry<String, java.util.function.Consumer<Path>> kind : kinds.entrySet()) {
      Path dir = Files.createTempDirectory("ankusa-conformance-foreign-");
      try {
        kind.getValue().accept(dir);
        FileChecksums before = FileChecksums.of(dir);
        for (boolean readOnly : new boolean[] {false, true}) {
          String what = (readOnly ? "a read-only open" : "an open with createIfMissing") + " of " + kind.getKey();
          StoreException refused = openIsRefused(what,
              () -> readOnly ? backend().openReadOnly(dir, FAMILIES) : backend().open(dir, FAMILIES));
          assertThat(refused).as("%s: %s", what, firstLine(refused)).isInstanceOf(StoreFormatException.class)
              .hasMessageContaining(named.get(kind.getKey()));
          assertThat(before.differences(FileChecksums.of(dir))).as("files changed by %s", what).isEmpty();
          if (!readOnly) {
            seen.add(kind.getKey() + " -> " + firstLine(refused));
          }
        }
      } finally {
        FileTrees.deleteRecursively(dir);
      }
    }
    report(reporter, "foreignOrNonEmptyDirectoryIsRefusedUntouched", String.join(" | ", seen));
  }

  private static void write(Path file, byte[] bytes) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Null arguments — family, key, key list, key in a list, bound, direction, batch, durability, cause,
   * and open's directory, options and families — are refused with StoreArgumentException (never a
   * NullPointerException, never a default such as scanning forward), and change nothing.
   */
  @Example
  public void nullArgumentsAreRefused(Reporter reporter) {
    byte[] k = {0x71};
    byte[] absent = {0x72};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}).merge(COUNTERS, k, 3), Durability.SYNC);
      Path unused = t.dir().resolveSibling(t.dir().getFileName() + "-never-created");
      Map<String, Runnable> calls = new LinkedHashMap<>();
      calls.put("get(null family)", () -> s.get(null, k));
      calls.put("get(null key)", () -> s.get(PLAIN, null));
      calls.put("multiGet(null list)", () -> s.multiGet(PLAIN, null));
      calls.put("multiGet with a null key", () -> s.multiGet(PLAIN, Arrays.asList(k, null)));
      calls.put("scan(null family)", () -> s.scan(null, START, null, Direction.FORWARD).close());
      calls.put("scan(null lo)", () -> s.scan(PLAIN, null, null, Direction.FORWARD).close());
      calls.put("scan(null direction)", () -> s.scan(PLAIN, START, null, null).close());
      calls.put("counter(null family)", () -> s.counter(null, k));
      calls.put("counter(null key)", () -> s.counter(COUNTERS, null));
      calls.put("write(null batch)", () -> s.write(null, Durability.SYNC));
      calls.put("write(batch, null durability)", () -> s.write(new Batch().put(PLAIN, absent, k), null));
      calls.put("write of a put with a null value",
          () -> s.write(new Batch().add(new Op.Put(PLAIN, absent, null)), Durability.SYNC));
      calls.put("write of a deleteRange with a null hi",
          () -> s.write(new Batch().add(new Op.DeleteRange(PLAIN, START, null)), Durability.SYNC));
      calls.put("reportWriteFailure(null)", () -> s.reportWriteFailure(null));
      calls.put("Batch.put(null family)", () -> new Batch().put(null, k, k));
      calls.put("Batch.put(null key)", () -> new Batch().put(PLAIN, null, k));
      calls.put("Batch.put(null value)", () -> new Batch().put(PLAIN, k, null));
      calls.put("Batch.add(null)", () -> new Batch().add(null));
      calls.put("open(null directory)", () -> backend().provider().open(null, backend().options(), FAMILIES).close());
      calls.put("open(null options)", () -> backend().provider().open(unused, null, FAMILIES).close());
      calls.put("open(null families)", () -> backend().provider().open(unused, backend().options(), null).close());
      calls.put("open with a null family", () -> backend().provider().open(unused, backend().options(),
          Arrays.asList(FamilySpec.plain(PLAIN), null)).close());
      if (capabilities().snapshots()) {
        Snapshot snap = s.snapshot();
        calls.put("snapshot get(null key)", () -> snap.get(PLAIN, null));
        calls.put("snapshot multiGet(null list)", () -> snap.multiGet(PLAIN, null));
        calls.put("snapshot scan(null direction)", () -> snap.scan(PLAIN, START, null, null).close());
        calls.put("snapshot counter(null family)", () -> snap.counter(null, k));
      }
      for (Map.Entry<String, Runnable> call : calls.entrySet()) {
        assertThatThrownBy(call.getValue()::run).as(call.getKey()).isInstanceOf(StoreArgumentException.class);
      }
      assertThat(Files.exists(unused)).as("a refused open created %s", unused).isFalse();
      assertThat(s.get(PLAIN, k)).as("after the refused calls").isEqualTo(new byte[] {1});
      assertThat(s.get(PLAIN, absent)).as("the put of a write with a null durability").isNull();
      assertThat(s.counter(COUNTERS, k)).isEqualTo(3);
      report(reporter, "nullArgumentsAreRefused", calls.size() + " calls refused with StoreArgumentException");
    }
  }

  /** capabilities(), families() and directory() give the same answers after close as before. */
  @Example
  public void descriptiveGettersAnswerAfterClose(Reporter reporter) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Capabilities capabilities = s.capabilities();
      List<FamilySpec> families = s.families();
      Path directory = s.directory();
      assertThat(families).as("families() of an open store").isEqualTo(FAMILIES);
      t.closeStore();
      assertThat(s.capabilities()).as("capabilities() after close").isEqualTo(capabilities);
      assertThat(s.families()).as("families() after close").isEqualTo(families);
      assertThat(s.directory()).as("directory() after close").isEqualTo(directory);
      report(reporter, "descriptiveGettersAnswerAfterClose", "directory " + directory + ", " + families.size() + " families");
    }
  }

  /**
   * reportWriteFailure closes the scans and snapshots open on the store (later use throws
   * StoreClosedException; closing them is fine); the store itself keeps reading and writing.
   */
  @Example
  public void reportWriteFailureClosesScansAndSnapshots(Reporter reporter) {
    byte[] k = {0x31};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}).put(PLAIN, new byte[] {0x32}, new byte[] {2}), Durability.SYNC);
      Scan started = s.scan(PLAIN, START, null, Direction.FORWARD);
      started.next();
      Scan unstarted = s.scan(PLAIN, START, null, Direction.REVERSE);
      boolean snapshots = capabilities().snapshots();
      Snapshot snap = snapshots ? s.snapshot() : null;
      Scan snapScan = snapshots ? snap.scan(PLAIN, START, null, Direction.FORWARD) : null;
      s.reportWriteFailure(new RuntimeException("a write failure injected by the conformance suite"));
      assertClosed("a started scan after reportWriteFailure", started::hasNext);
      assertClosed("an unstarted scan after reportWriteFailure", unstarted::next);
      if (snapshots) {
        assertClosed("a snapshot's get after reportWriteFailure", () -> snap.get(PLAIN, k));
        assertClosed("a snapshot's scan after reportWriteFailure", () -> snap.scan(PLAIN, START, null, Direction.FORWARD));
        assertClosed("a snapshot scan's hasNext after reportWriteFailure", snapScan::hasNext);
        snapScan.close();
        snap.close();
      }
      started.close();
      unstarted.close();
      s.write(new Batch().put(PLAIN, k, new byte[] {3}), Durability.SYNC);
      assertThat(s.get(PLAIN, k)).as("the store after reportWriteFailure").isEqualTo(new byte[] {3});
      report(reporter, "reportWriteFailureClosesScansAndSnapshots", "2 scans" + (snapshots ? ", 1 snapshot and its scan" : "")
          + " closed; the store kept working");
    }
  }

  /** An unknown option of the backend's own ({@code <name>.noSuchOption}) is refused, naming it; nothing is created. */
  @Example
  public void unknownOptionOfTheBackendIsRefused(Reporter reporter) {
    String key = backend().provider().name() + ".noSuchOption";
    try (TempDirStore t = TempDirStore.empty(backend(), FAMILIES)) {
      StoreException refused = openIsRefused("an open with the option " + key,
          () -> backend().provider().open(t.dir(), backend().options().with(key, "1"), FAMILIES));
      assertThat(refused).as(firstLine(refused)).isInstanceOf(StoreArgumentException.class).hasMessageContaining(key);
      assertThat(FileChecksums.of(t.dir()).fileCount()).as("files created in %s by the refused open", t.dir()).isZero();
      report(reporter, "unknownOptionOfTheBackendIsRefused", firstLine(refused));
    }
  }

  /**
   * A read-only open reads what was written, refuses write, syncWal and reportWriteFailure with
   * StoreArgumentException (nothing applied), and refuses a directory with no store (a missing one
   * is not created); the store then opens read-write as before.
   */
  @Example
  public void readOnlyOpenRefusesWrites(Reporter reporter) {
    byte[] k = {0x41};
    try (TempDirStore t = openFresh()) {
      t.store().write(new Batch().put(PLAIN, k, new byte[] {1}).merge(COUNTERS, k, 5), Durability.SYNC);
      t.closeStore();
      Store ro = t.hold(backend().openReadOnly(t.dir(), FAMILIES));
      assertThat(ro.get(PLAIN, k)).as("get on the read-only store").isEqualTo(new byte[] {1});
      assertThat(ro.counter(COUNTERS, k)).isEqualTo(5);
      Map<String, Runnable> writes = new LinkedHashMap<>();
      writes.put("write", () -> ro.write(new Batch().put(PLAIN, k, new byte[] {2}).merge(COUNTERS, k, 1), Durability.SYNC));
      writes.put("write of an empty batch", () -> ro.write(new Batch(), Durability.NO_SYNC));
      writes.put("syncWal", ro::syncWal);
      writes.put("reportWriteFailure", () -> ro.reportWriteFailure(new RuntimeException("test")));
      for (Map.Entry<String, Runnable> w : writes.entrySet()) {
        assertThatThrownBy(w.getValue()::run).as("%s on a read-only store", w.getKey())
            .isInstanceOf(StoreArgumentException.class);
      }
      assertThat(hexEntries(drain(ro, PLAIN, START, null, Direction.FORWARD))).as("after the refused writes")
          .containsExactly(Bytes.hex(k) + "=01");
      assertThat(ro.counter(COUNTERS, k)).isEqualTo(5);
      t.closeStore();
      Store rw = t.reopen();
      rw.write(new Batch().merge(COUNTERS, k, 1), Durability.SYNC);
      assertThat(rw.counter(COUNTERS, k)).as("read-write after the read-only open").isEqualTo(6);
      Path missing = t.dir().resolveSibling(t.dir().getFileName() + "-missing");
      StoreException none = openIsRefused("a read-only open of the missing " + missing,
          () -> backend().openReadOnly(missing, FAMILIES));
      assertThat(none).as(firstLine(none)).isInstanceOf(StoreFormatException.class);
      assertThat(Files.exists(missing)).as("the read-only open created %s", missing).isFalse();
      report(reporter, "readOnlyOpenRefusesWrites", writes.size() + " write calls refused; no store: " + firstLine(none));
    }
  }

  /**
   * Opening a store read-only, reading all of it (scans of every family both ways, gets, counters, a
   * snapshot) and closing it changes no file: every file's size and SHA-256 are the same after, and
   * none is created or removed. The store was closed with writes still in the engine's log (synced,
   * not flushed), which a read-write open would write back.
   */
  @Example
  public void readOnlyOpenChangesNoFile(Reporter reporter) {
    requireFilesInDirectory();
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.UNSIGNED);
      long counterZero = 0;
      for (int i = 0; i < 300; i++) {
        counterZero += i % 7 == 0 ? i : 0;
        byte[] key = ByteBuffer.allocate(4).putInt(i * 7919).array();
        byte[] value = Arrays.copyOf(key, 40);
        model.put(key, value);
        s.write(new Batch().put(PLAIN, key, value).merge(COUNTERS, new byte[] {(byte) (i % 7)}, i),
            i % 2 == 0 ? Durability.NO_SYNC : Durability.SYNC);
      }
      s.syncWal();
      t.closeStore();
      FileChecksums before = FileChecksums.of(t.dir());
      Store ro = t.hold(backend().openReadOnly(t.dir(), FAMILIES));
      assertSameEntries(drain(ro, PLAIN, START, null, Direction.FORWARD), model, "read-only forward scan");
      assertThat(drain(ro, PLAIN, START, null, Direction.REVERSE)).hasSize(model.size());
      assertThat(drain(ro, COUNTERS, START, null, Direction.FORWARD)).hasSize(7);
      assertThat(ro.get(PLAIN, model.firstKey())).isEqualTo(model.firstEntry().getValue());
      assertThat(ro.counter(COUNTERS, new byte[] {0})).as("counter 00 read-only").isEqualTo(counterZero);
      if (capabilities().snapshots()) {
        try (Snapshot snap = ro.snapshot()) {
          assertThat(drain(snap, PLAIN, START, null, Direction.FORWARD)).hasSize(model.size());
        }
      }
      t.closeStore();
      FileChecksums after = FileChecksums.of(t.dir());
      assertThat(before.differences(after)).as("files changed by a read-only open, full scan and close of %s", t.dir())
          .isEmpty();
      report(reporter, "readOnlyOpenChangesNoFile", before.fileCount() + " files, every size and SHA-256 unchanged");
    }
  }

  // ================================================================ corruption

  /**
   * After the fixture damages the data files of a family, a full scan either returns every key with
   * its value or throws StoreCorruptionException — never ends early quietly; each get returns the
   * right value or throws; and the damage is detected at least once.
   */
  @Example
  public void scanNeverEndsEarlyOnCorruption() {
    requireCapability(capabilities().corruptionInjection(), "corruptionInjection",
        "its fixture cannot damage data files, so there is no corruption to detect");
    final int count = 3000;
    TreeMap<byte[], byte[]> written = new TreeMap<>(Bytes.UNSIGNED);
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      java.util.Random random = new java.util.Random(count);
      for (int from = 0; from < count; from += 250) {
        Batch b = new Batch();
        for (int i = from; i < Math.min(count, from + 250); i++) {
          byte[] key = ByteBuffer.allocate(5).put((byte) 'k').putInt(i * 7919).array();
          byte[] value = new byte[100];
          random.nextBytes(value);
          b.put(PLAIN, key, value);
          written.put(key, value);
        }
        s.write(b, Durability.SYNC);
      }
      t.closeStore();
      backend().corrupt(t.dir(), FAMILIES, PLAIN);
      int detected = 0;
      Store damaged;
      try {
        damaged = t.reopen();
      } catch (StoreCorruptionException e) {
        return; // refusing to open a damaged store is a detection too
      }
      for (Direction dir : Direction.values()) {
        List<String> expected = (dir == Direction.FORWARD ? written : written.descendingMap()).entrySet().stream()
            .map(e -> Bytes.hex(e.getKey()) + "=" + Bytes.hex(e.getValue())).toList();
        List<String> got = new ArrayList<>();
        try (Scan scan = damaged.scan(PLAIN, START, null, dir)) {
          while (scan.hasNext()) {
            got.add(scan.next().toString());
          }
          assertThat(got.size()).as("%s scan of the damaged family ended without an exception after %d of %d keys",
              dir, got.size(), count).isEqualTo(count);
        } catch (StoreCorruptionException e) {
          detected++;
        }
        assertThat(got).as("%s scan returns right entries until it stops", dir)
            .isEqualTo(expected.subList(0, got.size()));
      }
      for (Map.Entry<byte[], byte[]> e : written.entrySet()) {
        try {
          byte[] v = damaged.get(PLAIN, e.getKey());
          assertThat(Bytes.hex(v)).as("get of %s in the damaged family", Bytes.hex(e.getKey()))
              .isEqualTo(Bytes.hex(e.getValue()));
        } catch (StoreCorruptionException ex) {
          detected++;
        }
      }
      assertThat(detected).as("the damage done by %s's fixture was never detected: the fixture did not"
          + " corrupt anything the reads meet", backend().name()).isPositive();
    }
  }

  // ================================================================ many keys

  /** Keys the million-key multiGet asks for. */
  static final int MILLION = 1_000_000;
  /** One key in this many of the million is present. */
  private static final int MILLION_PRESENT_EVERY = 997;

  /**
   * A multiGet of {@value #MILLION} keys answers every one, in order, with its value or null: no
   * size limit, no overflow of a buffer sized for all keys at once (most keys are absent, so the case
   * stays cheap).
   */
  @Example
  public void multiGetOfAMillionKeys() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Batch b = new Batch();
      for (int i = 0; i < MILLION; i += MILLION_PRESENT_EVERY) {
        b.put(PLAIN, millionKey(i), millionKey(~i));
      }
      s.write(b, Durability.NO_SYNC);
      List<byte[]> keys = new java.util.AbstractList<>() {
        @Override
        public byte[] get(int i) {
          return millionKey(i);
        }

        @Override
        public int size() {
          return MILLION;
        }
      };
      List<byte[]> got = s.multiGet(PLAIN, keys);
      assertThat(got).as("answers to a multiGet of %d keys", MILLION).hasSize(MILLION);
      for (int i = 0; i < MILLION; i++) {
        byte[] want = i % MILLION_PRESENT_EVERY == 0 ? millionKey(~i) : null;
        if (!Arrays.equals(got.get(i), want)) {
          throw new AssertionError("multiGet of " + MILLION + " keys: answer " + i + " for key "
              + Bytes.hex(millionKey(i)) + " is " + Bytes.hex(got.get(i)) + ", expected " + Bytes.hex(want));
        }
      }
    }
  }

  private static byte[] millionKey(int i) {
    return ByteBuffer.allocate(5).put((byte) 'm').putInt(i).array();
  }

  // ================================================================ the model

  /**
   * Random, shrinkable sequences of batches over a small key space (so ops collide) are applied to
   * the backend and to the {@link ReferenceModel} (a plain oracle, never a backend); after each batch
   * the whole state of both families, a random-range reverse scan, a multiGet and the probes' counters
   * must agree, and a snapshot taken before a batch (when the backend claims snapshots) must agree
   * with the model's ({@link ModelReplay}). A failing sequence is written as an op log ({@link OpLog})
   * whose path the failure names: {@code ankusa-store replay --backend NAME FILE} re-runs it and prints
   * the per-step history.
   */
  @Property
  public void modelBasedRandomBatches(@ForAll("rounds") List<ModelRound> rounds) {
    try (TempDirStore t = openFresh()) {
      new ModelReplay(t.store(), capabilities().snapshots(), line -> {}).run(rounds);
    } catch (AssertionError | RuntimeException e) {
      String provider = backend().provider().name();
      Path log = OpLog.write(opLogFile(), rounds, "modelBasedRandomBatches failed on " + backend().name()
          + "\n" + firstLine(e) + "\nreplay: ./ankusa-store replay --backend " + provider + " FILE");
      throw new AssertionError(e.getMessage() + "\n  op log: " + log.toAbsolutePath()
          + " (replay with: ankusa-store replay --backend " + provider + " " + log.toAbsolutePath() + ")", e);
    }
  }

  /**
   * Where a failing model sequence is written: {@code ankusa.oplog.dir} when set, else {@code
   * target/ankusa-oplogs} under the working directory when it has a {@code target} (a Maven build),
   * else the temporary directory. One file per backend; jqwik's last failing try (the shrunk one)
   * is the one left.
   */
  private Path opLogFile() {
    String dir = System.getProperty("ankusa.oplog.dir");
    Path base = dir != null ? Path.of(dir)
        : Files.isDirectory(Path.of("target")) ? Path.of("target", "ankusa-oplogs")
        : Path.of(System.getProperty("java.io.tmpdir"), "ankusa-oplogs");
    return base.resolve("model-" + backend().name().replaceAll("[^A-Za-z0-9._-]", "_") + ".ops");
  }

  /** Full forward scans of {@code family} in both stores agree, else names the first differing key. */
  protected static void assertSameState(ReadView actual, ReadView model, String family, String when) {
    assertSameList(hexEntries(drain(actual, family, START, null, Direction.FORWARD)),
        hexEntries(drain(model, family, START, null, Direction.FORWARD)),
        when + ": family '" + family + "' full forward scan");
  }

  private static void assertSameList(List<String> actual, List<String> model, String what) {
    if (actual.equals(model)) {
      return;
    }
    int i = 0;
    while (i < actual.size() && i < model.size() && actual.get(i).equals(model.get(i))) {
      i++;
    }
    throw new AssertionError(what + ": the backend differs from the model at position " + i
        + ": backend has " + (i < actual.size() ? actual.get(i) : "<nothing more>")
        + ", model has " + (i < model.size() ? model.get(i) : "<nothing more>")
        + "\n  backend: " + actual + "\n  model:   " + model);
  }

  // ================================================================ generators

  /** Bytes that make ordering bugs show: the signed/unsigned boundary, the extremes. */
  private static final byte[] EDGE_BYTES = {0x00, 0x01, 0x7e, 0x7f, (byte) 0x80, (byte) 0x81, (byte) 0xfe, (byte) 0xff};
  /** The model's small key alphabet: 4 bytes, keys of 1..2 bytes, 20 keys in all, so ops collide. */
  private static final byte[] MODEL_BYTES = {0x00, 0x7f, (byte) 0x80, (byte) 0xff};

  /**
   * Keys of 1..32 bytes (never more than the backend's maxKeyBytes): a third from a small alphabet
   * of edge bytes and 1..3 bytes long, so keys collide and share prefixes; a third an edge-byte
   * prefix plus random bytes; a third any bytes.
   */
  @Provide
  protected Arbitrary<byte[]> keys() {
    int max = Math.min(32, capabilities().maxKeyBytes());
    Arbitrary<byte[]> colliding = edgeBytes(EDGE_BYTES, 1, 3);
    Arbitrary<byte[]> prefixed = edgeBytes(EDGE_BYTES, 1, 2)
        .flatMap(p -> Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(max - p.length)
            .map(rest -> concat(p, rest)));
    Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(max);
    return Arbitraries.oneOf(colliding, prefixed, any);
  }

  @Provide
  protected Arbitrary<List<byte[]>> keySets() {
    return keys().list().ofMaxSize(20);
  }

  /** Values of 0..64 bytes (within maxValueBytes). */
  @Provide
  protected Arbitrary<byte[]> values() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(Math.min(64, capabilities().maxValueBytes()));
  }

  /** Values of 0..64 KiB (within maxValueBytes). */
  @Provide
  protected Arbitrary<byte[]> largeValues() {
    int max = Math.min(64 * 1024, capabilities().maxValueBytes());
    return Arbitraries.oneOf(values(),
        Arbitraries.integers().between(0, max).map(n -> {
          byte[] v = new byte[n];
          new java.util.Random(n).nextBytes(v);
          return v;
        }), Arbitraries.just(new byte[max]));
  }

  /** Deltas including 0, ±1 and the extremes of long, so wrap-around happens often. */
  @Provide
  protected Arbitrary<Long> deltas() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, Arbitraries.longs()),
        Tuple.of(2, Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L, 1L, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1)),
        Tuple.of(1, Arbitraries.longs().between(-1000, 1000)));
  }

  @Provide
  protected Arbitrary<List<Long>> deltaLists() {
    return deltas().list().ofMinSize(1).ofMaxSize(8);
  }

  /** Random ops over the model's small key space, in either family. */
  @Provide
  protected Arbitrary<Op> ops() {
    Arbitrary<byte[]> k = edgeBytes(MODEL_BYTES, 1, 2);
    Arbitrary<byte[]> v = Arbitraries.bytes().array(byte[].class).ofMaxSize(4);
    return Arbitraries.frequencyOf(
        Tuple.of(4, Combinators.combine(k, v).as((key, value) -> (Op) new Op.Put(PLAIN, key, value))),
        Tuple.of(2, k.map(key -> (Op) new Op.Delete(PLAIN, key))),
        Tuple.of(1, Combinators.combine(k, k).as((a, b) -> (Op) range(PLAIN, a, b))),
        Tuple.of(4, Combinators.combine(k, deltas()).as((key, d) -> (Op) new Op.Merge(COUNTERS, key, d))),
        Tuple.of(1, Combinators.combine(k, deltas()).as((key, d) -> (Op) new Op.Put(COUNTERS, key, Int64Add.encode(d)))),
        Tuple.of(1, k.map(key -> (Op) new Op.Delete(COUNTERS, key))),
        Tuple.of(1, Combinators.combine(k, k).as((a, b) -> (Op) range(COUNTERS, a, b))));
  }

  /** 1..8 batches of 1..6 ops each. */
  @Provide
  protected Arbitrary<List<List<Op>>> smallBatches() {
    return ops().list().ofMinSize(1).ofMaxSize(6).list().ofMinSize(1).ofMaxSize(8);
  }

  /** 1..12 rounds of 1..6 ops, a check range and probe keys each; a fifth of them under a snapshot. */
  @Provide
  protected Arbitrary<List<ModelRound>> rounds() {
    Arbitrary<byte[]> k = edgeBytes(MODEL_BYTES, 1, 2);
    Arbitrary<byte[]> bound = Arbitraries.oneOf(k, Arbitraries.just(START));
    Arbitrary<ModelRound> round = Combinators.combine(
        ops().list().ofMinSize(1).ofMaxSize(6),
        Arbitraries.integers().between(0, 4).map(i -> i == 4), // shrinks towards no snapshot
        bound, bound,
        k.list().ofMinSize(1).ofMaxSize(5))
        .as((ops, snap, a, b, probes) -> Bytes.compare(a, b) <= 0
            ? new ModelRound(ops, snap, a, b, probes)
            : new ModelRound(ops, snap, b, a, probes));
    return round.list().ofMinSize(1).ofMaxSize(12);
  }

  private static Op.DeleteRange range(String family, byte[] a, byte[] b) {
    return Bytes.compare(a, b) <= 0 ? new Op.DeleteRange(family, a, b) : new Op.DeleteRange(family, b, a);
  }

  private static Arbitrary<byte[]> edgeBytes(byte[] alphabet, int minLength, int maxLength) {
    Byte[] boxed = new Byte[alphabet.length];
    for (int i = 0; i < alphabet.length; i++) {
      boxed[i] = alphabet[i];
    }
    return Arbitraries.of(boxed).list().ofMinSize(minLength).ofMaxSize(maxLength).map(list -> {
      byte[] out = new byte[list.size()];
      for (int i = 0; i < out.length; i++) {
        out[i] = list.get(i);
      }
      return out;
    });
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  // ================================================================ helpers

  /** Puts each key with itself as value into {@link #PLAIN} in one batch; returns the model. */
  private static TreeMap<byte[], byte[]> putAll(Store s, List<byte[]> keys) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.UNSIGNED);
    Batch b = new Batch();
    for (byte[] k : keys) {
      b.put(PLAIN, k, k);
      model.put(k, k);
    }
    s.write(b, Durability.NO_SYNC);
    return model;
  }

  /** {@code keys} and the two bounds, so that a range's own ends are always stored keys. */
  private static List<byte[]> withBounds(List<byte[]> keys, byte[] lo, byte[] hi) {
    List<byte[]> all = new ArrayList<>(keys);
    all.add(lo);
    all.add(hi);
    return all;
  }

  /** Every entry of {@code [lo, hi)} in {@code dir} order; the scan is closed. */
  protected static List<Entry> drain(ReadView view, String family, byte[] lo, byte[] hi, Direction dir) {
    List<Entry> out = new ArrayList<>();
    try (Scan scan = view.scan(family, lo, hi, dir)) {
      while (scan.hasNext()) {
        out.add(scan.next());
      }
    }
    return out;
  }

  protected static List<String> hexKeys(List<Entry> entries) {
    return entries.stream().map(e -> Bytes.hex(e.key())).toList();
  }

  protected static List<String> hexEntries(List<Entry> entries) {
    return entries.stream().map(Entry::toString).toList();
  }

  protected static List<String> hex(List<byte[]> arrays) {
    return arrays.stream().map(Bytes::hex).toList();
  }

  /** Asserts {@code actual} lists exactly {@code expected}'s entries in order, naming the first difference. */
  protected static void assertSameEntries(List<Entry> actual, Map<byte[], byte[]> expected, String when) {
    List<String> want = new ArrayList<>();
    expected.forEach((k, v) -> want.add(Bytes.hex(k) + "=" + Bytes.hex(v)));
    List<String> got = hexEntries(actual);
    if (!got.equals(want)) {
      int i = 0;
      while (i < got.size() && i < want.size() && got.get(i).equals(want.get(i))) {
        i++;
      }
      throw new AssertionError(when + ": scan differs from the expected state at position " + i
          + ": got " + (i < got.size() ? got.get(i) : "<end of scan>") + ", expected "
          + (i < want.size() ? want.get(i) : "<end of scan>") + "\n  got:      " + got + "\n  expected: " + want);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      if (!latch.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("threads of a concurrency case did not start");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting a concurrency case", e);
    }
  }

  private static Exception unwrap(ExecutionException e) {
    Throwable cause = e.getCause();
    if (cause instanceof Error err) {
      throw err;
    }
    if (cause instanceof Exception ex) {
      return ex;
    }
    return e;
  }
}
