package io.ankusa.store.kit;

import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreException;
import java.util.NoSuchElementException;

/**
 * The part of a {@link Scan} that every engine reading its range in chunks writes the same way: a
 * buffer of entries, {@link #hasNext()} and {@link #next()} over it, and the end-of-range rule. An
 * engine extends this and supplies {@link #readChunk}, which reads the next entries under whatever
 * guard keeps its iterator or cursor alive (the store's shared lock, a snapshot's monitor), and
 * {@link #checkOpen()}.
 *
 * <p>Chunks grow: {@value #FIRST_CHUNK} entries first, then doubling up to {@value #MAX_CHUNK}, so
 * a short scan reads little and a long one takes its engine's guard once per {@value #MAX_CHUNK}
 * entries. Between chunks {@code hasNext}/{@code next} only call {@link #checkOpen()}.
 *
 * <p>The end-of-range rule: a chunk shorter than asked for means nothing more is read. If the
 * engine stopped on an error rather than at the range's end, {@link #readChunk} records it with
 * {@link #stoppedOn}; it is thrown once the entries read before it were returned, and by every
 * later {@code hasNext}, so the scan never ends early because of damage (property {@code
 * scanNeverEndsEarlyOnCorruption}).
 *
 * <p>Owns: the entries of the current chunk until {@link #next()} hands each to the caller, who
 * then owns it. Used by one thread at a time, like every {@link Scan}.
 */
public abstract class ChunkedScan implements Scan {
  /** Entries read by the first chunk; later chunks double. */
  public static final int FIRST_CHUNK = 8;

  /** The most entries one chunk reads. */
  public static final int MAX_CHUNK = 256;

  private final String family;
  private Entry[] chunk = new Entry[FIRST_CHUNK];
  private int chunkSize;
  private int at;

  /** True once a chunk came back short: nothing more to read. */
  private boolean ended;

  /** The error the engine stopped on, thrown once the chunk before it is consumed, then forever. */
  private StoreException failure;

  /** {@code family} is only named in messages. */
  protected ChunkedScan(String family) {
    this.family = family;
  }

  /**
   * Reads up to {@code into.length} entries into {@code into}, from index 0, and returns how many.
   * A count below {@code into.length} ends the scan: the range was read to its end, or the engine
   * stopped on an error it passed to {@link #stoppedOn}. REQUIRES: called by the scan's thread
   * only; the implementation takes its own guard and checks, under it, that the scan was not closed
   * while it waited for it.
   */
  protected abstract int readChunk(Entry[] into);

  /**
   * Throws {@link io.ankusa.store.spi.StoreClosedException} if the scan, its snapshot or its store
   * was closed. Called by every {@code hasNext}/{@code next}; must be cheap (a volatile read).
   */
  protected abstract void checkOpen();

  /**
   * Records the error the engine stopped on while reading a chunk; {@link #hasNext()} throws it
   * once the entries read before it were returned. REQUIRES: called from {@link #readChunk}, which
   * then returns fewer entries than asked for.
   */
  protected final void stoppedOn(StoreException error) {
    failure = error;
  }

  @Override
  public final boolean hasNext() {
    checkOpen();
    if (at < chunkSize) {
      return true;
    }
    if (!ended) {
      if (chunkSize == chunk.length && chunk.length < MAX_CHUNK) {
        chunk = new Entry[chunk.length * 2];
      }
      chunkSize = readChunk(chunk);
      at = 0;
      ended = chunkSize < chunk.length;
      if (chunkSize > 0) {
        return true;
      }
    }
    // Every entry read before the engine stopped was returned: now the error, if it stopped on one.
    if (failure != null) {
      throw failure;
    }
    return false;
  }

  @Override
  public final Entry next() {
    if (!hasNext()) {
      throw new NoSuchElementException(
          "scan of family '" + family + "' is at the end of its range");
    }
    Entry e = chunk[at];
    chunk[at++] = null;
    return e;
  }
}
