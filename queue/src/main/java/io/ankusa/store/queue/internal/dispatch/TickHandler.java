package io.ankusa.store.queue.internal.dispatch;

import io.ankusa.store.queue.internal.DeliveryQueue;

/**
 * What a {@link io.ankusa.store.queue.internal.runtime.QueueRuntime}'s dispatcher does with the
 * rows each tick claimed: plays the sinks and settles every row — {@link
 * io.ankusa.store.queue.internal.Deliveries#delivered}, {@link
 * io.ankusa.store.queue.internal.Deliveries#retry} or {@link
 * io.ankusa.store.queue.internal.Deliveries#deadLetter}, written through {@link
 * DeliveryQueue#write}. A row the handler leaves inflight stays inflight until the next start,
 * whose recovery makes it due again (at least once).
 *
 * <p>Called on the dispatcher thread only, once per tick, with the tick's report (its claimed rows
 * may be empty, so a handler can also do periodic work such as replaying part of the DLQ). Throwing
 * stops the runtime: every component stops in order and {@link
 * io.ankusa.store.queue.internal.runtime.QueueRuntime#close()} rethrows the failure.
 */
@FunctionalInterface
public interface TickHandler {
  /**
   * Settles the rows {@code tick} claimed at time {@code now} (epoch ms).
   *
   * @throws Exception to stop the runtime
   */
  void handle(DeliveryQueue queue, Dispatcher.TickReport tick, long now) throws Exception;

  /**
   * The dispatcher loop stopped (the runtime is closing): its last chance to write what it holds,
   * on the closing thread, before the writer closes. The default does nothing.
   */
  default void stopped(DeliveryQueue queue, long now) {}
}
