package io.ankusa.store.conformance;

import java.util.concurrent.locks.LockSupport;

/**
 * Forces the interleaving "a close starts while a scan is reading": a backend's test seam runs
 * {@link #startAndExpectItToWait} while its scan holds the guard of a running chunk, and the close
 * must then wait (parked on a lock or blocked on a monitor) rather than free the cursor under the
 * scan. How a backend test checks that closing the store, a snapshot or the scan itself never frees
 * native memory a running scan reads.
 */
public final class CloseRace {
  private static final long PATIENCE_NANOS = 30_000_000_000L;

  private CloseRace() {}

  /**
   * Starts {@code close} on a new thread and returns the thread once it waits for a lock or
   * monitor.
   *
   * @throws AssertionError if the close finished (or failed) instead of waiting: the caller's guard
   *     did not hold it off, and the caller must not touch its cursor again
   */
  public static Thread startAndExpectItToWait(String what, Runnable close) {
    return startAndAwaitBlocked(
        what,
        close,
        " finished while a scan was reading a chunk: it did not wait for"
            + " the scan's guard, so it could free the cursor under the scan");
  }

  /**
   * Starts {@code action} on a new thread and returns the thread once it waits for a lock or
   * monitor: how a test queues one call behind a guard another thread holds, to force an
   * interleaving.
   *
   * @throws AssertionError if the action finished (or failed) instead of waiting
   */
  public static Thread startAndExpectItToBlock(String what, Runnable action) {
    return startAndAwaitBlocked(
        what, action, " finished instead of waiting for the guard another thread holds");
  }

  private static Thread startAndAwaitBlocked(String what, Runnable action, String finishedInstead) {
    Thread thread = new Thread(action, "racing-a-guard");
    thread.setDaemon(true);
    thread.start();
    long deadline = System.nanoTime() + PATIENCE_NANOS;
    while (true) {
      Thread.State state = thread.getState();
      if (state == Thread.State.BLOCKED
          || (state == Thread.State.WAITING && LockSupport.getBlocker(thread) != null)) {
        return thread;
      }
      if (state == Thread.State.TERMINATED) {
        throw new AssertionError(what + finishedInstead);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " neither waited for the guard nor finished within 30 s");
      }
      Thread.onSpinWait();
    }
  }
}
