package io.ankusa.store.memory;

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
 * capabilities say so, and the suite skips the process-kill properties with that reason).
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
      data.attach(key, families, options.createIfMissing());
      return new MemoryStore(key, data, families);
    } catch (RuntimeException e) {
      data.release();
      throw e;
    }
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
            "store " + dir + " holds family '" + name + "' that the caller did not list "
                + asked.stream().map(FamilySpec::name).toList()
                + ": it was written by a newer release; open it with that release");
      }
    }
    for (FamilySpec f : asked) {
      FamilySpec had = existing.get(f.name());
      if (had != null && had.counters() != f.counters()) {
        throw new StoreFormatException(
            "store " + dir + ": family '" + f.name() + "' was created with counters="
                + had.counters() + " but is opened with counters=" + f.counters());
      }
    }
  }
}
