package io.ankusa.store.conformance.queue;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A {@link Store} that hands every call to the store under test and records what the queue reads
 * from it: every scan (family, bounds, direction, and how many entries the caller consumed) and
 * every point read ({@code get}, {@code multiGet}, {@code counter}). The layout layer uses it to
 * check which ranges a queue operation touches ({@code pendingDeadAndPurgeTouchOneTenant}, {@code
 * queueGaugesReadCounters}), and to drive one interleaving: {@link #beforeWrite} runs an action
 * just before a chosen batch is applied ({@code cleanupDoesNotLoseAMarkerToAConcurrentEnqueue}),
 * {@link #afterScan} when a chosen scan is closed, {@link #afterGet} when a chosen point read
 * returns — after a transition read its rows, before it writes them ({@code
 * purgeBesideADispatcherTickKeepsCountersExact}, {@code aReviveAfterPurgeAndReclaimWritesNothing}).
 *
 * <p>Reads through {@link #snapshot()} are not recorded. Recorded keys are copies, owned by the
 * record. Thread-safe: records are kept in synchronized lists; {@link #reads()} returns a copy.
 */
public final class RecordingStore extends ForwardingStore {
  private final List<Read> reads = Collections.synchronizedList(new ArrayList<>());
  private Predicate<Batch> interposeOn;
  private Runnable interposed;
  private Predicate<ScanRead> afterScanOf;
  private Runnable afterScan;
  private Predicate<PointRead> afterGetOf;
  private Runnable afterGet;

  /** Wraps {@code delegate}; closing this store closes it. */
  public RecordingStore(Store delegate) {
    super(delegate);
  }

  /** One recorded read. */
  public sealed interface Read permits ScanRead, PointRead {
    String family();
  }

  /**
   * A scan of {@code [lo, hi)} ({@code hi} null: to the end) in {@code direction}; {@link
   * #entriesConsumed()} counts the entries the caller took with {@code next()}, as they are taken.
   */
  public record ScanRead(
      String family, byte[] lo, byte[] hi, Direction direction, AtomicInteger consumed)
      implements Read {
    /** Entries taken from the scan so far. */
    public int entriesConsumed() {
      return consumed.get();
    }

    @Override
    public String toString() {
      return "scan("
          + family
          + ", ["
          + Bytes.hex(lo)
          + ", "
          + (hi == null ? "end" : Bytes.hex(hi))
          + "), "
          + direction
          + ", "
          + consumed.get()
          + " entries consumed)";
    }
  }

  /**
   * A point read of {@code keys}: one key for {@code get} and {@code counter}, any number for
   * {@code multiGet}.
   */
  public record PointRead(String family, String call, List<byte[]> keys) implements Read {
    @Override
    public String toString() {
      return call + "(" + family + ", " + keys.stream().map(Bytes::hex).toList() + ")";
    }
  }

  /** Everything read since the last {@link #clearReads()}, in call order; a copy. */
  public List<Read> reads() {
    synchronized (reads) {
      return List.copyOf(reads);
    }
  }

  /** The scans among {@link #reads()}. */
  public List<ScanRead> scans() {
    List<ScanRead> out = new ArrayList<>();
    for (Read r : reads()) {
      if (r instanceof ScanRead s) {
        out.add(s);
      }
    }
    return out;
  }

  /** The point reads among {@link #reads()}. */
  public List<PointRead> pointReads() {
    List<PointRead> out = new ArrayList<>();
    for (Read r : reads()) {
      if (r instanceof PointRead p) {
        out.add(p);
      }
    }
    return out;
  }

  /** Forgets the reads recorded so far. */
  public void clearReads() {
    reads.clear();
  }

  /**
   * Runs {@code action} once, just before the first later batch that {@code batchMatches} is handed
   * to the store under test (on the writing thread). The action may write to this store itself.
   */
  public synchronized void beforeWrite(Predicate<Batch> batchMatches, Runnable action) {
    this.interposeOn = batchMatches;
    this.interposed = action;
  }

  /**
   * Runs {@code action} once, when the first later scan that {@code scanMatches} is closed (on the
   * reading thread). The action may read and write this store itself.
   */
  public synchronized void afterScan(Predicate<ScanRead> scanMatches, Runnable action) {
    this.afterScanOf = scanMatches;
    this.afterScan = action;
  }

  /**
   * Runs {@code action} once, when the first later {@code get} that {@code getMatches} has returned
   * (on the reading thread, before the caller sees the value). The action may read and write this
   * store itself.
   */
  public synchronized void afterGet(Predicate<PointRead> getMatches, Runnable action) {
    this.afterGetOf = getMatches;
    this.afterGet = action;
  }

  @Override
  public byte[] get(String family, byte[] key) {
    PointRead read = new PointRead(family, "get", List.of(key.clone()));
    reads.add(read);
    byte[] value = delegate.get(family, key);
    Runnable action = null;
    synchronized (this) {
      if (afterGetOf != null && afterGetOf.test(read)) {
        action = afterGet;
        afterGetOf = null;
        afterGet = null;
      }
    }
    if (action != null) {
      action.run();
    }
    return value;
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    List<byte[]> copies = new ArrayList<>(keys.size());
    keys.forEach(k -> copies.add(k.clone()));
    reads.add(new PointRead(family, "multiGet", Collections.unmodifiableList(copies)));
    return delegate.multiGet(family, keys);
  }

  @Override
  public long counter(String family, byte[] key) {
    reads.add(new PointRead(family, "counter", List.of(key.clone())));
    return delegate.counter(family, key);
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    AtomicInteger consumed = new AtomicInteger();
    ScanRead read =
        new ScanRead(family, lo.clone(), hi == null ? null : hi.clone(), direction, consumed);
    reads.add(read);
    Scan inner = delegate.scan(family, lo, hi, direction);
    Runnable onClose;
    synchronized (this) {
      onClose = afterScanOf != null && afterScanOf.test(read) ? afterScan : null;
      if (onClose != null) {
        afterScanOf = null;
        afterScan = null;
      }
    }
    return new Scan() {
      @Override
      public boolean hasNext() {
        return inner.hasNext();
      }

      @Override
      public Entry next() {
        Entry e = inner.next();
        consumed.incrementAndGet();
        return e;
      }

      @Override
      public void close() {
        inner.close();
        if (onClose != null) {
          onClose.run();
        }
      }
    };
  }

  @Override
  public void write(Batch batch, Durability durability) {
    Runnable action = null;
    synchronized (this) {
      if (interposeOn != null && interposeOn.test(batch)) {
        action = interposed;
        interposeOn = null;
        interposed = null;
      }
    }
    if (action != null) {
      action.run();
    }
    delegate.write(batch, durability);
  }
}
