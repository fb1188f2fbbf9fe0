package io.ankusa.store.sample;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;

/**
 * The sample backend's store: one sorted map per family (keys in unsigned byte order) under a
 * read-write lock, and a {@link LogFile} that every batch is appended to before it is applied, so
 * the maps can be rebuilt at open. Writes hold the write lock, so batches are atomic and ordered,
 * and a merge's read-add-write loses no operand. A scan copies its range when it opens, so it sees
 * one state; a snapshot copies every map. Stored arrays are never handed out: reads return copies.
 *
 * <p>Durability: a batch is in the operating system's hands when {@code write} returns (it survives a
 * process kill) and on disk after a {@code SYNC} write or {@code syncWal}. Damage: a whole log record
 * whose checksum does not match is reported at open ({@code StoreCorruptionException}); nothing else
 * is claimed.
 */
final class LogStore implements Store {
  static final Capabilities CAPABILITIES = Capabilities.builder()
      .concurrentWriters(true).snapshots(true).durableAfterProcessKill(true).filesInDirectory(true)
      .maxKeyBytes(64 * 1024).maxValueBytes(16 << 20)
      .build();

  private final DirectoryClaim claim;
  private final FamilyCatalog catalog;
  private final Map<String, TreeMap<byte[], byte[]>> maps;
  private final LogFile log;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  /** reportWriteFailure calls so far: each closes the scans and snapshots opened before it. */
  private final AtomicInteger failures = new AtomicInteger();
  private final View live;

  private LogStore(DirectoryClaim claim, FamilyCatalog catalog, Map<String, TreeMap<byte[], byte[]>> maps, LogFile log) {
    this.claim = claim;
    this.catalog = catalog;
    this.maps = maps;
    this.log = log;
    this.live = new View(maps, true, closed::get, "store " + claim.directory());
  }

  /** Reconciles the families, replays the log and opens the store on {@code claim}, which it then owns. */
  static LogStore open(DirectoryClaim claim, FamilyCatalog catalog, boolean createIfMissing) {
    FamilyList.reconcile(claim.directory(), catalog.specs(), claim.readOnly(), createIfMissing);
    Map<String, TreeMap<byte[], byte[]>> maps = new LinkedHashMap<>();
    catalog.specs().forEach(spec -> maps.put(spec.name(), new TreeMap<>(Arrays::compareUnsigned)));
    LogFile log = LogFile.open(claim.directory(), claim.readOnly(), applier(maps));
    return new LogStore(claim, catalog, maps, log);
  }

