package io.ankusa.store.bench.jmh;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * How far one SPI/raw ratio can be trusted: a percentile bootstrap interval. Forks are the
 * independent units of a JMH run (each is a fresh JVM with its own compiled code and its own store
 * on disk); the iterations of one fork share all of that and move together, so they are not
 * resampled. Two kinds:
 *
 * <ul>
 *   <li>{@link #paired}: forks run in rounds, one SPI fork and one raw fork of the case side by
 *       side in each. The interval is of the geometric mean of the rounds' own ratios, resampling
 *       rounds: whatever the machine did during a round falls on both of its forks and cancels.
 *   <li>{@link #of}: forks in JMH's order, all of one side before the other's. The interval is of
 *       {@code mean(spi) / mean(raw)}, resampling each side's forks on its own; it cannot see drift
 *       of the machine between the two sides.
 * </ul>
 *
 * <p>Read it as: a target such as {@code ≤ 1.10} is met when {@code high ≤ 1.10}, missed when
 * {@code low > 1.10}, and not decided by this run otherwise (run more forks). Under five forks a
 * side it is only a rough guide: a bootstrap of few samples understates their spread. Eight a side
 * give an interval a comparison can rest on.
 *
 * @param low the {@value #LOW_PERCENTILE}th percentile of the resampled ratios
 * @param high the {@value #HIGH_PERCENTILE}th percentile
 * @param spiForks forks measured on the SPI side
 * @param rawForks forks measured on the raw side
 * @param paired whether the forks were paired by round
 */
record RatioInterval(double low, double high, int spiForks, int rawForks, boolean paired) {
  /** Resamples drawn; enough that the percentiles move by less than 0.01 between seeds. */
  static final int RESAMPLES = 4_000;

  static final double LOW_PERCENTILE = 2.5;
  static final double HIGH_PERCENTILE = 97.5;

  /** Fixed, so one set of results always gives the same interval. */
  private static final long SEED = 0x5eed_a11c_e5L;

  /**
   * The interval of {@code mean(spi) / mean(raw)}, or null when either side has fewer than two
   * forks (one fork says nothing about how forks vary). Each array holds one score per fork, lower
   * is faster (time per operation).
   */
  static RatioInterval of(double[] spiForkScores, double[] rawForkScores) {
    if (spiForkScores.length < 2 || rawForkScores.length < 2) {
      return null;
    }
    return bootstrap(
        random -> resampledMean(spiForkScores, random) / resampledMean(rawForkScores, random),
        spiForkScores.length,
        rawForkScores.length,
        false);
  }

  /**
   * The interval of the geometric mean of {@code spi[i] / raw[i]} over rounds {@code i}, or null
   * under two rounds. REQUIRES: both arrays hold one score per round, in the same round order.
   *
   * @throws IllegalArgumentException if the arrays differ in length
   */
  static RatioInterval paired(double[] spiRoundScores, double[] rawRoundScores) {
    if (spiRoundScores.length != rawRoundScores.length) {
      throw new IllegalArgumentException(
          "paired forks need one SPI and one raw score per round; got "
              + spiRoundScores.length
              + " and "
              + rawRoundScores.length);
    }
    if (spiRoundScores.length < 2) {
      return null;
    }
    double[] logRatios = logRatios(spiRoundScores, rawRoundScores);
    return bootstrap(
        random -> Math.exp(resampledMean(logRatios, random)),
        spiRoundScores.length,
        rawRoundScores.length,
        true);
  }

  /**
   * The geometric mean of the rounds' own ratios {@code spi[i] / raw[i]}: the point {@link #paired}
   * is around.
   */
  static double pairedRatio(double[] spiRoundScores, double[] rawRoundScores) {
    return Math.exp(
        Arrays.stream(logRatios(spiRoundScores, rawRoundScores)).average().orElse(Double.NaN));
  }

  private static double[] logRatios(double[] spi, double[] raw) {
    double[] logs = new double[spi.length];
    for (int i = 0; i < logs.length; i++) {
      logs[i] = Math.log(spi[i] / raw[i]);
    }
    return logs;
  }

  /** {@value #RESAMPLES} draws of {@code draw} from the fixed seed, and their two percentiles. */
  private static RatioInterval bootstrap(
      ToDoubleFunction<SplittableRandom> draw, int spiForks, int rawForks, boolean paired) {
    SplittableRandom random = new SplittableRandom(SEED);
    double[] ratios = new double[RESAMPLES];
    for (int i = 0; i < RESAMPLES; i++) {
      ratios[i] = draw.applyAsDouble(random);
    }
    Arrays.sort(ratios);
    return new RatioInterval(
        percentile(ratios, LOW_PERCENTILE),
        percentile(ratios, HIGH_PERCENTILE),
        spiForks,
        rawForks,
        paired);
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
