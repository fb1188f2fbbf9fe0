package io.ankusa.store.queue;

import java.util.List;

/**
 * What a {@link WebhookQueue} calls with the deliveries each dispatcher tick takes, on the
 * dispatcher's thread: answer each before returning. The answers and the claims are written
 * together, in one batch, after {@code deliver} returns — the deliveries never sit in the store as
 * in flight — so keep it short: while it runs, every other transition of the tenants in the batch
 * (a dead-letter revive, a purge, an archive settle) waits. For sinks that take milliseconds,
 * answer from your own threads with an {@link AsyncDeliveryHandler}.
 *
 * <p>A delivery left unanswered stays in flight until the queue is next opened. A handler that
 * throws leaves the deliveries it had not answered in flight, keeps the answers it gave, and the
 * queue goes on (the failure is logged and counted in {@link QueueStats#handlerFailures()}).
 */
@FunctionalInterface
public interface DeliveryHandler {
  /**
   * Delivers {@code deliveries} (in claim order, several tenants interleaved fairly) and answers
   * each.
   */
  void deliver(List<Delivery> deliveries) throws Exception;
}
