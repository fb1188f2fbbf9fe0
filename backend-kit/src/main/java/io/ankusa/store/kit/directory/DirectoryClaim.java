package io.ankusa.store.kit.directory;

import io.ankusa.store.kit.forwarding.ReadOnlyStore;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a disk backend's provider holds on a store directory while the store is open: the {@link
 * DirectoryLock} and what the directory held ({@link StoreMarker.Content}). One shared piece, so
 * every backend locks, refuses and marks directories the same way:
 *
 * <ol>
 *   <li>a missing directory is created only for a read-write open with {@code createIfMissing};
 *   <li>{@link StoreMarker#inspect} refuses, before anything is written, a directory holding
 *       another backend's store, a marker file that is not one, or files without a marker that the
 *       backend does not recognise as its own store made before markers existed;
 *   <li>an empty directory without {@code createIfMissing} (or read-only) is refused;
 *   <li>the directory is locked ({@link DirectoryLock}) and inspected again under the lock;
 *   <li>an empty directory gets the marker at once (before the engine creates its files), so a
 *       crash half-way through creation leaves a directory that is still this backend's.
 * </ol>
 *
 * <p>A store without a marker (made before markers existed) gets one from {@link #markOpened()},
 * which the backend calls once its engine has opened read-write; a read-only open never writes it.
 *
 * <p>Ownership: the store that opens on a claim owns it and closes it after its engine; a provider
 * whose open fails closes it. Not thread-safe.
 */
public final class DirectoryClaim implements AutoCloseable {
  private final Path dir;
  private final StoreMarker marker;
  private final boolean readOnly;
  private final DirectoryLock lock;
  private StoreMarker.Content content;

  private DirectoryClaim(
      Path dir,
      StoreMarker marker,
      boolean readOnly,
      DirectoryLock lock,
      StoreMarker.Content content) {
    this.dir = dir;
    this.marker = marker;
    this.readOnly = readOnly;
    this.lock = lock;
    this.content = content;
  }

  /**
   * Claims {@code dir} for a store of {@code marker}'s backend, as {@code options} ask.
   *
   * @param unmarkedStore recognises, by the engine's own files, a store of this backend made before
   *     markers existed (see {@link StoreMarker#inspect}); it must only read
   * @throws StoreFormatException if the directory holds no store of this backend and one may not,
   *     or cannot, be created there; nothing was created or changed
   * @throws StoreException if the directory is open elsewhere (this JVM or another process) or
   *     cannot be read or created
   */
  public static DirectoryClaim open(
      Path dir, StoreOptions options, StoreMarker marker, Predicate<Path> unmarkedStore) {
    if (dir == null || options == null || marker == null || unmarkedStore == null) {
      throw new StoreArgumentException(
          "null argument opening a store: dir=" + dir + ", options=" + options);
    }
    Path abs = dir.toAbsolutePath().normalize();
    boolean create = options.createIfMissing() && !options.readOnly();
    if (!Files.exists(abs)) {
      if (!create) {
        throw new StoreFormatException(
            "no '"
                + marker.backend()
                + "' store in "
                + abs
                + ": the directory does not"
                + " exist"
                + (options.readOnly()
                    ? " (a read-only open creates nothing)"
                    : " and createIfMissing is false")
                + "; check the path");
      }
      try {
        Files.createDirectories(abs);
      } catch (IOException e) {
        throw new StoreException("cannot create the store directory " + abs + ": " + e, e);
      }
      if (abs.getParent() != null) {
        StoreMarker.syncDirectory(
            abs.getParent()); // the new directory's entry, or a power cut may take it
      }
    } else if (!Files.isDirectory(abs)) {
      throw new StoreFormatException(
          abs
              + " is not a directory, so it holds no store; nothing was changed:"
              + " check the path");
    }
    StoreMarker.Content before = StoreMarker.inspect(abs, marker, unmarkedStore);
    if (before == StoreMarker.Content.EMPTY && !create) {
      throw new StoreFormatException(
          "no '"
              + marker.backend()
              + "' store in "
              + abs
              + ": the directory is empty"
              + (options.readOnly()
                  ? " (a read-only open creates nothing)"
                  : " and createIfMissing is false")
              + "; check the path, or open it with createIfMissing to create a store");
    }
    DirectoryLock lock = DirectoryLock.acquire(abs, marker.backend(), options.readOnly());
    try {
      // Again under the lock: another process may have created or changed the store meanwhile.
      StoreMarker.Content content = StoreMarker.inspect(abs, marker, unmarkedStore);
      if (content == StoreMarker.Content.EMPTY) {
        if (!create) {
          throw new StoreFormatException(
              "no '" + marker.backend() + "' store in " + abs + ": the directory is empty");
        }
        marker.write(abs);
        content = StoreMarker.Content.MARKED;
      }
      return new DirectoryClaim(abs, marker, options.readOnly(), lock, content);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * The whole open of a disk backend's store around its engine: claims {@code dir} ({@link #open}),
   * opens the store on the claim with {@code openOnClaim} (which owns the claim from then on and
   * releases it when the store closes), marks a store made before markers at its first read-write
   * open ({@link #markOpened()}), and for a read-only open returns the store behind {@link
   * ReadOnlyStore}. If anything fails, the claim (or the store) is closed and the failure thrown.
   */
  public static Store openStore(
      Path dir,
      StoreOptions options,
      StoreMarker marker,
      Predicate<Path> unmarkedStore,
      Function<DirectoryClaim, Store> openOnClaim) {
    DirectoryClaim claim = open(dir, options, marker, unmarkedStore);
    Store store;
    try {
      store = openOnClaim.apply(claim);
    } catch (RuntimeException e) {
      claim.close();
      throw e;
    }
    try {
      claim.markOpened();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return claim.readOnly() ? new ReadOnlyStore(store) : store;
  }

  /** The directory as given, absolute and normalised. */
  public Path directory() {
    return dir;
  }

  /** The directory's real path (symlinks resolved), which the lock is keyed by. */
  public Path realDirectory() {
    return lock.realDirectory();
  }

  /**
   * What the directory held once claimed: {@code MARKED} (perhaps just now) or {@code
   * UNMARKED_STORE}.
   */
  public StoreMarker.Content content() {
    return content;
  }

  public boolean readOnly() {
    return readOnly;
  }

  /**
   * Called by the backend once its engine opened: on a read-write open of a store made before
   * markers existed, writes the marker. Does nothing otherwise.
   *
   * @throws StoreException if the marker cannot be written
   */
  public void markOpened() {
    if (!readOnly && content == StoreMarker.Content.UNMARKED_STORE) {
      marker.write(dir);
      content = StoreMarker.Content.MARKED;
    }
  }

  /**
   * Makes the entries of the store directory durable: what the engine created there (its data and
   * lock files) outlives a power cut only once the directory itself is synced. A backend whose
   * engine does not sync its directory after creating its files (LMDB) calls this once the engine
   * opened read-write. A file system that refuses to sync a directory makes its entries as durable
   * as it can.
   */
  public void syncDirectory() {
    StoreMarker.syncDirectory(dir);
  }

  /**
   * Replaces the file {@code name} in the claimed directory with {@code text}, atomically and
   * durably (a temporary file, fsync, rename, fsync of the directory), for a backend's own record
   * beside the marker. REQUIRES: a read-write claim.
   *
   * @throws IOException if it cannot be written; the old file, if any, is then still whole
   */
  public void replaceFileDurably(String name, String text) throws IOException {
    StoreMarker.replaceDurably(dir, name, text);
  }

  /** Releases the lock. Idempotent. */
  @Override
  public void close() {
    lock.close();
  }

  @Override
  public String toString() {
    return "DirectoryClaim["
        + dir
        + ", "
        + marker.backend()
        + ", "
        + content
        + (readOnly ? ", read-only" : "")
        + "]";
  }
}
