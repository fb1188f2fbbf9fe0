package io.ankusa.store.spi;

import java.util.Iterator;

/**
 * An ordered walk over {@code [lo, hi)} of one family, see {@link ReadView#scan}.
 *
 * <p>A scan sees one consistent state of the store, the one at the moment it was opened, whatever
 * is written meanwhile (property {@code scanSeesOneStateWhileWritesGoOn}), and so every write
 * committed before it opened, however often its range was scanned before (property {@code
 * aRescanSeesWritesSinceTheLastScanOfItsRange}). {@link #hasNext()} returns {@code false} only at
 * the true end of the range: corruption or an I/O error met on the way throws {@link
 * StoreCorruptionException} instead (property {@code scanNeverEndsEarlyOnCorruption}).
 *
 * <p>A scan holds engine resources (an iterator, a read transaction) until {@link #close()}; use it
 * in try-with-resources. After close, or after its store is closed, every call throws {@link
 * StoreClosedException}. A scan is used by one thread at a time.
 */
public interface Scan extends Iterator<Entry>, AutoCloseable {
  /** Releases the scan's resources. Idempotent. */
  @Override
  void close();
}
