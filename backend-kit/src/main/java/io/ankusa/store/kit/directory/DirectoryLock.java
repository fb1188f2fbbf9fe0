package io.ankusa.store.kit.directory;

import io.ankusa.store.spi.StoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One open store's lock on its directory: one open store per directory, in this JVM and across
 * processes, whatever path (a symlink, {@code ..}, a relative path) names the directory.
 *
 * <p>Two layers. In the JVM, one process-wide registry shared by every backend, keyed by the
 * directory's real path ({@link Path#toRealPath}): a second open of the same directory is refused
 * before any file is touched. Across processes, an OS lock on {@value #FILE}: exclusive for a
 * read-write open (the file is created if missing), shared for a read-only one (taken only when the
 * file exists, which it does once any read-write open of this release has run; a read-only open
 * creates nothing). The registry is also what keeps the OS lock safe: POSIX drops every lock a
 * process holds on a file when <em>any</em> descriptor of that file is closed, so a refused second
 * open must never open the lock file at all — and with the registry it never does.
 *
 * <p>The OS releases the lock when the process dies, so a killed process never leaves a store
 * locked. Thread-safe.
 */
public final class DirectoryLock implements AutoCloseable {
  /** The lock file in a store directory. Empty; never read. */
  public static final String FILE = "ankusa-store.lock";

  /** Every directory locked by this JVM, by real path. */
  private static final Map<Path, DirectoryLock> HELD = new ConcurrentHashMap<>();

  /**
   * Channels on a lock file this JVM already locks through another path the registry could not tell
   * apart (a bind mount): kept open for the JVM's life, since closing one would drop that lock.
   */
  private static final List<FileChannel> KEPT_OPEN = new CopyOnWriteArrayList<>();

  private final Path realDir;
  private final Path openedAs;
  private final String backend;
  private final boolean readOnly;
  private FileChannel channel;
  private FileLock lock;
  private boolean released;

  private DirectoryLock(Path realDir, Path openedAs, String backend, boolean readOnly) {
    this.realDir = realDir;
    this.openedAs = openedAs;
    this.backend = backend;
    this.readOnly = readOnly;
  }

  /**
   * Locks the existing directory {@code dir} for the {@code backend} backend. REQUIRES: {@code dir}
   * exists.
   *
   * @throws StoreException if the directory is open in this JVM (under any path) or locked by
   *     another process; nothing was created or changed
   */
  public static DirectoryLock acquire(Path dir, String backend, boolean readOnly) {
    Path real;
    try {
      real = dir.toRealPath();
    } catch (IOException e) {
      throw new StoreException(
          "cannot resolve the store directory "
              + dir
              + " to its real path: "
              + e
              + "; check that it exists and that you may read it",
          e);
    }
    DirectoryLock candidate =
        new DirectoryLock(real, dir.toAbsolutePath().normalize(), backend, readOnly);
    DirectoryLock holder = HELD.putIfAbsent(real, candidate);
    if (holder != null) {
      throw new StoreException(
          "the store in "
              + dir
              + (real.equals(candidate.openedAs) ? "" : " (really " + real + ")")
              + " is locked: it is already open in this JVM, opened as "
              + holder.openedAs
              + " by the '"
              + holder.backend
              + "' backend"
              + (holder.readOnly ? " read-only" : "")
              + "; close that store before opening it again (one open store"
              + " per directory: a symlink or another spelling of the path is the same directory)");
    }
    try {
      candidate.lockFile();
      return candidate;
    } catch (RuntimeException e) {
      HELD.remove(real, candidate);
      throw e;
    }
  }

  private void lockFile() {
    Path file = realDir.resolve(FILE);
    if (readOnly && !Files.exists(file)) {
      return; // no read-write open of this release ever ran here, and a read-only open creates
      // nothing
    }
    try {
      channel =
          readOnly
              ? FileChannel.open(file, StandardOpenOption.READ)
              : FileChannel.open(
                  file,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new StoreException(
          "cannot open the lock file " + file + ": " + e + "; check the directory's permissions",
          e);
    }
    try {
      lock = channel.tryLock(0, Long.MAX_VALUE, readOnly);
    } catch (OverlappingFileLockException e) {
      KEPT_OPEN.add(
          channel); // closing it would release the lock this JVM holds through the other path
      channel = null;
      throw new StoreException(
          "the store in "
              + openedAs
              + " is already open in this JVM under a path that"
              + " resolves elsewhere (a bind mount?); close that store before opening it again",
          e);
    } catch (IOException e) {
      closeChannel();
      throw new StoreException("cannot lock " + file + ": " + e, e);
    }
    if (lock == null) {
      // Safe to close: the registry guarantees no other descriptor of this JVM holds a lock on the
      // file.
      closeChannel();
      throw new StoreException(
          "the store in "
              + openedAs
              + " is locked: it is open "
              + (readOnly ? "read-write " : "")
              + "in another process (it holds "
              + file
              + "); close it there first");
    }
  }

  /** The directory's real path. */
  public Path realDirectory() {
    return realDir;
  }

  /** Releases the OS lock and the registry entry. Idempotent. */
  @Override
  public synchronized void close() {
    if (released) {
      return;
    }
    released = true;
    try {
      if (lock != null) {
        lock.release();
      }
    } catch (IOException e) {
      // closing the channel below releases it too
    } finally {
      closeChannel();
      HELD.remove(realDir, this);
    }
  }

  private void closeChannel() {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // the OS releases the lock with the descriptor
    }
    channel = null;
  }

  @Override
  public String toString() {
    return "DirectoryLock[" + realDir + (readOnly ? ", read-only" : "") + "]";
  }
}
