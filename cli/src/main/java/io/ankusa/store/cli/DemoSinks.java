package io.ankusa.store.cli;

import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.DeliveryHandler;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's sinks, as the queue's {@link DeliveryHandler}: each delivery is delivered, retried a
 * little later (at most four times), or dead-lettered, at the configured rates. Called on the
 * queue's dispatcher thread only.
 */
final class DemoSinks implements DeliveryHandler {
  /** After this many attempts a delivery the sink asks to retry is delivered instead. */
  private static final int MAX_ATTEMPTS = 5;

  private final double retryRate;
  private final double deadRate;
  private final SplittableRandom random = new SplittableRandom(7);

  DemoSinks(double retryRate, double deadRate) {
    this.retryRate = retryRate;
    this.deadRate = deadRate;
  }

  @Override
  public void deliver(List<Delivery> deliveries) {
    long now = System.currentTimeMillis();
    for (Delivery d : deliveries) {
      double roll = random.nextDouble();
      if (roll < deadRate) {
        d.deadLetter("410 gone");
      } else if (roll < deadRate + retryRate && d.attempt() < MAX_ATTEMPTS) {
        d.retry(now + 200 + random.nextInt(1_500), "503 busy");
      } else {
        d.delivered();
      }
    }
  }
}
