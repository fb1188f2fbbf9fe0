package io.ankusa.store.memory;

import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilyCatalog;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreClosedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * Step 2 of writing a backend: the reads. One implementation serves the live store (maps shared with
 * writers, read under the read lock) and snapshots (private copies, the lock is a no-op).
 *
 * <p>Ownership: stored arrays are never handed out; every read returns a copy.
 */
class MemoryView implements ReadView {
  private final FamilyCatalog catalog;
  private final Map<String, TreeMap<byte[], byte[]>> families;
  private final Lock readLock;
  private final BooleanSupplier closed;
  /** Counts the store's reportWriteFailure calls; a scan opened before one is closed by it. */
  private final IntSupplier failures;
  private final String what;

  MemoryView(
      FamilyCatalog catalog,
      Map<String, TreeMap<byte[], byte[]>> families,
      Lock readLock,
      BooleanSupplier closed,
      IntSupplier failures,
      String what) {
    this.catalog = catalog;
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
   * The model's simplification: the range is copied when the scan opens, so it sees one state
   * whatever is written later. Costs O(range) up front; an engine with MVCC iterates lazily instead.
   */
  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    checkOpen();
    catalog.checkScan(family, lo, hi, direction);
    List<Entry> entries;
    readLock.lock();
    try {
      TreeMap<byte[], byte[]> map = families.get(family);
      NavigableMap<byte[], byte[]> range = hi == null ? map.tailMap(lo, true) : map.subMap(lo, true, hi, false);
      if (direction == Direction.REVERSE) {
        range = range.descendingMap();
      }
      entries = new ArrayList<>(range.size());
      for (Map.Entry<byte[], byte[]> e : range.entrySet()) {
        entries.add(new Entry(e.getKey().clone(), e.getValue().clone()));
      }
    } finally {
      readLock.unlock();
    }
    return new ListScan(entries);
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

  /** A scan over entries already copied; closed with its view. */
  private final class ListScan implements Scan {
    private final List<Entry> entries;
    private final int failuresAtOpen = failures.getAsInt();
    private int next;
    private boolean scanClosed;

    ListScan(List<Entry> entries) {
      this.entries = entries;
    }

    @Override
    public boolean hasNext() {
      check();
      return next < entries.size();
    }

    @Override
    public Entry next() {
      if (!hasNext()) {
        throw new NoSuchElementException("scan is at the end of its range");
      }
      return entries.get(next++);
    }

    @Override
    public void close() {
      scanClosed = true;
    }

    private void check() {
      if (scanClosed) {
        throw new StoreClosedException("scan is closed");
      }
      checkOpen();
      if (failures.getAsInt() != failuresAtOpen) {
        throw new StoreClosedException("scan of " + what + " was closed by reportWriteFailure; open a new one");
      }
    }
  }
}
