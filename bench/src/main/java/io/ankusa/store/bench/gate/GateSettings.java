package io.ankusa.store.bench.gate;

/**
 * How a cell is measured.
 *
 * @param ticksPerRound ticks timed per round (gate: 1 000)
 * @param rounds counted rounds per cell; the cell is the lowest round p10 (gate: 3)
 * @param tickIntervalMicros ticks start on this schedule, as a busy dispatcher's would, so a round
 *     lasts long enough for the background load to write between ticks (1 000 µs: a round ≈ 1 s)
 * @param loadPerSecond merging batches per second written during the rounds (gate: 3 000)
 * @param foldRuns folds of the due family per cell; the fastest is reported
 * @param loadWarmupMillis how long the load runs before the first (uncounted warm-up) round
 * @param jitWarmupMillis in a backend's first cell, how long each probe whose tick only reads
 *     ({@link TickProbe#readsOnly()}) ticks back to back, untimed, ahead of its paced warm-up round
 *     (gate: 2 000 ms). A paced round is 1 000 ticks, too few for the JIT to compile a tick's path;
 *     without this, a backend's first cell was measured on code still being compiled, or recompiled
 *     for the second backend's classes
 * @param shardedAggregate each cell's queue has {@code counters.sharded_aggregate} on: the load's
 *     aggregate merges spread over 16 shard keys, and the gauge tick reads all of them
 */
public record GateSettings(
    int ticksPerRound,
    int rounds,
    long tickIntervalMicros,
    int loadPerSecond,
    int foldRuns,
    long loadWarmupMillis,
    long jitWarmupMillis,
    boolean shardedAggregate) {

  /** The gate's settings (one aggregate key per field). */
  public static final GateSettings STANDARD =
      new GateSettings(1_000, 3, 1_000, 3_000, 3, 500, 2_000, false);

  public GateSettings {
    if (ticksPerRound < 10
        || rounds < 1
        || tickIntervalMicros < 0
        || loadPerSecond < 1
        || foldRuns < 1
        || loadWarmupMillis < 0
        || jitWarmupMillis < 0) {
      throw new IllegalArgumentException("gate settings out of range: " + this);
    }
  }

  /** These settings with ticks started every {@code micros} (0: back to back). */
  public GateSettings withTickIntervalMicros(long micros) {
    return new GateSettings(
        ticksPerRound,
        rounds,
        micros,
        loadPerSecond,
        foldRuns,
        loadWarmupMillis,
        jitWarmupMillis,
        shardedAggregate);
  }

  /** These settings with a merge load of {@code perSecond} batches a second. */
  public GateSettings withLoadPerSecond(int perSecond) {
    return new GateSettings(
        ticksPerRound,
        rounds,
        tickIntervalMicros,
        perSecond,
        foldRuns,
        loadWarmupMillis,
        jitWarmupMillis,
        shardedAggregate);
  }

  /**
   * These settings with a back-to-back burst of {@code millis} before a backend's first cell (0:
   * none).
   */
  public GateSettings withJitWarmupMillis(long millis) {
    return new GateSettings(
        ticksPerRound,
        rounds,
        tickIntervalMicros,
        loadPerSecond,
        foldRuns,
        loadWarmupMillis,
        millis,
        shardedAggregate);
  }

  /** These settings with the sharded aggregate on or off. */
  public GateSettings withShardedAggregate(boolean sharded) {
    return new GateSettings(
        ticksPerRound,
        rounds,
        tickIntervalMicros,
        loadPerSecond,
        foldRuns,
        loadWarmupMillis,
        jitWarmupMillis,
        sharded);
  }
}
