package io.ankusa.store.bench.jmh;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * How far one SPI/raw ratio can be trusted: a percentile bootstrap interval of {@code mean(spi) /
 * mean(raw)} over the forks of each side. Forks are the independent units of a JMH run (each is a
 * fresh JVM with its own compiled code and its own store on disk); the iterations of one fork share
 * all of that and move together, so they are not resampled.
 *
 * <p>Read it as: a target such as {@code ≤ 1.10} is met when {@code high ≤ 1.10}, missed when
 * {@code low > 1.10}, and not decided by this run otherwise (run more forks). Under five forks a side
 * it is only a rough guide: a bootstrap of few samples understates their spread. Eight a side give an
 * interval a comparison can rest on.
 *
 * @param low the {@value #LOW_PERCENTILE}th percentile of the resampled ratios
 * @param high the {@value #HIGH_PERCENTILE}th percentile
 * @param spiForks forks measured on the SPI side
 * @param rawForks forks measured on the raw side
 */
record RatioInterval(double low, double high, int spiForks, int rawForks) {
  /** Resamples drawn; enough that the percentiles move by less than 0.01 between seeds. */
  static final int RESAMPLES = 4_000;
  static final double LOW_PERCENTILE = 2.5;
  static final double HIGH_PERCENTILE = 97.5;
  /** Fixed, so one set of results always gives the same interval. */
  private static final long SEED = 0x5eed_a11c_e5L;

  /**
   * The interval of {@code mean(spi) / mean(raw)}, or null when either side has fewer than two forks
   * (one fork says nothing about how forks vary). Each array holds one score per fork, lower is
   * faster (time per operation).
   */
  static RatioInterval of(double[] spiForkScores, double[] rawForkScores) {
    if (spiForkScores.length < 2 || rawForkScores.length < 2) {
      return null;
    }
    SplittableRandom random = new SplittableRandom(SEED);
    double[] ratios = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      ratios[i] = resampledMean(spiForkScores, random) / resampledMean(rawForkScores, random);
    }
    Arrays.sort(ratios);
    return new RatioInterval(percentile(ratios, LOW_PERCENTILE), percentile(ratios, HIGH_PERCENTILE),
        spiForkScores.length, rawForkScores.length);
  }

  /** Whether this run shows the ratio at or under {@code target}: the whole interval is. */
  boolean meets(double target) {
    return high <= target;
  }

  /** Whether this run shows the ratio over {@code target}: the whole interval is. */
  boolean misses(double target) {
    return low > target;
  }

  @Override
  public String toString() {
    return String.format("[%.2f, %.2f]", low, high);
  }

  private static double resampledMean(double[] scores, SplittableRandom random) {
    double sum = 0;
    for (int i = 0; i < scores.length; i++) {
      sum += scores[random.nextInt(scores.length)];
    }
    return sum / scores.length;
  }

  /** The value at {@code p} percent of {@code sorted}, by the nearest rank. */
  private static double percentile(double[] sorted, double p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
