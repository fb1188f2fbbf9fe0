package io.ankusa.store.spi;

import java.util.List;

/**
 * Reads, on a live {@link Store} or a frozen {@link Snapshot}.
 *
 * <p>Keys compare as unsigned bytes (property {@code keysCompareAsUnsignedBytes}). Ownership:
 * arrays passed in are only read during the call and never retained: a scan opened with them yields
 * its range whatever the caller writes into them afterwards (property {@code
 * argumentArraysAreNeverRetained}); arrays returned are fresh copies the caller owns, which no
 * later read changes (properties {@code readsReturnFreshCopies}, {@code
 * readsDoNotReuseReturnedArrays}; the arrays a {@link #visit} hands its callback are the exception:
 * see {@link EntryVisitor}).
 *
 * <p>Common REQUIRES for every method: {@code family} is one the store was opened with, otherwise
 * {@link StoreArgumentException}; keys are 1..{@link Capabilities#maxKeyBytes()} bytes. Every
 * method throws {@link StoreClosedException} after close and {@link StoreCorruptionException} when
 * the data read cannot be trusted.
 */
public interface ReadView {

  /** The value at {@code key}, or {@code null} when absent. */
  byte[] get(String family, byte[] key);

  /**
   * The values at {@code keys}, in the order of {@code keys}, {@code null} for each absent key; the
   * same key may appear more than once (property {@code multiGetKeepsOrderAndNulls}); each call
   * answers only its own keys, whatever an earlier call asked (property {@code
   * consecutiveMultiGetsAnswerOnlyTheirOwnKeys}). All values come from one consistent state,
   * however many batches are written meanwhile (property {@code batchIsAtomicToConcurrentReaders}).
   * Any number of keys is answered, without a size limit of its own (property {@code
   * multiGetOfAMillionKeys}).
   */
  List<byte[]> multiGet(String family, List<byte[]> keys);

  /**
   * The entries with {@code lo <= key < hi} in {@code direction} order. {@code hi == null} means no
   * upper bound; {@code lo} may be empty (the start of the family). REQUIRES: {@code lo <= hi} when
   * {@code hi} is given; {@code lo == hi} is an empty range.
   *
   * <p>Properties: {@code scanRespectsHalfOpenBounds}, {@code reverseScanIsForwardReversed}, {@code
   * scanSeesOneStateWhileWritesGoOn}, {@code aRescanSeesWritesSinceTheLastScanOfItsRange}, {@code
   * scanNeverEndsEarlyOnCorruption}.
   */
  Scan scan(String family, byte[] lo, byte[] hi, Direction direction);

  /**
   * Calls {@code visitor} with the entries of {@code [lo, hi)} in {@code direction} order, the same
   * entries a {@link #scan} with these arguments returns, until the range ends or the visitor
   * returns {@code false} (property {@code visitSeesWhatScanSees}). The read path for hot internal
   * callers that decode each entry at once: a backend may skip the fresh copies a {@link Scan}
   * promises (see {@link EntryVisitor} for who owns the arrays). Like a scan it reads one
   * consistent state, never ends early on corruption ({@link StoreCorruptionException}, property
   * {@code scanNeverEndsEarlyOnCorruption}) and throws {@link StoreClosedException} on a closed
   * store (property {@code everyCallAfterCloseThrows}). REQUIRES: as {@link #scan}; {@code visitor}
   * is not null, and does not close this view or its store, nor call {@link
   * Store#reportWriteFailure}, while it runs (it may read and write). Exceptions the visitor throws
   * end the visit and propagate.
   *
   * <p>The default walks a {@link #scan}; backends override it when they can do better.
   */
  default void visit(
      String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
    // The scan first: a closed view says so before its arguments are judged, the visitor's
    // included.
    try (Scan scan = scan(family, lo, hi, direction)) {
      if (visitor == null) {
        throw new StoreArgumentException(
            "null visitor passed to visit of family '" + family + "'; nothing read");
      }
      while (scan.hasNext()) {
        Entry e = scan.next();
        if (!visitor.visit(e.key(), e.value())) {
          return;
        }
      }
    }
  }

  /**
   * The value of a counter in a counters family: {@link Int64Add#decode} of the stored bytes, or 0
   * when absent (property {@code mergeOntoAbsentKeyEqualsDelta}).
   *
   * @throws StoreArgumentException if the family is not a counters family
   */
  long counter(String family, byte[] key);
}
