package io.ankusa.store.lmdb;

import io.ankusa.store.spi.StoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive OS file lock on {@value #FILE} in a store's directory: one open store per directory,
 * in this JVM and across processes. LMDB itself lets several processes share an environment, but this
 * backend's single-writer lock, map growth and reopen logic assume it is the only user. The OS drops
 * the lock when the process dies, so a killed process never leaves the store locked.
 */
final class DirectoryLock implements AutoCloseable {
  static final String FILE = "ankusa-lmdb.lock";
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * @throws StoreException if another open store, in this JVM or another process, holds the lock
   */
  static DirectoryLock acquire(Path dir) {
    FileChannel channel;
    try {
      channel = FileChannel.open(dir.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new StoreException("cannot create the lock file " + dir.resolve(FILE) + ": " + e.getMessage(), e);
    }
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new StoreException(
            "the LMDB store in " + dir + " is open in another process; close it there first");
      }
      return new DirectoryLock(channel, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      throw new StoreException(
          "the LMDB store in " + dir + " is already open in this JVM; close it before opening it again", e);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StoreException("cannot lock " + dir.resolve(FILE) + ": " + e.getMessage(), e);
    } catch (StoreException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // the channel close below releases it too
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // nothing useful to do: the OS releases the lock with the descriptor
    }
  }
}
