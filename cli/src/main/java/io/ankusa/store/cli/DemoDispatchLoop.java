package io.ankusa.store.cli;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.DeadLetters;
import io.ankusa.store.queue.DeadRow;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.DeliveryRow;
import io.ankusa.store.queue.Dispatcher;
import io.ankusa.store.queue.InflightRow;
import io.ankusa.store.queue.QueueWriter;
import io.ankusa.store.queue.Reclaim;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The demo's dispatcher: ticks, claims what is durable and due, and plays the sinks — delivered,
 * retried a little later, or dead-lettered at the configured rates — and every couple of seconds
 * replays part of the DLQ and reclaims finished hooks.
 */
final class DemoDispatchLoop implements Runnable {
  private final DeliveryQueue queue;
  private final Dispatcher dispatcher;
  private final double retryRate;
  private final double deadRate;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final SplittableRandom random = new SplittableRandom(7);
  final LongAdder delivered = new LongAdder();
  final LongAdder retried = new LongAdder();
  final LongAdder deadLettered = new LongAdder();
  final LongAdder revived = new LongAdder();
  final LongAdder ticks = new LongAdder();
  volatile int activeTenants;
  private volatile Throwable failure;

  DemoDispatchLoop(DeliveryQueue queue, QueueWriter writer, double retryRate, double deadRate) {
    this.queue = queue;
    this.dispatcher = new Dispatcher(queue, writer::durableSeq, 512, 4L << 20);
    this.retryRate = retryRate;
    this.deadRate = deadRate;
  }

  void stop() {
    running.set(false);
  }

  Throwable failure() {
    return failure;
  }

  @Override
  public void run() {
    long lastChores = System.currentTimeMillis();
    try {
      while (running.get()) {
        long now = System.currentTimeMillis();
        Dispatcher.TickReport tick = dispatcher.tick(now);
        ticks.increment();
        activeTenants = tick.activeTenants();
        settle(tick.claimed(), now);
        if (now - lastChores > 2_000) {
          replaySomeDead(now);
          Reclaim.run(queue, 10_000);
          lastChores = now;
        }
        if (tick.rowsClaimed() == 0) {
          Thread.sleep(5);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /** Plays the sinks for the claimed rows: one batch for the whole tick's outcomes. */
  private void settle(List<InflightRow> claimed, long now) {
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
  private void replaySomeDead(long now) {
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
