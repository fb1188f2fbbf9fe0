package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.DeliveryHandler;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A synchronous {@link DeliveryHandler} as the dispatcher's {@link Dispatcher.ClaimSettler}: the
 * rows a tick takes become deliveries (their hooks read with one {@code multiGet}), the handler
 * answers them while the tick holds their tenants' stripes, and each answer is written with its
 * claim in the tick's one batch; the rows left unanswered are claimed (in flight). An answer after
 * {@code deliver} returned is refused. A handler that throws keeps the answers it gave; the failure
 * is logged and counted, and the queue goes on.
 */
public final class SyncSettler implements Dispatcher.ClaimSettler {
  private static final Logger LOG = LoggerFactory.getLogger(SyncSettler.class);

  private final DeliveryQueue queue;
  private final DeliveryHandler handler;
  private final AnswerCounts counts;

  public SyncSettler(DeliveryQueue queue, DeliveryHandler handler, AnswerCounts counts) {
    this.queue = queue;
    this.handler = handler;
    this.counts = counts;
  }

  @Override
  public void settle(List<DueRow> rows, Dispatcher.Settlement settlement, long now) {
    List<HandedBatch.Row> handed = new ArrayList<>(rows.size());
    rows.forEach(r -> handed.add(new HandedBatch.Row(r.key().seq(), r.key().sink(), null)));
    boolean[] open = {true};
    HandedBatch batch =
        HandedBatch.read(
            queue,
            handed,
            (d, record) -> {
              synchronized (open) {
                if (!open[0]) {
                  throw new StoreArgumentException(
                      d
                          + " was answered after the handler's deliver returned; a synchronous"
                          + " handler answers before it returns (use an asynchronous handler to answer later): it stays in flight");
                }
                record.run();
              }
            });
    if (!batch.orphans().isEmpty()) {
      LOG.warn(
          "queue at {}: {} due rows have no hook; they are claimed, and the next open's recovery drops them",
          queue.store().directory(),
          batch.orphans().size());
    }
    List<HandedDelivery> deliveries = batch.deliveries();
    try {
      handler.deliver(Collections.unmodifiableList(new ArrayList<Delivery>(deliveries)));
    } catch (Exception e) {
      counts.handlerFailures.increment();
      LOG.warn(
          "queue at {}: the delivery handler threw; the deliveries it did not answer stay in flight until the"
              + " next open",
          queue.store().directory(),
          e);
    } finally {
      synchronized (open) {
        open[0] = false;
      }
    }
    for (HandedDelivery d : deliveries) {
      settle(d, settlement, now);
    }
  }

  /** Writes delivery {@code d}'s answer as its row's, if it got one. */
  private void settle(HandedDelivery d, Dispatcher.Settlement settlement, long now) {
    HandedDelivery.Outcome outcome = d.outcome();
    if (outcome == null) {
      return;
    }
    switch (outcome) {
      case DELIVERED -> settlement.delivered(d.row());
      case RETRY -> settlement.retry(d.row(), d.batchState(), d.retryAt(), d.reason());
      case DEAD_LETTER ->
          settlement.deadLetter(d.row(), d.batchState(), now, d.sourceId(), d.hookId(), d.reason());
      default -> throw new IllegalStateException("unknown outcome " + outcome);
    }
    counts.count(outcome);
  }
}
