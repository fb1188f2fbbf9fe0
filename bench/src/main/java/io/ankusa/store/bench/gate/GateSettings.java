package io.ankusa.store.bench.gate;

/**
 * How a cell is measured.
 *
 * @param ticksPerRound ticks timed per round (TEN-1.a: 1 000)
 * @param rounds counted rounds per cell; the cell is the lowest round p10 (TEN-1.a: 3)
 * @param tickIntervalMicros ticks start on this schedule, as a busy dispatcher's would, so a round
 *     lasts long enough for the background load to write between ticks (1 000 µs: a round ≈ 1 s)
 * @param loadPerSecond merging batches per second written during the rounds (TEN-1.a: 3 000)
 * @param foldRuns folds of the due family per cell; the fastest is reported
 * @param loadWarmupMillis how long the load runs before the first (uncounted warm-up) round
 */
public record GateSettings(
    int ticksPerRound, int rounds, long tickIntervalMicros, int loadPerSecond, int foldRuns, long loadWarmupMillis) {

  /** TEN-1.a's settings. */
  public static final GateSettings TEN_1A = new GateSettings(1_000, 3, 1_000, 3_000, 3, 500);

  public GateSettings {
    if (ticksPerRound < 10 || rounds < 1 || tickIntervalMicros < 0 || loadPerSecond < 1 || foldRuns < 1
        || loadWarmupMillis < 0) {
      throw new IllegalArgumentException("gate settings out of range: " + this);
    }
  }
}
