package io.ankusa.store.lmdb;

import io.ankusa.store.spi.StoreClosedException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The scans and snapshots of one store that hold an LMDB read transaction across calls, and the
 * gate that keeps new ones out while the store remaps (grows) or reopens its environment.
 *
 * <p>Why it exists: {@code mdb_env_set_mapsize} unmaps and maps the data file again, so LMDB
 * requires that no transaction of the process be active while it runs (cursors hold pointers into
 * the old mapping). Short reads are kept out by the store's read-write lock; long-lived readers,
 * whose transactions outlive any lock a thread could hold, are counted here. A grower {@linkplain
 * #awaitNoneOpen waits} until none is open and blocks new ones; a reopen or close {@linkplain
 * #blockAndList blocks} new ones and closes those that are open.
 *
 * <p>Thread-safe; every method synchronizes on this object. Never call into a reader while holding
 * this monitor (readers take their own monitor and the store's lock first).
 */
final class LongLivedReaders {
  /** A scan or snapshot that holds a read transaction until it is closed. */
  interface Reader {
    /**
     * Releases the reader's transaction; later calls on it throw StoreClosedException with {@code
     * reason}.
     */
    void closeBecause(String reason);
  }

  private final Set<Reader> open = new LinkedHashSet<>();
  private final String storeName;
  private int blockers;
  private boolean shutDown;

  LongLivedReaders(String storeName) {
    this.storeName = storeName;
  }

  /**
   * Registers a reader about to begin its transaction, waiting while the store grows or reopens.
   *
   * @throws StoreClosedException if the store is closing or closed
   */
  synchronized void register(Reader reader) {
    boolean interrupted = false;
    while (blockers > 0 && !shutDown) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (shutDown) {
      throw new StoreClosedException(storeName + " is closed; open it again");
    }
    open.add(reader);
  }

  /** Forgets a reader whose transaction has ended. Idempotent. */
  synchronized void deregister(Reader reader) {
    if (open.remove(reader)) {
      notifyAll();
    }
  }

  synchronized int openCount() {
    return open.size();
  }

  /** Whether a grower, reopen or close is keeping new readers out right now (for tests). */
  synchronized boolean blocking() {
    return blockers > 0 || shutDown;
  }

  /**
   * Waits until no reader is open, then blocks new ones until {@link #unblock()}. REQUIRES: the
   * caller calls {@link #unblock()} exactly once when this returns true.
   *
   * @return false, blocking nothing, if readers were still open after {@code waitMillis}
   */
  synchronized boolean awaitNoneOpen(long waitMillis) {
    blockers++; // keep newcomers out while waiting, or the wait may never end
    long deadline = System.nanoTime() + waitMillis * 1_000_000L;
    boolean interrupted = false;
    try {
      while (!open.isEmpty() && !shutDown) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          wait(Math.max(1, left / 1_000_000L));
        } catch (InterruptedException e) {
          interrupted = true;
          break;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (!open.isEmpty() || shutDown) {
      unblock();
      return false;
    }
    return true;
  }

  /**
   * Blocks new readers until {@link #unblock()} (or for good, with {@code shutDown}) and returns
   * those open now, for the caller to close outside this monitor.
   */
  synchronized List<Reader> blockAndList(boolean shutDown) {
    if (shutDown) {
      this.shutDown = true;
      notifyAll();
    } else {
      blockers++;
    }
    return new ArrayList<>(open);
  }

  synchronized void unblock() {
    blockers--;
    notifyAll();
  }
}
