package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.queue.AsyncDeliveryHandler;
import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreClosedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link AsyncDeliveryHandler} as the runtime's {@link TickHandler}: after each tick, the rows
 * it claimed (in flight in the store) become deliveries, their hooks read with one {@code
 * multiGet}, handed to the handler; answers given from any thread are queued, and each lap of the
 * dispatcher writes those queued so far as one batch through the transition guard (delivered,
 * retry, dead-letter of the inflight rows; a claim its own dispatcher wrote is settled without a
 * read). When the runtime closes, the answers queued are written, and every later answer is refused
 * with {@link StoreClosedException}: the delivery stays in flight, and the next open's recovery
 * makes it due again.
 */
public final class AsyncHandOff implements TickHandler {
  private static final Logger LOG = LoggerFactory.getLogger(AsyncHandOff.class);

  private final AsyncDeliveryHandler handler;
  private final AnswerCounts counts;
  private final ConcurrentLinkedQueue<HandedDelivery> answered = new ConcurrentLinkedQueue<>();

  /**
   * Taking an answer holds the read side; closing takes the write side, so no answer slips past the
   * last write.
   */
  private final ReentrantReadWriteLock closing = new ReentrantReadWriteLock();

  private boolean closed;

  public AsyncHandOff(AsyncDeliveryHandler handler, AnswerCounts counts) {
    this.handler = handler;
    this.counts = counts;
  }

  @Override
  public void handle(DeliveryQueue queue, Dispatcher.TickReport tick, long now) {
    writeAnswers(queue, now);
    if (tick.claimed().isEmpty()) {
      return;
    }
    List<HandedBatch.Row> rows = new ArrayList<>(tick.claimed().size());
    for (InflightRow r : tick.claimed()) {
      rows.add(new HandedBatch.Row(r.key().seq(), r.key().sink(), r));
    }
    HandedBatch batch = HandedBatch.read(queue, rows, this::take);
    if (!batch.orphans().isEmpty()) {
      LOG.warn(
          "queue at {}: {} claimed rows have no hook; they stay in flight, and the next open's recovery drops"
              + " them",
          queue.store().directory(),
          batch.orphans().size());
    }
    try {
      handler.deliver(Collections.unmodifiableList(new ArrayList<Delivery>(batch.deliveries())));
    } catch (Exception e) {
      counts.handlerFailures.increment();
      LOG.warn(
          "queue at {}: the asynchronous delivery handler threw; the deliveries it was handed stay in flight"
              + " until answered or the next open",
          queue.store().directory(),
          e);
    }
  }

  /** Writes the answers queued so far, and refuses every later one. */
  @Override
  public void stopped(DeliveryQueue queue, long now) {
    closing.writeLock().lock();
    try {
      closed = true;
    } finally {
      closing.writeLock().unlock();
    }
    writeAnswers(queue, now);
  }

  private void take(HandedDelivery d, Runnable record) {
    closing.readLock().lock();
    try {
      if (closed) {
        throw new StoreClosedException(
            d
                + " was answered after the queue closed; nothing was written: it stays in"
                + " flight, and the queue's next open makes it due again");
      }
      record.run();
      answered.add(d);
    } finally {
      closing.readLock().unlock();
    }
  }

  /**
   * Writes the answers queued so far as one guarded batch; answers whose rows moved meanwhile are
   * dropped.
   */
  private void writeAnswers(DeliveryQueue queue, long now) {
    List<HandedDelivery> batch = new ArrayList<>();
    for (HandedDelivery d = answered.poll(); d != null; d = answered.poll()) {
      batch.add(d);
    }
    if (batch.isEmpty()) {
      return;
    }
    Transition t = new Transition();
    for (HandedDelivery d : batch) {
      InflightRow row = d.inflight();
      switch (d.outcome()) {
        case DELIVERED -> Deliveries.delivered(t, row);
        case RETRY -> Deliveries.retry(t, row, d.batchState(), d.retryAt(), d.reason());
        case DEAD_LETTER ->
            Deliveries.deadLetter(
                t, row, d.batchState(), now, d.sourceId(), d.hookId(), d.reason());
        default -> throw new IllegalStateException("unknown outcome " + d.outcome());
      }
    }
    int dropped = queue.write(t, Durability.NO_SYNC);
    for (int i = 0; i < batch.size(); i++) {
      if (t.applied(i)) {
        counts.count(batch.get(i).outcome());
      }
    }
    if (dropped > 0) {
      LOG.debug(
          "queue at {}: {} answers dropped: their rows had moved (recovered, purged) since they were handed out",
          queue.store().directory(),
          dropped);
    }
  }
}
