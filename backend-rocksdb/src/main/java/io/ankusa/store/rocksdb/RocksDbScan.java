package io.ankusa.store.rocksdb;

import io.ankusa.store.kit.ChunkedScan;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.Arrays;
import java.util.Set;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A scan over {@code [lo, hi)} of one column family: a RocksDB iterator with {@code
 * iterate_lower_bound}/{@code iterate_upper_bound}. A scan of the live store reads the state the
 * iterator pinned when it was created, or refreshed when it is one the engine kept from an earlier
 * scan of the same range ({@link KeptIterators}): RocksDB iterators read one implicit point-in-time
 * state, so no explicit snapshot is taken. A scan of a {@link RocksDbSnapshot} reads at the
 * snapshot. Either way it sees one state whatever is written meanwhile (property {@code
 * scanSeesOneStateWhileWritesGoOn}).
 *
 * <p>Entries are read in chunks ({@link ChunkedScan}: {@value ChunkedScan#FIRST_CHUNK} entries
 * first, doubling up to {@value ChunkedScan#MAX_CHUNK}): a chunk is read while holding the view's
 * guard (the shared side of the store's gate, and a snapshot's own for a scan of a snapshot) once,
 * so {@link RocksDbStore#close()}, {@link RocksDbStore#reportWriteFailure} and {@link
 * RocksDbSnapshot#close()} wait for a running chunk and never free the iterator under it (property
 * {@code closeWaitsForARunningScanChunk} in {@code ScanGuardTest}). Between chunks the scan holds
 * nothing; each {@code hasNext}/{@code next} reads one volatile field to learn whether the scan was
 * closed.
 *
 * <p>The end-of-range rule: whenever the iterator stops being valid, {@link RocksIterator#status()}
 * is checked, and a failure is thrown as {@link StoreCorruptionException} once the entries read
 * before it were returned — the scan never ends early because of corruption or an I/O error
 * (property {@code scanNeverEndsEarlyOnCorruption}, and {@code CorruptionTest}).
 *
 * <p>Owns: the iterator, its read options and the two bound slices ({@link ScanIterator}), until
 * {@link #close()} gives them to the engine's {@link KeptIterators} or frees them; they are freed
 * when the store closes or reopens, or its snapshot closes, while the scan is open. Entries are
 * fresh copies the caller owns. Used by one thread at a time.
 */
final class RocksDbScan extends ChunkedScan implements OpenResource {
  /**
   * Test seam: run while a chunk is being read, with the view's guard held, before the iterator is
   * touched. Null in production.
   */
  static volatile Runnable whileReadingChunk;

  private final RocksDbReadView view;
  private final RocksDbEngine engine;
  private final String family;
  private final Direction direction;
  private final Set<OpenResource> registry;

  /**
   * The iterator with its options and bounds; given to the engine's {@link KeptIterators} at close.
   */
  private final ScanIterator natives;

  private final RocksIterator iterator;

  /** Set when the iterator stopped on an error: it is then freed at close, never kept. */
  private volatile boolean failed;

  /** Null while open; otherwise why it was closed. Written under this object's monitor. */
  private volatile String closedBecause;

  // Owned by the scan's one thread:
  private byte[] lastKey;

  /** Values longer than this are not read through a scratch array (see {@link #freshValue()}). */
  private static final int MAX_SCRATCH_BYTES = 64 << 10;

  /**
   * Scratch arrays {@link #freshKey()} and {@link #freshValue()} read into; grown up to {@link
   * #MAX_SCRATCH_BYTES}.
   */
  private byte[] keyScratch = new byte[64];

  private byte[] valueScratch = new byte[256];

  private RocksDbScan(
      RocksDbReadView view,
      RocksDbEngine engine,
      String family,
      Direction direction,
      Set<OpenResource> registry,
      ScanIterator natives) {
    super(family);
    this.view = view;
    this.engine = engine;
    this.family = family;
    this.direction = direction;
    this.registry = registry;
    this.natives = natives;
    this.iterator = natives.iterator;
  }

  /**
   * Opens and positions a scan. REQUIRES: the caller entered {@code view} (holds its guard) and
   * checked the arguments; {@code hi == null} means unbounded; {@code frozen} is the snapshot to
   * read, or null to read the state the iterator pins.
   */
  static RocksDbScan open(
      RocksDbReadView view,
      RocksDbEngine engine,
      String family,
      byte[] lo,
      byte[] hi,
      Direction direction,
      org.rocksdb.Snapshot frozen,
      Set<OpenResource> registry) {
    ScanIterator natives =
        ScanIterator.mayBeKept(engine, direction, frozen)
            ? engine.keptIterators.take(family, hi, System.nanoTime())
            : null;
    if (natives == null) {
      natives = ScanIterator.open(engine, family, lo, hi, direction, frozen);
    }
    RocksIterator it = natives.iterator;
    RocksDbScan scan = new RocksDbScan(view, engine, family, direction, registry, natives);
    if (direction == Direction.FORWARD) {
      if (lo.length == 0) {
        it.seekToFirst();
      } else {
        it.seek(lo);
      }
    } else if (hi == null) {
      it.seekToLast();
    } else {
      // With iterate_upper_bound set, seekForPrev(hi) lands on the last key < hi.
      it.seekForPrev(hi);
    }
    registry.add(scan);
    return scan;
  }

  /**
   * Reads the next chunk under the view's guard: the store (or snapshot) cannot close the iterator
   * meanwhile. A chunk shorter than {@code into} means the iterator went past the range's end or
   * stopped on an error, which is then recorded with {@link #stoppedOn}.
   */
  @Override
  protected int readChunk(Entry[] into) {
    view.enter();
    try {
      checkOpen(); // closed while we waited for the guard
      Runnable hook = whileReadingChunk;
      if (hook != null) {
        hook.run();
      }
      int n = 0;
      boolean forward = direction == Direction.FORWARD;
      while (n < into.length && iterator.isValid()) {
        byte[] key = freshKey();
        into[n++] = new Entry(key, freshValue());
        lastKey = key;
        if (forward) {
          iterator.next();
        } else {
          iterator.prev();
        }
      }
      if (n < into.length) {
        StoreCorruptionException error = statusError();
        if (error != null) {
          failed = true;
          stoppedOn(error);
        }
      }
      return n;
    } finally {
      view.exit();
    }
  }

  /**
   * Hands every entry left in the range to {@code visitor}, in chunks of at most {@value
   * #MAX_CHUNK} entries each read and handed over under the view's guard (taken once per chunk, so
   * a close waits at most one chunk). Key and value are copied into arrays reused while the length
   * matches — no {@link Entry} and, for fixed-width keys and values, no array per entry; see {@link
   * io.ankusa.store.spi.EntryVisitor} for the ownership. Throws like {@link #hasNext()}: {@link
   * StoreCorruptionException} when the iterator stopped on an error, {@link StoreClosedException}
   * once the scan, its snapshot or its store is closed. REQUIRES: nothing was read with {@link
   * #next()} yet; the visitor does not close the view or store.
   */
  void visitRest(io.ankusa.store.spi.EntryVisitor visitor) {
    boolean forward = direction == Direction.FORWARD;
    byte[] keyBuffer = new byte[0];
    byte[] valueBuffer = new byte[0];
    while (true) {
      view.enter();
      try {
        checkOpen();
        Runnable hook = whileReadingChunk;
        if (hook != null) {
          hook.run();
        }
        for (int n = 0; n < MAX_CHUNK; n++) {
          if (!iterator.isValid()) {
            StoreCorruptionException error = statusError();
            if (error != null) {
              failed = true;
              throw error;
            }
            return;
          }
          int keyLength = iterator.key(keyBuffer);
          if (keyLength != keyBuffer.length) {
            keyBuffer = new byte[keyLength];
            iterator.key(keyBuffer);
          }
          int valueLength = iterator.value(valueBuffer);
          if (valueLength != valueBuffer.length) {
            valueBuffer = new byte[valueLength];
            iterator.value(valueBuffer);
          }
          lastKey = keyBuffer;
          if (!visitor.visit(keyBuffer, valueBuffer)) {
            return;
          }
          if (forward) {
            iterator.next();
          } else {
            iterator.prev();
          }
        }
      } finally {
        view.exit();
      }
    }
  }

  /**
   * The iterator's key in a fresh array the caller owns. Read into a scratch array reused for the
   * scan, then copied on the Java side: RocksJava's {@code key()} makes its array in native code,
   * which costs more per entry than the copy.
   */
  private byte[] freshKey() {
    int length = iterator.key(keyScratch);
    if (length > keyScratch.length) { // keys are at most maxKeyBytes (8 KiB)
      keyScratch = new byte[length];
      iterator.key(keyScratch);
    }
    return Arrays.copyOf(keyScratch, length);
  }

  /**
   * The iterator's value in a fresh array the caller owns; read as {@link #freshKey()} reads keys.
   */
  private byte[] freshValue() {
    int length = iterator.value(valueScratch);
    if (length > valueScratch.length) {
      if (length > MAX_SCRATCH_BYTES) {
        return iterator.value(); // a large value: one native copy, and no scratch of its size kept
      }
      valueScratch = new byte[length];
      iterator.value(valueScratch);
    }
    return Arrays.copyOf(valueScratch, length);
  }

  /**
   * Null when the iterator ended at the true end of its range; the error it stopped on otherwise.
   */
  private StoreCorruptionException statusError() {
    try {
      iterator.status();
      return null;
    } catch (RocksDBException e) {
      return new StoreCorruptionException(
          "scan of family '"
              + family
              + "' in RocksDB store "
              + engine.dir
              + " stopped "
              + (lastKey == null ? "before its first entry" : "after key " + Bytes.hex(lastKey))
              + " on an error ("
              + e.getMessage()
              + "); the range was not read to its end: restore the"
              + " store from a backup or run RocksDB's repair tool (ldb repair)",
          e);
    }
  }

  @Override
  protected void checkOpen() {
    String reason = closedBecause;
    if (reason != null) {
      throw new StoreClosedException(reason);
    }
  }

  /**
   * Closes the scan. Its iterator goes to the engine's {@link KeptIterators} when a later scan may
   * reuse it (a forward scan of the live store that met no error); it is freed otherwise.
   */
  @Override
  public void close() {
    if (closedBecause != null) {
      return;
    }
    // The gate's shared side keeps the engine open while the native objects are freed or kept.
    view.store().gate().enterShared();
    try {
      release("scan of family '" + family + "' is closed", natives.reusable && !failed);
    } finally {
      view.store().gate().exitShared();
    }
  }

  @Override
  public void invalidate(String reason) {
    release(reason, false);
  }

  private synchronized void release(String reason, boolean keep) {
    if (closedBecause != null) {
      return;
    }
    closedBecause = reason;
    registry.remove(this);
    if (keep) {
      engine.keptIterators.keep(natives, System.nanoTime());
    } else {
      natives.close();
    }
  }
}
