package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
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
 * The merge law: signed 64-bit addition with wrap-around, the same bytes on every backend, no
 * operand lost to concurrency, counters only in counters families.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface MergeCases extends EngineCase {
  /** A merge onto an absent key stores the delta itself; counter() of an absent key is 0. */
  @Property
  default void mergeOntoAbsentKeyEqualsDelta(
      @ForAll("keys") byte[] key, @ForAll("deltas") long delta) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      assertThat(s.counter(COUNTERS, key)).as("counter of absent key %s", Bytes.hex(key)).isZero();
      s.write(new Batch().merge(COUNTERS, key, delta), Durability.NO_SYNC);
      assertThat(s.counter(COUNTERS, key))
          .as("counter after one merge of %d", delta)
          .isEqualTo(delta);
    }
  }

  /**
   * Merges add as signed 64-bit integers, wrapping around on overflow, within and across batches.
   */
  @Property
  default void mergeIsSigned64BitAdditionWithWrapAround(
      @ForAll("keys") byte[] key,
      @ForAll("deltaLists") List<Long> deltas,
      @ForAll boolean oneBatch) {
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
      assertThat(s.counter(COUNTERS, key))
          .as("sum of %s with wrap-around", deltas)
          .isEqualTo(expected);
    }
  }

  /**
   * The stored bytes of a counter are Int64Add.encode(value): 8 bytes, little-endian, on every
   * backend.
   */
  @Property
  default void mergeBytesIdenticalOnEveryBackend(
      @ForAll("keys") byte[] key, @ForAll("deltaLists") List<Long> deltas) {
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

  /**
   * How long, at least, the threads of {@code concurrentMergesLoseNoOperand} race (and 10 rounds).
   */
  long MERGE_RACE_MILLIS = 500;

  /**
   * Eight threads merging into one key lose no operand. They merge in bursts: rounds opened by a
   * barrier that releases every thread at once, then 24 merges per thread back to back; at least 10
   * rounds, and more until the threads have raced for {@link #MERGE_RACE_MILLIS} ms. Threads
   * started one after the other rarely overlap for long (starting a thread costs more than a few
   * hundred merges), so without the barrier an engine that reads, adds and writes back instead of
   * merging atomically slipped through one run in two on two cores; in bursts, every round has as
   * many threads merging the same key at once as there are cores, and more waiting to preempt them
   * inside the read-to-write window. Each batch also puts into the plain family, so merges and puts
   * share batches as the queue's do.
   */
  @Example
  default void concurrentMergesLoseNoOperand() throws Exception {
    requireCapability(
        capabilities().concurrentWriters(),
        "concurrentWriters",
        "Store.write may not be called from several threads at once");
    final int threads = 8;
    final int minRounds = 10;
    final long minNanos = TimeUnit.MILLISECONDS.toNanos(MERGE_RACE_MILLIS);
    final int burst = 24;
    byte[] key = {(byte) 0xc0, 0x00, 0x01};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      long started = System.nanoTime();
      AtomicInteger rounds = new AtomicInteger();
      AtomicBoolean more = new AtomicBoolean(true);
      // The barrier's action runs once per round, before the threads are released: it decides
      // whether
      // this round is the last, so every thread runs the same number of rounds.
      CyclicBarrier lockstep =
          new CyclicBarrier(
              threads,
              () ->
                  more.set(
                      rounds.incrementAndGet() < minRounds
                          || System.nanoTime() - started < minNanos));
      try {
        List<Future<?>> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
          final long delta = deltaOfThread(i);
          all.add(
              pool.submit(
                  () -> {
                    for (int r = 0; more.get(); r++) {
                      lockstep.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
                      for (int m = 0; m < burst; m++) {
                        s.write(
                            new Batch()
                                .merge(COUNTERS, key, delta)
                                .put(PLAIN, key, new byte[] {(byte) r, (byte) m}),
                            Durability.NO_SYNC);
                      }
                    }
                    return null;
                  }));
        }
        Exception first = null;
        for (Future<?> f : all) {
          try {
            f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
          } catch (ExecutionException e) {
            Exception cause = unwrap(e);
            if (first == null
                || first
                    instanceof
                    BrokenBarrierException) { // the barrier breaks after the real failure
              first = cause;
            }
          }
        }
        if (first != null) {
          throw first;
        }
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      }
      long expected = 0;
      for (int i = 0; i < threads; i++) {
        expected += (long) rounds.get() * burst * deltaOfThread(i);
      }
      assertThat(s.counter(COUNTERS, key))
          .as(
              "%d threads x %d rounds x %d merges (a lost operand of thread i shows"
                  + " as a difference of its delta: %s)",
              threads, rounds.get(), burst, deltasOfThreads(threads))
          .isEqualTo(expected);
    }
  }

  /**
   * The delta thread {@code i} merges: large and positive or small and negative, so a lost one is
   * named by its size.
   */
  private static long deltaOfThread(int i) {
    return (i % 2 == 0) ? (i + 1) * 1_000_003L : -(i + 1);
  }

  private static List<Long> deltasOfThreads(int threads) {
    List<Long> deltas = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      deltas.add(deltaOfThread(i));
    }
    return deltas;
  }

  /** counter() on a plain family is refused, not decoded. */
  @Example
  default void counterOfPlainFamilyIsRefused() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, new byte[] {1}, Int64Add.encode(3)), Durability.NO_SYNC);
      thrownBy(() -> s.counter(PLAIN, new byte[] {1}), "s.counter(PLAIN, new byte[] {1})")
          .isInstanceOf(StoreArgumentException.class);
    }
  }
}
