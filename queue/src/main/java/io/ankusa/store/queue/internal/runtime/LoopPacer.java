package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.queue.internal.ingest.SingleConsumerQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * How a {@link QueueRuntime} loop waits after a step that found no work, and how {@link
 * QueueRuntime#close()} ends that wait. A service uses {@link #PARK}, the pacing the runtime has
 * always had. A test passes its own pacer to {@link QueueRuntime#start(io.ankusa.store.spi.Store,
 * io.ankusa.store.queue.config.QueueConfig, RuntimeSettings,
 * io.ankusa.store.queue.internal.dispatch.TickHandler, io.ankusa.store.queue.archive.ArchiveSink,
 * java.util.function.LongSupplier, LoopPacer)} to hold every loop between laps and let it run one
 * lap at a time (the conformance suite's runtime cases do), so it never waits on the wall clock.
 *
 * <p>Loops are named {@code "dispatcher"}, {@code "archiver"} and {@code "reclaim"}. Thread-safe:
 * each loop calls {@link #idle} from its own thread; {@link #wake} comes from the closing thread
 * (or from a failing loop's thread).
 */
public interface LoopPacer {
  /**
   * Parks the loop's thread for its idle time ({@link RuntimeSettings}); {@link #wake} unparks it.
   */
  LoopPacer PARK =
      new LoopPacer() {
        @Override
        public void idle(String loop, long idleMs) {
          LockSupport.parkNanos(this, SingleConsumerQueue.millisToNanos(idleMs));
        }

        @Override
        public void wake(String loop, Thread thread) {
          LockSupport.unpark(thread);
        }
      };

  /**
   * Called on {@code loop}'s thread after a step that found no work, while the loop runs; returns
   * when the loop should take its next step. REQUIRES: returns at once once {@link #wake} was
   * called for {@code loop}, or the runtime's close waits for it.
   *
   * @param idleMs the loop's idle time from {@link RuntimeSettings}
   */
  void idle(String loop, long idleMs);

  /**
   * The runtime asked {@code loop} (running on {@code thread}) to stop: end its {@link #idle} now.
   */
  void wake(String loop, Thread thread);
}