  @Override
  public void write(Batch batch, Durability durability) {
    live.checkOpen();
    catalog.validate(batch, durability); // a bad batch is refused whole, before anything is written
    lock.writeLock().lock();
    try {
      live.checkOpen();
      log.append(batch, durability == Durability.SYNC);
      batch.forEach(applier(maps));
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Applies ops to the maps; keys and values are copied, the caller keeps its arrays. */
  private static OpHandler<RuntimeException> applier(Map<String, TreeMap<byte[], byte[]>> maps) {
    return new OpHandler<>() {
      @Override
      public void put(Op.Put p) {
        maps.get(p.family()).put(p.key().clone(), p.value().clone());
      }

      @Override
      public void delete(Op.Delete d) {
        maps.get(d.family()).remove(d.key());
      }

      @Override
      public void deleteRange(Op.DeleteRange r) {
        if (Arrays.compareUnsigned(r.lo(), r.hi()) < 0) {
          maps.get(r.family()).subMap(r.lo(), true, r.hi(), false).clear();
        }
      }

      @Override
      public void merge(Op.Merge m) {
        TreeMap<byte[], byte[]> map = maps.get(m.family());
        byte[] old = map.get(m.key());
        long current = old == null ? 0 : Int64Add.decode(m.family(), m.key(), old);
        map.put(m.key().clone(), Int64Add.encode(Int64Add.apply(current, m.delta())));
      }
    };
  }

  @Override
  public void syncWal() {
    live.checkOpen();
    log.force();
  }

  @Override
  public Snapshot snapshot() {
    live.checkOpen();
    Map<String, TreeMap<byte[], byte[]>> copy = new LinkedHashMap<>();
    lock.readLock().lock();
    try {
      maps.forEach((name, map) -> copy.put(name, new TreeMap<>(map)));
    } finally {
      lock.readLock().unlock();
    }
    return new FrozenSnapshot(copy);
  }

  @Override
  public void reportWriteFailure(Throwable cause) {
    live.checkOpen();
    FamilyCatalog.checkCause(cause);
    failures.incrementAndGet();
  }

  @Override
  public byte[] get(String family, byte[] key) {
    return live.get(family, key);
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    return live.multiGet(family, keys);
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    return live.scan(family, lo, hi, direction);
  }

  @Override
  public long counter(String family, byte[] key) {
    return live.counter(family, key);
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public List<FamilySpec> families() {
    return catalog.specs();
  }

  @Override
  public Path directory() {
    return claim.directory();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      lock.writeLock().lock();
      try {
        log.close();
      } finally {
        lock.writeLock().unlock();
        claim.close();
      }
    }
  }

  /** A snapshot: its own copy of the maps, closed by its close, the store's, or a reported failure. */
  private final class FrozenSnapshot implements Snapshot {
    private final AtomicBoolean snapshotClosed = new AtomicBoolean();
    private final View view;

    FrozenSnapshot(Map<String, TreeMap<byte[], byte[]>> copy) {
      int failuresAtOpen = failures.get();
      this.view = new View(copy, false,
          () -> snapshotClosed.get() || closed.get() || failures.get() != failuresAtOpen, "snapshot of " + directory());
    }

    @Override
    public byte[] get(String family, byte[] key) {
      return view.get(family, key);
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      return view.multiGet(family, keys);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      return view.scan(family, lo, hi, direction);
    }

    @Override
    public long counter(String family, byte[] key) {
      return view.counter(family, key);
    }

    @Override
    public void close() {
      snapshotClosed.set(true);
    }
  }

  /** The reads over some maps: the live ones under the read lock, or a snapshot's own copy. */
  private final class View implements ReadView {
    private final Map<String, TreeMap<byte[], byte[]>> views;
    private final boolean locked;
    private final BooleanSupplier isClosed;
    private final String what;

    View(Map<String, TreeMap<byte[], byte[]>> views, boolean locked, BooleanSupplier isClosed, String what) {
      this.views = views;
      this.locked = locked;
      this.isClosed = isClosed;
      this.what = what;
    }

    void checkOpen() {
      if (isClosed.getAsBoolean()) {
        throw new StoreClosedException("sample-log " + what + " is closed");
      }
    }

    @Override
    public byte[] get(String family, byte[] key) {
      checkOpen();
      catalog.require(family);
      catalog.checkKey(family, key);
      return read(() -> copy(views.get(family).get(key)));
    }

    @Override
    public List<byte[]> multiGet(String family, List<byte[]> keys) {
      checkOpen();
      catalog.require(family);
      catalog.checkKeys(family, keys);
      return read(() -> {
        TreeMap<byte[], byte[]> map = views.get(family);
        List<byte[]> values = new ArrayList<>(keys.size());
        keys.forEach(k -> values.add(copy(map.get(k))));
        return values;
      });
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      checkOpen();
      catalog.checkScan(family, lo, hi, direction);
      List<Entry> entries = read(() -> {
        TreeMap<byte[], byte[]> map = views.get(family);
        NavigableMap<byte[], byte[]> range = hi == null ? map.tailMap(lo, true) : map.subMap(lo, true, hi, false);
        List<Entry> copied = new ArrayList<>(range.size());
        (direction == Direction.REVERSE ? range.descendingMap() : range)
            .forEach((k, v) -> copied.add(new Entry(k.clone(), v.clone())));
        return copied;
      });
      return new CopiedScan(entries.iterator(), failures.get());
    }

    @Override
    public long counter(String family, byte[] key) {
      checkOpen();
      catalog.requireCounters(family);
      byte[] value = get(family, key);
      return value == null ? 0 : Int64Add.decode(family, key, value);
    }

    private <T> T read(java.util.function.Supplier<T> reader) {
      if (!locked) {
        return reader.get();
      }
      lock.readLock().lock();
      try {
        return reader.get();
      } finally {
        lock.readLock().unlock();
      }
    }

    private static byte[] copy(byte[] value) {
      return value == null ? null : value.clone();
    }

    /** A scan over its range as copied at open; closed by its close, the view's, or a reported failure. */
    private final class CopiedScan implements Scan {
      private final Iterator<Entry> entries;
      private final int failuresAtOpen;
      private volatile boolean scanClosed;

      CopiedScan(Iterator<Entry> entries, int failuresAtOpen) {
        this.entries = entries;
        this.failuresAtOpen = failuresAtOpen;
      }

      @Override
      public boolean hasNext() {
        if (scanClosed || failures.get() != failuresAtOpen) {
          throw new StoreClosedException("a scan of sample-log " + what + " is closed");
        }
        checkOpen();
        return entries.hasNext();
      }

      @Override
      public Entry next() {
        if (!hasNext()) {
          throw new NoSuchElementException("the scan is at the end of its range");
        }
        return entries.next();
      }

      @Override
      public void close() {
        scanClosed = true;
      }
    }
  }
}
