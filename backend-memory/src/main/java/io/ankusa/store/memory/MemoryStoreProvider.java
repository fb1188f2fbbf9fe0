package io.ankusa.store.memory;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.forwarding.ReadOnlyStore;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code memory} backend. Step 1 of writing a backend: a provider with a name, registered in
 * {@code META-INF/services/io.ankusa.store.spi.StoreProvider}.
 *
 * <p>A memory store lives in the JVM, not on disk: the directory is only its name. Closing it and
 * opening the same directory again in the same JVM gives back the same data, which is how this
 * backend keeps the "survives close and reopen" promise; it does not survive the process (its
 * capabilities say so, and the suite skips the process-kill properties with that reason). It writes
 * no file, so it claims no directory: the directory need not exist, and {@link
 * io.ankusa.store.spi.Capabilities#filesInDirectory()} is false.
 *
 * <p>The backend has no options: any {@code memory.*} property is refused with {@link
 * io.ankusa.store.spi.StoreArgumentException}. A {@link StoreOptions#readOnly() read-only} open
 * gives the existing store behind a {@link ReadOnlyStore}, which refuses every write.
 */
public final class MemoryStoreProvider implements StoreProvider {
  /** Every memory store opened in this JVM, by absolute directory; see {@link #discard(Path)}. */
  private static final Map<Path, MemoryData> STORES = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    FamilyCatalog.checkOpenArguments(dir, options, families);
    options.refuseUnknown(name(), List.of());
    FamilyCatalog catalog =
        new FamilyCatalog(
            families,
            MemoryStore.CAPABILITIES.maxKeyBytes(),
            MemoryStore.CAPABILITIES.maxValueBytes());
    Path key = dir.toAbsolutePath().normalize();
    MemoryData data = STORES.get(key);
    if (data == null) {
      if (!options.createIfMissing()) {
        throw new StoreFormatException(
            "no memory store named " + key + " in this JVM, and createIfMissing is false");
      }
      data = STORES.computeIfAbsent(key, k -> new MemoryData());
    }
    if (!data.acquire()) {
      throw new StoreException(
          "memory store " + key + " is already open in this JVM; close it before opening it again");
    }
    try {
      data.attach(key, catalog.specs(), options.createIfMissing());
      MemoryStore store = new MemoryStore(key, data, catalog);
      return options.readOnly() ? new ReadOnlyStore(store) : store;
    } catch (RuntimeException e) {
      data.release();
      throw e;
    }
  }

  /** Whether this JVM holds a memory store named {@code dir} (open or not). */
  public static boolean holds(Path dir) {
    return STORES.containsKey(dir.toAbsolutePath().normalize());
  }

  /** Forgets the memory store named {@code dir}, freeing its data. REQUIRES: it is not open. */
  public static void discard(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    MemoryData data = STORES.get(key);
    if (data != null && data.acquire()) {
      STORES.remove(key);
    } else if (data != null) {
      throw new StoreException("memory store " + key + " is open; close it before discarding it");
    }
  }

  /** Checks the families an open asks for against those the data already has. */
  static void checkFamilies(Path dir, Map<String, FamilySpec> existing, List<FamilySpec> asked) {
    for (String name : existing.keySet()) {
      if (asked.stream().noneMatch(f -> f.name().equals(name))) {
        throw new StoreFormatException(
            "store "
                + dir
                + " holds family '"
                + name
                + "' that the caller did not list "
                + asked.stream().map(FamilySpec::name).toList()
                + ": it was written by a newer release; open it with that release");
      }
    }
    for (FamilySpec f : asked) {
      FamilySpec had = existing.get(f.name());
      if (had != null && had.counters() != f.counters()) {
        throw new StoreFormatException(
            "store "
                + dir
                + ": family '"
                + f.name()
                + "' was created with counters="
                + had.counters()
                + " but is opened with counters="
                + f.counters());
      }
    }
  }
}
