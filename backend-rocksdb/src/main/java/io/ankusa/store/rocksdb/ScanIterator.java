package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.Direction;
import java.util.Arrays;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * The native objects behind one scan: a RocksDB iterator over one family, the read options it was
 * made with and the bound slices those options point to. The options and slices must outlive the
 * iterator, so the three are made, kept and freed together.
 *
 * <p>A scan of the live store reads forward from a seek and is bounded above only: its iterator can
 * serve a later scan of the same family and upper bound after {@link RocksIterator#refresh()} (see
 * {@link KeptIterators}). Owned by one scan at a time, or by {@link KeptIterators} while idle.
 */
final class ScanIterator implements AutoCloseable {
  final String family;

  /** The upper bound, exclusive; null when unbounded. */
  final byte[] hi;

  final RocksIterator iterator;
  private final ReadOptions options;
  private final Slice lower;
  private final Slice upper;

  /** Whether a later scan may reuse it: a forward scan of the live store with no lower bound. */
  final boolean reusable;

  /**
   * When {@link KeptIterators} took it in, in {@link System#nanoTime()} units; its own while idle.
   */
  long idleSinceNanos;

  private ScanIterator(
      String family,
      byte[] hi,
      RocksIterator iterator,
      ReadOptions options,
      Slice lower,
      Slice upper,
      boolean reusable) {
    this.family = family;
    this.hi = hi;
    this.iterator = iterator;
    this.options = options;
    this.lower = lower;
    this.upper = upper;
    this.reusable = reusable;
  }

  /**
   * A new, unpositioned iterator over {@code [lo, hi)} of {@code family}, reading {@code frozen}
   * or, when it is null, the state the iterator pins now. REQUIRES: the caller entered the engine
   * and checked the arguments; {@code hi == null} means unbounded.
   */
  static ScanIterator open(
      RocksDbEngine engine,
      String family,
      byte[] lo,
      byte[] hi,
      Direction direction,
      org.rocksdb.Snapshot frozen) {
    ReadOptions options = new ReadOptions().setVerifyChecksums(true);
    if (frozen != null) {
      options.setSnapshot(frozen);
    }
    // A forward scan seeks to lo and only moves on, so it needs no lower bound: one native slice
    // fewer to make and free per scan. A reverse scan needs both: seekForPrev lands below hi, and
    // prev must stop at lo.
    Slice lower = lo.length == 0 || direction == Direction.FORWARD ? null : new Slice(lo);
    Slice upper = hi == null ? null : new Slice(hi);
    if (lower != null) {
      options.setIterateLowerBound(lower);
    }
    if (upper != null) {
      options.setIterateUpperBound(upper);
    }
    RocksIterator it = engine.db.newIterator(engine.handle(family), options);
    return new ScanIterator(
        family,
        hi == null ? null : hi.clone(),
        it,
        options,
        lower,
        upper,
        mayBeKept(engine, direction, frozen));
  }

  /**
   * Whether a scan's iterator may go to {@code engine}'s {@link KeptIterators} and come from there:
   * a forward scan of the live store ({@code frozen} null) of an engine that keeps iterators.
   */
  static boolean mayBeKept(RocksDbEngine engine, Direction direction, org.rocksdb.Snapshot frozen) {
    return frozen == null && direction == Direction.FORWARD && engine.keptIterators.enabled();
  }

  /** Whether it iterates {@code family} up to {@code hi} (null: unbounded). */
  boolean covers(String family, byte[] hi) {
    return this.family.equals(family) && Arrays.equals(this.hi, hi);
  }

  /** Frees the iterator, then the options and slices it points into. */
  @Override
  public void close() {
    iterator.close();
    options.close();
    if (lower != null) {
      lower.close();
    }
    if (upper != null) {
      upper.close();
    }
  }
}
