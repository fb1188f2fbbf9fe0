package io.ankusa.store.cli;

import io.ankusa.store.queue.config.QueueConfig;

/**
 * The ranges of the demo's options, and the heap they need, checked before the demo opens anything:
 * a value out of range, or a combination this JVM's heap cannot hold, is bad input (exit 2) with a
 * line naming the limit — never an {@code OutOfMemoryError} halfway through a run.
 *
 * <p>What a run holds: {@link #samplesPerProducer} latency samples per producer (8 bytes each; at
 * most {@value #LATENCY_SAMPLES} over all producers, at least {@value #MIN_SAMPLES_PER_PRODUCER}
 * each), and per producer thread the cumulative weights of every tenant (8 bytes each), and up to
 * {@value #REQUESTS_HELD_PER_PRODUCER} requests of at most {@value #MAX_PAYLOAD_BYTES} bytes (its
 * in-flight window and its recent requests kept for duplicates). The estimate must fit in half of
 * the JVM's maximum heap, leaving the rest to the writer, the dispatcher and the store's caches.
 */
final class DemoLimits {
  /** Most tenants: the queue's default {@code tenants.max}, which the demo's queue runs with. */
  static final long MAX_TENANTS = QueueConfig.DEFAULT_TENANTS_MAX;

  /** Most producer threads. */
  static final int MAX_PRODUCERS = 256;

  /** Longest run: one day. */
  static final int MAX_SECONDS = 86_400;

  /** Ack latencies kept over all producers, so many producers cannot run the heap out. */
  static final int LATENCY_SAMPLES = 1 << 22;

  /** Latency samples each producer keeps at least (later ones are not recorded). */
  static final int MIN_SAMPLES_PER_PRODUCER = 1 << 10;

  /** Requests one producer has in flight at most. */
  static final int PRODUCER_IN_FLIGHT = 256;

  /** Recent requests a producer keeps to send again as duplicates. */
  static final int RECENT_REQUESTS = 1024;

  /** Requests a producer may hold at once: its in-flight window and its recent ones. */
  static final int REQUESTS_HELD_PER_PRODUCER = PRODUCER_IN_FLIGHT + RECENT_REQUESTS;

  /** Largest payload a demo producer makes. */
  static final int MAX_PAYLOAD_BYTES = 2_000;

  private DemoLimits() {}

  /**
   * Checks every option against its range and the heap estimate against {@code maxHeapBytes}.
   *
   * @throws CommandInputException (bad argument) naming the option, its range or the heap limit
   */
  static void check(
      long tenants,
      long producers,
      long seconds,
      double retryRate,
      double deadRate,
      double duplicateRate,
      long maxHeapBytes) {
    range("--tenants", tenants, 1, MAX_TENANTS, " (the queue's tenants.max)");
    range("--producers", producers, 1, MAX_PRODUCERS, "");
    range("--seconds", seconds, 1, MAX_SECONDS, "");
    rate("--retry-rate", retryRate);
    rate("--dead-rate", deadRate);
    rate("--duplicate-rate", duplicateRate);
    if (retryRate + deadRate > 1) {
      throw bad(
          "--retry-rate + --dead-rate must be at most 1 (they are shares of one attempt), got "
              + retryRate
              + " + "
              + deadRate);
    }
    long need = heapNeeded(tenants, producers);
    long allowed = maxHeapBytes / 2;
    if (need > allowed) {
      long perProducer = need / producers;
      throw bad(
          String.format(
              "--producers %d with --tenants %d need about %d MiB of heap, more than half of this"
                  + " JVM's maximum heap (%d MiB, -Xmx); at most %d producers fit with %d tenants. Lower --producers or"
                  + " --tenants, or raise -Xmx (ANKUSA_JAVA_OPTS)",
              producers,
              tenants,
              need >> 20,
              maxHeapBytes >> 20,
              Math.max(0, allowed / perProducer),
              tenants));
    }
  }

  /** Bytes of heap {@code producers} producers over {@code tenants} tenants hold. */
  static long heapNeeded(long tenants, long producers) {
    long perProducer =
        8L * samplesPerProducer(producers)
            + 8L * tenants
            + (long) REQUESTS_HELD_PER_PRODUCER * (MAX_PAYLOAD_BYTES + 256);
    return producers * perProducer;
  }

  /** Latency samples each of {@code producers} producers keeps. */
  static int samplesPerProducer(long producers) {
    return (int) Math.max(MIN_SAMPLES_PER_PRODUCER, LATENCY_SAMPLES / Math.max(1, producers));
  }

  private static void range(String option, long value, long min, long max, String why) {
    if (value < min || value > max) {
      throw bad(option + " must be in " + min + ".." + max + why + ", got " + value);
    }
  }

  private static void rate(String option, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw bad(option + " must be a share in 0..1, got " + value);
    }
  }

  private static CommandInputException bad(String message) {
    return new CommandInputException(FailureCause.BAD_ARGUMENT, message);
  }
}
