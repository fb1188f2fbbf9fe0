package io.ankusa.store.spi;

import java.util.List;

/**
 * Reads, on a live {@link Store} or a frozen {@link Snapshot}.
 *
 * <p>Keys compare as unsigned bytes (property {@code keysCompareAsUnsignedBytes}). Ownership: arrays
 * passed in are only read during the call and never retained; arrays returned are fresh copies the
 * caller owns.
 *
 * <p>Common REQUIRES for every method: {@code family} is one the store was opened with, otherwise
 * {@link StoreArgumentException}; keys are 1..{@link Capabilities#maxKeyBytes()} bytes. Every method
 * throws {@link StoreClosedException} after close and {@link StoreCorruptionException} when the data
 * read cannot be trusted.
 */
public interface ReadView {

  /** The value at {@code key}, or {@code null} when absent. */
  byte[] get(String family, byte[] key);

  /**
   * The values at {@code keys}, in the order of {@code keys}, {@code null} for each absent key; the
   * same key may appear more than once (property {@code multiGetKeepsOrderAndNulls}). All values come
   * from one consistent state. Any number of keys is answered, without a size limit of its own
   * (property {@code multiGetOfAMillionKeys}).
   */
  List<byte[]> multiGet(String family, List<byte[]> keys);

  /**
   * The entries with {@code lo <= key < hi} in {@code direction} order. {@code hi == null} means no
   * upper bound; {@code lo} may be empty (the start of the family). REQUIRES: {@code lo <= hi} when
   * {@code hi} is given; {@code lo == hi} is an empty range.
   *
   * <p>Properties: {@code scanRespectsHalfOpenBounds}, {@code reverseScanIsForwardReversed}, {@code
   * scanSeesOneStateWhileWritesGoOn}, {@code scanNeverEndsEarlyOnCorruption}.
   */
  Scan scan(String family, byte[] lo, byte[] hi, Direction direction);

  /**
   * The value of a counter in a counters family: {@link Int64Add#decode} of the stored bytes, or 0
   * when absent (property {@code mergeOntoAbsentKeyEqualsDelta}).
   *
   * @throws StoreArgumentException if the family is not a counters family
   */
  long counter(String family, byte[] key);
}
