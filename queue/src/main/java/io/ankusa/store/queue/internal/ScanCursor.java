package io.ankusa.store.queue.internal;

/**
 * Where the next scan of an ordered key range starts, for a range whose keys a scanner deletes as
 * it goes and writers put anywhere: the active markers ({@code 'A' bucket ord}, by bucket) and the
 * cleared markers ({@code 'c' seq}, by seq). On an engine that keeps deletions as tombstones until
 * compaction (RocksDB), a scan from the range's head walks every key the scanner deleted since;
 * starting here seeks past them. In memory only: a new queue starts at 0, the head.
 *
 * <p>Invariant: no key of the range that a writer has reported ({@link #lower}) sorts before the
 * position, unless a scan passed it. A writer reports every key it put, after its write, at the
 * key's position; a scan moves the position with {@link #start} and {@link #finish}, and a report
 * that lands while a scan is under way (the put may have landed behind the scan's progress) keeps
 * the scan's {@code finish} from moving past it. Several scans may be under way at once: reports
 * are kept until the last one finishes.
 *
 * <p>A key put by a write that does not report it — through a second queue opened on the same
 * store, or by a tool that writes transitions itself — is behind the position until a scan starts
 * at the head: every {@value #REWIND_EVERY}th scan does, so such a key is found within that many
 * scans, at the cost of one walk over the range's tombstones per {@value #REWIND_EVERY} scans.
 *
 * <p>Thread-safe: every method is one short critical section on this object.
 */
public final class ScanCursor {
  /** Every this many scans, one starts at the head of the range. */
  public static final int REWIND_EVERY = 256;

  private long position;
  private int scans;

  /** Scans started, modulo {@link #REWIND_EVERY}. */
  private int started;

  /**
   * The lowest position reported since the oldest scan under way started; {@link Long#MAX_VALUE}
   * when none.
   */
  private long lowestReported = Long.MAX_VALUE;

  /**
   * Where a scan starts now (the head for every {@value #REWIND_EVERY}th); from here until its
   * {@link #finish}, reports are recorded for it.
   */
  public synchronized long start() {
    if (scans++ == 0) {
      lowestReported = Long.MAX_VALUE;
    }
    boolean rewind = started == 0;
    started = (started + 1) % REWIND_EVERY;
    return rewind ? 0 : position;
  }

  /**
   * A scan that {@link #start} began saw nothing of the range before {@code next} (the first key it
   * left in place, or the position just past what it read): the position moves there, or to the
   * lowest key reported meanwhile if that is lower.
   */
  public synchronized void finish(long next) {
    position = Math.min(next, lowestReported);
    if (--scans == 0) {
      lowestReported = Long.MAX_VALUE;
    }
  }

  /**
   * A writer put a key of the range at {@code at}: the position moves back to it if it is past it.
   */
  public synchronized void lower(long at) {
    position = Math.min(position, at);
    if (scans > 0) {
      lowestReported = Math.min(lowestReported, at);
    }
  }

  /**
   * Where the next scan would start, recording nothing: for readers that delete nothing (the
   * gauges).
   */
  public synchronized long peek() {
    return position;
  }
}
