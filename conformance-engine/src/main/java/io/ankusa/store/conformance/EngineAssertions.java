package io.ankusa.store.conformance;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.Assertions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What the engine layer's cases share: constants, scan and hex helpers, the assertions that name
 * the first difference.
 */
final class EngineAssertions {
  private EngineAssertions() {}

  /**
   * The exception an open that must be refused threw; an open that succeeds is closed and fails the
   * case.
   */
  static StoreException openIsRefused(String what, Supplier<Store> open) {
    Store opened;
    try {
      opened = open.get();
    } catch (StoreException e) {
      return e;
    }
    opened.close();
    throw new AssertionError(what + " was not refused: it opened " + opened);
  }

  static final byte[] START = new byte[0];

  /**
   * Longest wait for the threads of a concurrency case; a hang fails the case instead of the build.
   */
  static final long THREAD_WAIT_SECONDS = 120;

  /**
   * Oversized keys are tried only when maxKeyBytes is below this (allocating one must be cheap).
   */
  static final int MAX_OVERSIZED_KEY = 1 << 20;

  /**
   * What {@code call} threw, as an assertion described by {@code what} formatted with {@code args},
   * for the checks that follow ({@code isInstanceOf}, {@code hasMessageContaining}). AssertJ's
   * {@code assertThatThrownBy} fails before any description applies when nothing is thrown
   * ("Expecting code to raise a throwable", naming no call); this fails naming the call, so a
   * table-driven case says which of its rows let a call through.
   */
  static AbstractThrowableAssert<?, ? extends Throwable> thrownBy(
      ThrowingCallable call, String what, Object... args) {
    Throwable thrown = Assertions.catchThrowable(call);
    String described = String.format(what, args);
    if (thrown == null) {
      throw new AssertionError(
          "[" + described + "] expected to throw, but the call returned normally");
    }
    return Assertions.assertThat(thrown).as(described);
  }

  /**
   * The exception's class and the start of its message's first line, for reports and assertion
   * texts.
   */
  static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    String line = nl < 0 ? m : m.substring(0, nl);
    return e.getClass().getSimpleName()
        + ": "
        + (line.length() <= 160 ? line : line.substring(0, 160) + "…");
  }

  /**
   * Full forward scans of {@code family} in both stores agree, else names the first differing key.
   */
  static void assertSameState(ReadView actual, ReadView model, String family, String when) {
    assertSameList(
        hexEntries(drain(actual, family, START, null, Direction.FORWARD)),
        hexEntries(drain(model, family, START, null, Direction.FORWARD)),
        when + ": family '" + family + "' full forward scan");
  }

  static void assertSameList(List<String> actual, List<String> model, String what) {
    if (actual.equals(model)) {
      return;
    }
    int i = 0;
    while (i < actual.size() && i < model.size() && actual.get(i).equals(model.get(i))) {
      i++;
    }
    throw new AssertionError(
        what
            + ": the backend differs from the model at position "
            + i
            + ": backend has "
            + (i < actual.size() ? actual.get(i) : "<nothing more>")
            + ", model has "
            + (i < model.size() ? model.get(i) : "<nothing more>")
            + "\n  backend: "
            + actual
            + "\n  model:   "
            + model);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Puts each key with itself as value into {@link #PLAIN} in one batch; returns the model. */
  static TreeMap<byte[], byte[]> putAll(Store s, List<byte[]> keys) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.UNSIGNED);
    Batch b = new Batch();
    for (byte[] k : keys) {
      b.put(EngineCase.PLAIN, k, k);
      model.put(k, k);
    }
    s.write(b, Durability.NO_SYNC);
    return model;
  }

  /** {@code keys} and the two bounds, so that a range's own ends are always stored keys. */
  static List<byte[]> withBounds(List<byte[]> keys, byte[] lo, byte[] hi) {
    List<byte[]> all = new ArrayList<>(keys);
    all.add(lo);
    all.add(hi);
    return all;
  }

  /** Every entry of {@code [lo, hi)} in {@code dir} order; the scan is closed. */
  static List<Entry> drain(ReadView view, String family, byte[] lo, byte[] hi, Direction dir) {
    List<Entry> out = new ArrayList<>();
    try (Scan scan = view.scan(family, lo, hi, dir)) {
      while (scan.hasNext()) {
        out.add(scan.next());
      }
    }
    return out;
  }

  static List<String> hexKeys(List<Entry> entries) {
    return entries.stream().map(e -> Bytes.hex(e.key())).toList();
  }

  static List<String> hexEntries(List<Entry> entries) {
    return entries.stream().map(Entry::toString).toList();
  }

  /** {@code map}'s entries in its order, each as {@link Entry#toString()} writes a scanned one. */
  static List<String> hexEntries(Map<byte[], byte[]> map) {
    List<String> out = new ArrayList<>(map.size());
    map.forEach((k, v) -> out.add(new Entry(k, v).toString()));
    return out;
  }

  static List<String> hex(List<byte[]> arrays) {
    return arrays.stream().map(Bytes::hex).toList();
  }

  /**
   * Asserts {@code actual} lists exactly {@code expected}'s entries in order, naming the first
   * difference.
   */
  static void assertSameEntries(List<Entry> actual, Map<byte[], byte[]> expected, String when) {
    List<String> want = hexEntries(expected);
    List<String> got = hexEntries(actual);
    if (!got.equals(want)) {
      int i = 0;
      while (i < got.size() && i < want.size() && got.get(i).equals(want.get(i))) {
        i++;
      }
      throw new AssertionError(
          when
              + ": scan differs from the expected state at position "
              + i
              + ": got "
              + (i < got.size() ? got.get(i) : "<end of scan>")
              + ", expected "
              + (i < want.size() ? want.get(i) : "<end of scan>")
              + "\n  got:      "
              + got
              + "\n  expected: "
              + want);
    }
  }

  static void awaitQuietly(CountDownLatch latch) {
    try {
      if (!latch.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("threads of a concurrency case did not start");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting a concurrency case", e);
    }
  }

  static Exception unwrap(ExecutionException e) {
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
