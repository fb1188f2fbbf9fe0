package io.ankusa.store.cli;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.index.DeadLetters;
import io.ankusa.store.queue.record.DeadRow;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.dispatch.TickHandler;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.record.DeliveryRow;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.record.InflightRow;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The demo's sinks, as the runtime's {@link TickHandler}: each tick's claimed rows are delivered,
 * retried a little later, or dead-lettered at the configured rates, and every couple of seconds part of
 * the DLQ is replayed. Runs on the runtime's dispatcher thread only.
 */
final class DemoDeliveryHandler implements TickHandler {
  private static final long REPLAY_INTERVAL_MS = 2_000;

  private final double retryRate;
  private final double deadRate;
  private final SplittableRandom random = new SplittableRandom(7);
  final LongAdder delivered = new LongAdder();
  final LongAdder retried = new LongAdder();
  final LongAdder deadLettered = new LongAdder();
  final LongAdder revived = new LongAdder();
  private long lastReplay = System.currentTimeMillis();

  DemoDeliveryHandler(double retryRate, double deadRate) {
    this.retryRate = retryRate;
    this.deadRate = deadRate;
  }

  @Override
  public void handle(DeliveryQueue queue, Dispatcher.TickReport tick, long now) {
    settle(queue, tick.claimed(), now);
    if (now - lastReplay > REPLAY_INTERVAL_MS) {
      replaySomeDead(queue, now);
      lastReplay = now;
    }
  }

  /** Plays the sinks for the claimed rows: one batch for the whole tick's outcomes. */
  private void settle(DeliveryQueue queue, List<InflightRow> claimed, long now) {
    if (claimed.isEmpty()) {
      return;
    }
    List<byte[]> rowKeys = new ArrayList<>(claimed.size());
    claimed.forEach(r -> rowKeys.add(Keys.delivery(r.key().seq(), r.key().sink())));
    List<byte[]> rows = queue.store().multiGet(Format3.DELIVERIES, rowKeys);
    Transition t = new Transition();
    for (int i = 0; i < claimed.size(); i++) {
      InflightRow row = claimed.get(i);
      DeliveryRow state = DeliveryRow.decode(rows.get(i));
      double roll = random.nextDouble();
      if (roll < deadRate) {
        Deliveries.deadLetter(t, row, state, now, "demo", "hook-" + row.key().seq(), "410 gone");
        deadLettered.increment();
      } else if (roll < deadRate + retryRate && state.attempts() < 5) {
        Deliveries.retry(t, row, state, now + 200 + random.nextInt(1_500), "503 busy");
        retried.increment();
      } else {
        Deliveries.delivered(t, row);
        delivered.increment();
      }
    }
    queue.write(t, Durability.NO_SYNC);
  }

  /** A replay of part of the DLQ: the newest 20 dead rows become due again. */
  private void replaySomeDead(DeliveryQueue queue, long now) {
    List<DeadRow> dead = DeadLetters.deadPage(queue.store(), null, 20, null).rows();
    if (dead.isEmpty()) {
      return;
    }
    List<byte[]> rowKeys = new ArrayList<>(dead.size());
    dead.forEach(d -> rowKeys.add(Keys.delivery(d.key().seq(), d.key().sink())));
    List<byte[]> rows = queue.store().multiGet(Format3.DELIVERIES, rowKeys);
    Transition t = new Transition();
    for (int i = 0; i < dead.size(); i++) {
      Deliveries.revive(t, dead.get(i), DeliveryRow.decode(rows.get(i)), now);
      revived.increment();
    }
    queue.write(t, Durability.NO_SYNC);
  }
}
