package io.ankusa.store.bench.gate;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongUnaryOperator;
import org.HdrHistogram.Histogram;

/**
 * One round of dispatch ticks racing a writer (the ingest cell, {@link WriterLoad}): ticks started
 * on the gate's schedule ({@link GateSettings#tickIntervalMicros()}, settled after each, untimed,
 * as {@link TickRound} does), until {@link GateSettings#ticksPerRound()} of them have claimed a
 * row.
 *
 * <p><b>Which ticks count.</b> Beside a writer the watermark rises in steps, one per WAL sync, and
 * a tick between two steps finds nothing durable to claim: it still reads the markers and visits
 * the tenants whose new rows are written but not yet synced, and claims nothing. Counted together,
 * the round's p10 would be whichever of the two kinds of tick was cheaper in that run, in a
 * proportion set by how the syncs fell between the ticks. So only the ticks that claimed at least
 * one row are timed into the round's {@link #claiming()} stats (the cell's value, as for every cell
 * the lowest p10 of the rounds); the empty ones go to {@link #empty()}, reported beside (their
 * count, p10 and p50) and not gated. A round that has not collected its claiming ticks within
 * {@value #MAX_ROUND_LENGTHS} nominal round lengths (ticks per round × the interval, at least 1 ms
 * a tick) ends with what it has; the JSON gives each round's count.
 *
 * <p><b>How the cell is compared.</b> Per tick, as every other cell, not per claimed row. A racing
 * tick claims what the syncs since the last tick made durable — a handful to a few tens of rows —
 * where the quiet cells' ticks claim up to 256. A tick's fixed part (the marker scan, a limits read
 * and a seek per tenant, one write) dominates a small claim, so per claimed row a healthy racing
 * tick would read many times the quiet cells' cost and fail the rule for doing nothing wrong. Per
 * tick, the racing cell, claiming fewer rows, is held to at most what the quiet ticks cost (within
 * 2× of the fastest cell, 1 ms floor, under 50 ms): what the race adds — fresh rows due for many
 * tenants at every tick, the tombstones of fresh claims ahead of the cursors, rows above the
 * watermark scanned again tick after tick, a writer's memtable churning under the iterators — is
 * paid per tick and shows there. What a per-tick rule alone would miss, cheap ticks that claim too
 * little and let the queue grow, the cell's conditions catch ({@link GateRule}): the ticks must
 * claim at least 90 % of the rows the writer ingested meanwhile, and the writer must keep 90 % of
 * its rate. The table prints the rows per tick and the cost per claimed row beside the value for
 * the reader.
 *
 * @param claiming the ticks that claimed at least one row (the round's value)
 * @param empty the ticks that claimed nothing
 */
record RaceRound(RoundStats claiming, RoundStats empty) {
  /** Longest a round runs, in nominal round lengths, before it ends with fewer claiming ticks. */
  static final int MAX_ROUND_LENGTHS = 10;

  /** Longest tick the histograms track; slower ones are recorded at this value. */
  private static final long MAX_TRACKED_NANOS = 60_000_000_000L;

  /**
   * Runs one round.
   *
   * @param tick one tick at wall-clock time {@code now}; returns the rows it claimed
   * @param settle run after each tick with the same {@code now}, outside the timed region
   */
  static RaceRound run(GateSettings settings, LongUnaryOperator tick, LongConsumer settle) {
    Histogram claiming = new Histogram(MAX_TRACKED_NANOS, 3);
    Histogram empty = new Histogram(MAX_TRACKED_NANOS, 3);
    long interval = settings.tickIntervalMicros() * 1_000;
    long deadline =
        System.nanoTime()
            + MAX_ROUND_LENGTHS * settings.ticksPerRound() * Math.max(interval, 1_000_000L);
    long next = System.nanoTime();
    while (claiming.getTotalCount() < settings.ticksPerRound()
        && System.nanoTime() - deadline < 0) {
      long now = System.currentTimeMillis();
      long start = System.nanoTime();
      long claimed = tick.applyAsLong(now);
      long took = Math.min(System.nanoTime() - start, MAX_TRACKED_NANOS);
      (claimed > 0 ? claiming : empty).recordValue(took);
      settle.accept(now);
      next += interval;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      } else {
        next = System.nanoTime();
      }
    }
    return new RaceRound(RoundStats.of(claiming), RoundStats.of(empty));
  }
}
