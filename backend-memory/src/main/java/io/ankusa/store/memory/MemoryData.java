package io.ankusa.store.memory;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreFormatException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The state of one memory store, kept across close and reopen within the JVM: one sorted map per
 * family, in unsigned byte order, guarded by one read-write lock (writers exclusive, readers
 * shared).
 */
final class MemoryData {
  final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

  /** Family name to its sorted map. Guarded by {@link #lock}. */
  final Map<String, TreeMap<byte[], byte[]>> families = new LinkedHashMap<>();

  /** Family name to the spec it was created with. Guarded by {@link #lock}. */
  final Map<String, FamilySpec> specs = new LinkedHashMap<>();

  private final AtomicBoolean open = new AtomicBoolean();

  /** Marks the data open; false if it already is (one open store per directory). */
  boolean acquire() {
    return open.compareAndSet(false, true);
  }

  void release() {
    open.set(false);
  }

  /** Checks the asked families against the existing ones and creates the missing ones. */
  void attach(Path dir, List<FamilySpec> asked, boolean create) {
    lock.writeLock().lock();
    try {
      MemoryStoreProvider.checkFamilies(dir, specs, asked);
      for (FamilySpec f : asked) {
        if (!specs.containsKey(f.name())) {
          if (!create && !specs.isEmpty()) {
            throw new StoreFormatException(
                "store " + dir + " has no family '" + f.name() + "' and createIfMissing is false");
          }
          specs.put(f.name(), f);
          families.put(f.name(), new TreeMap<>(Bytes.UNSIGNED));
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
  }
}
