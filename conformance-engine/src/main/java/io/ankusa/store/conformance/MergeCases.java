package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The merge law: signed 64-bit addition with wrap-around, the same bytes on every backend, no
 * operand lost to concurrency, counters only in counters families.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface MergeCases extends EngineCase {
  /** A merge onto an absent key stores the delta itself; counter() of an absent key is 0. */
  @Property
  default void mergeOntoAbsentKeyEqualsDelta(@ForAll("keys") byte[] key, @ForAll("deltas") long delta) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      assertThat(s.counter(COUNTERS, key)).as("counter of absent key %s", Bytes.hex(key)).isZero();
      s.write(new Batch().merge(COUNTERS, key, delta), Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key)).as("counter after one merge of %d", delta).isEqualTo(delta);
    }
  }

  /** Merges add as signed 64-bit integers, wrapping around on overflow, within and across batches. */
  @Property
  default void mergeIsSigned64BitAdditionWithWrapAround(
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
  default void mergeBytesIdenticalOnEveryBackend(@ForAll("keys") byte[] key, @ForAll("deltaLists") List<Long> deltas) {
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
  default void concurrentMergesLoseNoOperand() throws Exception {
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
  default void counterOfPlainFamilyIsRefused() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, new byte[] {1}, Int64Add.encode(3)), Durability.NO_SYNC);
      assertThatThrownBy(() -> s.counter(PLAIN, new byte[] {1})).isInstanceOf(StoreArgumentException.class);
    }
  }
}
