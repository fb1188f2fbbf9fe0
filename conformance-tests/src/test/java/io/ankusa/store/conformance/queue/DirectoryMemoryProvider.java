package io.ankusa.store.conformance.queue;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.DirectoryLock;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Memory stores that claim a real directory the way the disk backends do, through the backend kit's
 * {@link DirectoryClaim} (the lock keyed by the real path, the store marker, refusal of foreign and
 * non-empty directories): the honest control for the directory cases of the engine suite, and, each
 * broken one way, the provider-level mutants a store wrapper cannot express. Registered (test
 * resources only) so the lock case's child process finds them by name. The data lives in the JVM
 * under the directory's real path; the marker and lock files live in the directory.
 */
public class DirectoryMemoryProvider implements StoreProvider {
  private static final MemoryStoreProvider MEMORY = new MemoryStoreProvider();

  @Override
  public String name() {
    return "memory-in-directory";
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    checkArguments(dir, options, families);
    options.refuseUnknown(name(), List.of());
    DirectoryClaim claim =
        DirectoryClaim.open(dir, options, new StoreMarker(name(), 1), d -> false);
    return onClaimedDirectory(claim.realDirectory(), options, families, claim);
  }

  /**
   * The memory store named {@code key}, releasing {@code release} when it closes (or fails to
   * open).
   */
  static Store onClaimedDirectory(
      Path key, StoreOptions options, List<FamilySpec> families, AutoCloseable release) {
    Store memory;
    try {
      // The claim checked the directory: a store is created where the directory held none, and one
      // whose data this JVM no longer holds (a child process) starts empty; families follow the
      // options.
      boolean fresh = !MemoryStoreProvider.holds(key);
      memory =
          MEMORY.open(
              key,
              options.createIfMissing(!options.readOnly() && (fresh || options.createIfMissing())),
              families);
    } catch (RuntimeException e) {
      closeQuietly(release);
      throw e;
    }
    return new ForwardingStore(memory) {
      @Override
      public void close() {
        try {
          delegate.close();
        } finally {
          closeQuietly(release);
        }
      }
    };
  }

  /**
   * What the disk backends check before they touch the directory: the arguments and the family
   * list.
   */
  static void checkArguments(Path dir, StoreOptions options, List<FamilySpec> families) {
    FamilyCatalog.checkOpenArguments(dir, options, families);
    new FamilyCatalog(families, Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Memory's capabilities, plus {@code filesInDirectory}. */
  static Capabilities capabilities(Capabilities memory) {
    return memory.toBuilder().filesInDirectory(true).build();
  }

  /**
   * Mutant: the lock is keyed by the path as given ({@code toAbsolutePath().normalize()}), in this
   * JVM only, as the RocksDB provider once did: a symlink opens the store a second time.
   */
  public static final class SymlinkBlindLock extends DirectoryMemoryProvider {
    private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

    @Override
    public String name() {
      return "memory-in-directory-symlink-blind";
    }

    @Override
    public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
      checkArguments(dir, options, families);
      options.refuseUnknown(name(), List.of());
      Path key = dir.toAbsolutePath().normalize();
      if (!Files.isDirectory(key) && options.createIfMissing() && !options.readOnly()) {
        createDirectories(key);
      }
      StoreMarker marker = new StoreMarker(name(), 1);
      if (StoreMarker.inspect(key, marker, d -> false) == StoreMarker.Content.EMPTY
          && !options.readOnly()) {
        marker.write(key);
      }
      if (!OPEN.add(key)) {
        throw new StoreException("the store in " + key + " is already open in this JVM");
      }
      return onClaimedDirectory(key, options, families, () -> OPEN.remove(key));
    }
  }

  /**
   * Mutant: adopts any directory — it locks it and writes its marker over whatever is there,
   * without looking: a store is created among another backend's files.
   */
  public static final class Adopting extends DirectoryMemoryProvider {
    @Override
    public String name() {
      return "memory-in-directory-adopting";
    }

    @Override
    public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
      checkArguments(dir, options, families);
      options.refuseUnknown(name(), List.of());
      createDirectories(dir);
      DirectoryLock lock = DirectoryLock.acquire(dir, name(), options.readOnly());
      if (!options.readOnly()) {
        new StoreMarker(name(), 1).write(dir);
      }
      return onClaimedDirectory(
          lock.realDirectory(), options.createIfMissing(true), families, lock);
    }
  }

  private static void createDirectories(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
