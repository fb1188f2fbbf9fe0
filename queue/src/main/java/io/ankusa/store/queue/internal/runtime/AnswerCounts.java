package io.ankusa.store.queue.internal.runtime;

import java.util.concurrent.atomic.LongAdder;

/** What a front door's handler answered, and how often it threw, since the queue opened. */
public final class AnswerCounts {
  final LongAdder delivered = new LongAdder();
  final LongAdder retried = new LongAdder();
  final LongAdder deadLettered = new LongAdder();
  final LongAdder handlerFailures = new LongAdder();

  public long delivered() {
    return delivered.sum();
  }

  public long retried() {
    return retried.sum();
  }

  public long deadLettered() {
    return deadLettered.sum();
  }

  public long handlerFailures() {
    return handlerFailures.sum();
  }

  void count(HandedDelivery.Outcome outcome) {
    switch (outcome) {
      case DELIVERED -> delivered.increment();
      case RETRY -> retried.increment();
      case DEAD_LETTER -> deadLettered.increment();
      default -> throw new IllegalStateException("unknown outcome " + outcome);
    }
  }
}
