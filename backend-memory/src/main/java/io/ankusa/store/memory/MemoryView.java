package io.ankusa.store.memory;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreClosedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * Step 2 of writing a backend: the reads. One implementation serves the live store (maps shared
 * with writers, read under the read lock) and snapshots (private copies, the lock is a no-op).
 *
 * <p>Ownership: stored arrays are never handed out; every read returns a copy. Arrays passed in are
 * never kept: a scan's range view holds copies of its bounds.
 */
class MemoryView implements ReadView {
  private final FamilyCatalog catalog;
  private final Map<String, TreeMap<byte[], byte[]>> families;
  private final Lock readLock;
  private final BooleanSupplier closed;

  /** Counts the store's reportWriteFailure calls; a scan opened before one is closed by it. */
  private final IntSupplier failures;

  private final String what;

  /** The live store's scans that have not copied their whole range yet; null for a snapshot. */
  private final Set<ChunkedScan> openScans;

  MemoryView(
      FamilyCatalog catalog,
      Map<String, TreeMap<byte[], byte[]>> families,
      Lock readLock,
      BooleanSupplier closed,
      IntSupplier failures,
      String what,
      boolean live) {
    this.catalog = catalog;
    this.openScans = live ? ConcurrentHashMap.newKeySet() : null;
    this.families = families;
    this.readLock = readLock;
    this.closed = closed;
    this.failures = failures;
    this.what = what;
  }

  /** Throws {@link StoreClosedException} once this view (or its store) is closed. */
  final void checkOpen() {
    if (closed.getAsBoolean()) {
      throw new StoreClosedException(what + " is closed");
    }
  }

  @Override
  public byte[] get(String family, byte[] key) {
    checkOpen();
    catalog.require(family);
    catalog.checkKey(family, key);
    readLock.lock();
    try {
      return copy(families.get(family).get(key));
    } finally {
      readLock.unlock();
    }
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    checkOpen();
    catalog.require(family);
    catalog.checkKeys(family, keys);
    readLock.lock();
    try {
      TreeMap<byte[], byte[]> map = families.get(family);
      List<byte[]> out = new ArrayList<>(keys.size());
      for (byte[] k : keys) {
        out.add(copy(map.get(k)));
      }
      return out;
    } finally {
      readLock.unlock();
    }
  }

  /**
   * A scan copies its range a chunk at a time ({@value #FIRST_CHUNK} entries first, then four times
   * more each time, up to {@value #MAX_CHUNK}), so a short scan of a large family costs its own
   * length, not the family's. It still sees one state, the state when it opened: on the live store
   * an open scan is registered, and a writer, before it changes anything, makes every registered
   * scan copy the rest of its range (see {@link MemoryStore#write}). Snapshots own frozen maps, so
   * their scans need no registration.
   */
  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    checkOpen();
    catalog.checkScan(family, lo, hi, direction);
    readLock.lock();
    try {
      TreeMap<byte[], byte[]> map = families.get(family);
      // A sub-map view compares keys with its bounds each time the scan copies a chunk, long after
      // this
      // call returned: it gets copies, so the caller may reuse its arrays (property
      // argumentArraysAreNeverRetained).
      byte[] from = lo.clone();
      NavigableMap<byte[], byte[]> range =
          hi == null ? map.tailMap(from, true) : map.subMap(from, true, hi.clone(), false);
      ChunkedScan scan =
          new ChunkedScan(direction == Direction.REVERSE ? range.descendingMap() : range);
      if (openScans != null) {
        openScans.add(scan);
      }
      return scan;
    } finally {
      readLock.unlock();
    }
  }

  /**
   * Makes every registered scan copy the rest of its range now. REQUIRES: the caller holds the
   * write lock and has not changed anything yet.
   */
  final void freezeOpenScans() {
    if (openScans != null && !openScans.isEmpty()) {
      for (ChunkedScan scan : openScans) {
        scan.copyRest();
      }
    }
  }

  @Override
  public long counter(String family, byte[] key) {
    checkOpen();
    catalog.requireCounters(family);
    byte[] v = get(family, key);
    return v == null ? 0 : Int64Add.decode(family, key, v);
  }

  private static byte[] copy(byte[] v) {
    return v == null ? null : v.clone();
  }

  /** Entries a scan copies first: the queue's scans mostly stop within that many. */
  static final int FIRST_CHUNK = 64;

  /** Most entries a scan copies at once. */
  static final int MAX_CHUNK = 4096;

  /**
   * A scan over its range, copied a chunk at a time under the read lock. Its own monitor guards the
   * copied entries and the position, because a writer may copy the rest on its behalf ({@link
   * #copyRest}); lock order is always the store's lock, then the monitor, and {@link #next} takes
   * the monitor alone.
   */
  private final class ChunkedScan implements Scan {
    private final NavigableMap<byte[], byte[]> range;
    private final ArrayDeque<Entry> copied = new ArrayDeque<>();
    private final int failuresAtOpen = failures.getAsInt();

    /** The last key copied; the next chunk starts after it. Null before the first. */
    private byte[] copiedUpTo;

    private boolean rangeCopied;
    private int chunk = FIRST_CHUNK;
    private volatile boolean scanClosed;

    ChunkedScan(NavigableMap<byte[], byte[]> range) {
      this.range = range;
    }

    @Override
    public boolean hasNext() {
      check();
      synchronized (this) {
        if (!copied.isEmpty() || rangeCopied) {
          return !copied.isEmpty();
        }
      }
      readLock.lock();
      try {
        synchronized (this) {
          if (copied.isEmpty() && !rangeCopied) {
            copy(chunk);
            chunk = Math.min(MAX_CHUNK, chunk * 4);
          }
          return !copied.isEmpty();
        }
      } finally {
        readLock.unlock();
      }
    }

    @Override
    public Entry next() {
      if (!hasNext()) {
        throw new NoSuchElementException("scan is at the end of its range");
      }
      synchronized (this) {
        return copied.poll();
      }
    }

    @Override
    public void close() {
      scanClosed = true;
      if (openScans != null) {
        openScans.remove(this);
      }
      synchronized (this) {
        copied.clear();
        rangeCopied = true;
      }
    }

    /**
     * Copies everything left of the range: a writer is about to change it. REQUIRES: the write
     * lock.
     */
    void copyRest() {
      synchronized (this) {
        if (!rangeCopied) {
          copy(Integer.MAX_VALUE);
        }
      }
    }

    /**
     * Copies up to {@code limit} entries after {@link #copiedUpTo}. REQUIRES: a store lock and the
     * monitor.
     */
    private void copy(int limit) {
      NavigableMap<byte[], byte[]> rest =
          copiedUpTo == null ? range : range.tailMap(copiedUpTo, false);
      int n = 0;
      for (Map.Entry<byte[], byte[]> e : rest.entrySet()) {
        if (n == limit) {
          return;
        }
        copied.add(new Entry(e.getKey().clone(), e.getValue().clone()));
        copiedUpTo = e.getKey();
        n++;
      }
      rangeCopied = true;
      if (openScans != null) {
        openScans.remove(this);
      }
    }

    private void check() {
      if (scanClosed) {
        throw new StoreClosedException("scan is closed");
      }
      checkOpen();
      if (failures.getAsInt() != failuresAtOpen) {
        throw new StoreClosedException(
            "scan of " + what + " was closed by reportWriteFailure; open a new one");
      }
    }
  }
}
