package io.ankusa.store.queue;

import java.util.List;

/**
 * What a {@link WebhookQueue} calls with the deliveries each dispatcher tick claimed, on the
 * dispatcher's thread, once they are in flight in the store: start delivering them and return at
 * once; answer each later, from any thread. Answers are written in batches by the dispatcher's
 * thread, through the transition guard. A delivery never answered stays in flight until the queue
 * is next opened, whose recovery makes it due again; an answer given after the queue closed is
 * refused ({@link io.ankusa.store.spi.StoreClosedException}) and changes nothing.
 *
 * <p>A handler that throws keeps the deliveries in flight (they are recovered at the next open),
 * and the queue goes on (the failure is logged and counted in {@link
 * QueueStats#handlerFailures()}).
 */
@FunctionalInterface
public interface AsyncDeliveryHandler {
  /** Takes {@code deliveries} (in claim order) to answer later. Must not block. */
  void deliver(List<Delivery> deliveries) throws Exception;
}
