package io.ankusa.store.conformance.queue;

import io.ankusa.store.queue.internal.runtime.LoopPacer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LoopPacer} that holds every loop of a {@link
 * io.ankusa.store.queue.internal.runtime.QueueRuntime} at the end of each lap (a lap: steps until
 * one finds no work) until the case lets it run one more: {@link #lap}. So a runtime case knows
 * exactly what each loop has done, and never waits on the wall clock. A loop the runtime stops (a
 * close, or another loop's failure) is let go at once.
 *
 * <p>Each loop runs its first lap as the runtime starts; {@link #lap} waits for it first.
 * Thread-safe: one monitor.
 */
final class SteppedLoops implements LoopPacer {
  /** Longest wait for a lap; a loop that never ends its lap fails the case, not the build. */
  private static final long WAIT_MS =
      TimeUnit.SECONDS.toMillis(LayoutAssertions.THREAD_WAIT_SECONDS);

  private final Map<String, Long> lapsEnded = new HashMap<>();
  private final Map<String, Integer> permits = new HashMap<>();
  private final Set<String> woken = new HashSet<>();

  @Override
  public synchronized void idle(String loop, long idleMs) {
    lapsEnded.merge(loop, 1L, Long::sum);
    notifyAll();
    boolean interrupted = false;
    while (permits.getOrDefault(loop, 0) == 0 && !woken.contains(loop)) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (!woken.contains(loop)) {
      permits.merge(loop, -1, Integer::sum);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public synchronized void wake(String loop, Thread thread) {
    woken.add(loop);
    notifyAll();
  }

  /** Laps {@code loop} has ended so far. */
  synchronized long lapsEnded(String loop) {
    return lapsEnded.getOrDefault(loop, 0L);
  }

  /** Whether the runtime has asked {@code loop} to stop. */
  synchronized boolean stopped(String loop) {
    return woken.contains(loop);
  }

  /** Waits until {@code loop} ended its first lap (or was stopped). */
  synchronized void awaitFirstLap(String loop) {
    awaitLaps(loop, 1);
  }

  /**
   * Lets {@code loop} run one more lap and waits until it ended (or the runtime stopped the loop,
   * e.g. because a step failed). Returns how many steps' worth of laps have ended in all.
   */
  synchronized long lap(String loop) {
    awaitLaps(loop, 1);
    long target = lapsEnded(loop) + 1;
    permits.merge(loop, 1, Integer::sum);
    notifyAll();
    awaitLaps(loop, target);
    return lapsEnded(loop);
  }

  private void awaitLaps(String loop, long laps) {
    long deadline = System.currentTimeMillis() + WAIT_MS;
    while (lapsEnded(loop) < laps && !woken.contains(loop)) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        throw new AssertionError(
            "the runtime's "
                + loop
                + " loop did not end lap "
                + laps
                + " within "
                + LayoutAssertions.THREAD_WAIT_SECONDS
                + " s: it never found itself without work");
      }
      try {
        wait(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for the " + loop + " loop", e);
      }
    }
  }
}
