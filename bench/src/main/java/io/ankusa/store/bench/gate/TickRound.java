package io.ankusa.store.bench.gate;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongUnaryOperator;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One round of ticks as the gate benches time them: {@code ticksPerRound} ticks started on the
 * {@code tickIntervalMicros} schedule (a tick that overruns its slot moves the schedule on rather
 * than bursting), each timed alone into an HdrHistogram in nanoseconds; after each tick, untimed,
 * the settle step.
 */
final class TickRound {
  private static final Logger LOG = LoggerFactory.getLogger(TickRound.class);

  /** Longest tick the histogram tracks; slower ones are recorded at this value. */
  private static final long MAX_TRACKED_NANOS = 60_000_000_000L;

  private TickRound() {}

  /**
   * Runs one round.
   *
   * @param tick one tick at wall-clock time {@code now}; returns a number derived from what it read
   *     (so the JIT cannot drop the work)
   * @param settle run after each tick with the same {@code now}, outside the timed region
   */
  static RoundStats run(GateSettings settings, LongUnaryOperator tick, LongConsumer settle) {
    Histogram h = new Histogram(MAX_TRACKED_NANOS, 3);
    long interval = settings.tickIntervalMicros() * 1_000;
    long next = System.nanoTime();
    long sink = 0;
    for (int i = 0; i < settings.ticksPerRound(); i++) {
      long now = System.currentTimeMillis();
      long start = System.nanoTime();
      sink += tick.applyAsLong(now);
      long took = System.nanoTime() - start;
      h.recordValue(Math.min(took, MAX_TRACKED_NANOS));
      settle.accept(now);
      next += interval;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      } else {
        next = System.nanoTime();
      }
    }
    if (sink == Long.MIN_VALUE) {
      LOG.trace("unlikely sink value {}", sink);
    }
    return RoundStats.of(h);
  }

  /**
   * Ticks back to back for {@code millis}, untimed, settling after each as {@link #run} does: gives
   * the JIT the tick's path to compile before rounds are counted.
   *
   * @return how many ticks ran
   */
  static long burst(long millis, LongUnaryOperator tick, LongConsumer settle) {
    long end = System.nanoTime() + millis * 1_000_000;
    long ticks = 0;
    long sink = 0;
    while (System.nanoTime() - end < 0) {
      long now = System.currentTimeMillis();
      sink += tick.applyAsLong(now);
      settle.accept(now);
      ticks++;
    }
    if (sink == Long.MIN_VALUE) {
      LOG.trace("unlikely sink value {}", sink);
    }
    return ticks;
  }
}
