package io.ankusa.store.queue;

/**
 * One hook to deliver to one sink, as a {@link DeliveryHandler} or an {@link AsyncDeliveryHandler}
 * receives it: who sent it, where it goes, which attempt this is, and the payload. Answer it once,
 * with {@link #delivered()}, {@link #retry(long, String)} or {@link #deadLetter(String)}; a
 * delivery left unanswered stays in flight until the queue is next opened, whose recovery makes it
 * due again (delivery is at least once: a sink may see a hook twice, and the hook id says which).
 *
 * <p>Thread-safe. A synchronous handler answers before its {@code deliver} returns; an asynchronous
 * one from any thread, later. Every answer goes through the queue's transition guard, so an answer
 * to a delivery that another transition moved meanwhile (a purge, a tenant erase) is dropped, never
 * written blind.
 */
public interface Delivery {
  /** The tenant that owns the hook ({@code "default"} when it was ingested without one). */
  String tenantId();

  /** The provider the hook came from. */
  String sourceId();

  /** The provider's id of the hook: how a sink that sees it twice knows. */
  String hookId();

  /** The idempotency key it was ingested with, or null. */
  String idempotencyKey();

  /** The queue's sequence number of the hook: unique in the store, in commit order. */
  long seq();

  /** The sink to deliver to. */
  int sink();

  /**
   * Which attempt this is: 1 for the first, one more after each retry (and each dead-letter a
   * revive brought back). Read for the whole batch with one read of the store the first time any
   * delivery of the batch is asked.
   */
  long attempt();

  /** When the hook was received, epoch milliseconds. */
  long receivedAt();

  /** The hook's payload: a copy the caller owns, made at each call. */
  byte[] payload();

  /** The payload's length in bytes, without copying it. */
  int payloadSize();

  /**
   * The sink took the hook: the delivery is done.
   *
   * @throws io.ankusa.store.spi.StoreArgumentException if this delivery was answered already, or
   *     (for a synchronous handler) its {@code deliver} has returned
   * @throws io.ankusa.store.spi.StoreClosedException if the queue that handed it out was closed:
   *     the delivery stays in flight and is handed out again after the next open
   */
  void delivered();

  /**
   * Try again at {@code atEpochMs} (a time in the past means as soon as possible), noting {@code
   * reason} (the sink's answer, kept with the delivery for the dead-letter queue).
   *
   * @throws io.ankusa.store.spi.StoreArgumentException as {@link #delivered()} does, and for a
   *     negative time or a null reason
   * @throws io.ankusa.store.spi.StoreClosedException as {@link #delivered()} does
   */
  void retry(long atEpochMs, String reason);

  /**
   * Give up: the delivery moves to the dead-letter queue with {@code reason}, where {@link
   * DeadLetterQueue} can revive it.
   *
   * @throws io.ankusa.store.spi.StoreArgumentException as {@link #delivered()} does, and for a null
   *     reason
   * @throws io.ankusa.store.spi.StoreClosedException as {@link #delivered()} does
   */
  void deadLetter(String reason);
}
