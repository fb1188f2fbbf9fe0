package io.ankusa.store.memory;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Step 3 of writing a backend: the store. Writes take the write lock, so a batch is atomic to
 * readers and applies in order; merges read the current value and add under that same lock, so no
 * operand is lost. Everything here is the contract at its plainest: copy it, then replace the maps
 * with your engine.
 */
final class MemoryStore extends MemoryView implements Store {
  /**
   * The memory backend's limits: generous, but finite so the suite can test the refusal. No damage
   * detection: the store keeps no files, so there is nothing to damage, and the suite reports
   * {@code scanNeverEndsEarlyOnCorruption} as unverified for it.
   */
  static final Capabilities CAPABILITIES =
      Capabilities.builder()
          .concurrentWriters(true)
          .snapshots(true)
          .maxKeyBytes(64 * 1024)
          .maxValueBytes(64 << 20)
          .build();

  private final Path dir;
  private final MemoryData data;
  private final FamilyCatalog catalog;
  private final AtomicBoolean closed;

  /** reportWriteFailure calls so far: each closes the scans and snapshots opened before it. */
  private final AtomicInteger failures;

  MemoryStore(Path dir, MemoryData data, FamilyCatalog catalog) {
    this(dir, data, catalog, new AtomicBoolean(), new AtomicInteger());
  }

  private MemoryStore(
      Path dir,
      MemoryData data,
      FamilyCatalog catalog,
      AtomicBoolean closed,
      AtomicInteger failures) {
    super(
        catalog,
        data.families,
        data.lock.readLock(),
        closed::get,
        failures::get,
        "memory store " + dir,
        true);
    this.dir = dir;
    this.data = data;
    this.catalog = catalog;
    this.closed = closed;
    this.failures = failures;
  }

  @Override
  public void write(Batch batch, Durability durability) {
    checkOpen();
    catalog.validate(batch, durability); // refuse a bad batch whole, before anything is applied
    data.lock.writeLock().lock();
    try {
      checkOpen();
      freezeOpenScans(); // open scans keep the state they opened on
      batch.forEach(apply);
    } finally {
      data.lock.writeLock().unlock();
    }
  }

  /** One op on the maps. Keys and values are copied: the caller keeps ownership of its arrays. */
  private final OpHandler<RuntimeException> apply =
      new OpHandler<>() {
        @Override
        public void put(Op.Put p) {
          map(p).put(p.key().clone(), p.value().clone());
        }

        @Override
        public void delete(Op.Delete d) {
          map(d).remove(d.key());
        }

        @Override
        public void deleteRange(Op.DeleteRange r) {
          if (Bytes.compare(r.lo(), r.hi()) < 0) {
            map(r).subMap(r.lo(), true, r.hi(), false).clear();
          }
        }

        @Override
        public void merge(Op.Merge m) {
          TreeMap<byte[], byte[]> map = map(m);
          byte[] old = map.get(m.key());
          long current = old == null ? 0 : Int64Add.decode(m.family(), m.key(), old);
          map.put(m.key().clone(), Int64Add.encode(Int64Add.apply(current, m.delta())));
        }

        private TreeMap<byte[], byte[]> map(Op op) {
          return data.families.get(op.family());
        }
      };

  /** Nothing to sync: memory is "durable" until the JVM exits, and the capabilities say no more. */
  @Override
  public void syncWal() {
    checkOpen();
  }

  /** A snapshot is a copy of every map (values are shared: stored arrays are never changed). */
  @Override
  public Snapshot snapshot() {
    checkOpen();
    Map<String, TreeMap<byte[], byte[]>> copy = new LinkedHashMap<>();
    data.lock.readLock().lock();
    try {
      data.families.forEach((name, map) -> copy.put(name, new TreeMap<>(map)));
    } finally {
      data.lock.readLock().unlock();
    }
    return new MemorySnapshot(catalog, copy, closed, failures);
  }

  /**
   * A memory store never fails a write, so there is nothing to recover; as on every backend, the
   * scans and snapshots open on the store are closed (property {@code
   * reportWriteFailureClosesScansAndSnapshots}).
   */
  @Override
  public void reportWriteFailure(Throwable cause) {
    checkOpen();
    FamilyCatalog.checkCause(cause);
    failures.incrementAndGet();
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
    return dir;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      data.release();
    }
  }

  /** A frozen copy; closed when it or its store is closed. */
  private static final class MemorySnapshot extends MemoryView implements Snapshot {
    private final AtomicBoolean snapshotClosed;

    MemorySnapshot(
        FamilyCatalog catalog,
        Map<String, TreeMap<byte[], byte[]>> maps,
        AtomicBoolean storeClosed,
        AtomicInteger failures) {
      this(catalog, maps, storeClosed, failures, failures.get(), new AtomicBoolean());
    }

    private MemorySnapshot(
        FamilyCatalog catalog,
        Map<String, TreeMap<byte[], byte[]>> maps,
        AtomicBoolean storeClosed,
        AtomicInteger failures,
        int failuresAtOpen,
        AtomicBoolean snapshotClosed) {
      super(
          catalog,
          maps,
          NO_LOCK,
          () -> snapshotClosed.get() || storeClosed.get() || failures.get() != failuresAtOpen,
          () -> 0,
          "memory snapshot",
          false);
      this.snapshotClosed = snapshotClosed;
    }

    @Override
    public void close() {
      snapshotClosed.set(true);
    }
  }

  /** Snapshots own their maps, so their reads need no lock. */
  private static final Lock NO_LOCK =
      new ReentrantLock() {
        private static final long serialVersionUID = 1L;

        @Override
        public void lock() {}

        @Override
        public void unlock() {}
      };
}
