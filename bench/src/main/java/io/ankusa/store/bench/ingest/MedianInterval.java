package io.ankusa.store.bench.ingest;

import java.util.Arrays;

/**
 * A distribution-free confidence interval for the median of some samples, from their order
 * statistics: with {@code n} independent samples, the median lies between the {@code k}-th smallest
 * and the {@code k}-th largest with probability {@code 1 − 2·P(Binomial(n, ½) < k)}, whatever the
 * samples' distribution. The interval picked is the narrowest whose coverage is at least {@value
 * #TARGET_COVERAGE}, or, when no interval of {@code n} samples reaches it, the widest (lowest to
 * highest), with its coverage stated: five samples give 93.75 % at best, eleven give 98.8 % between
 * the second smallest and the second largest.
 *
 * <p>Read it as: a target such as {@code ≥ 0.95} is met when {@code low ≥ 0.95}, missed when {@code
 * high < 0.95}, and not settled by this run otherwise (run more rounds).
 *
 * @param low the {@code k}-th smallest sample
 * @param high the {@code k}-th largest sample
 * @param coverage the probability that the interval holds the true median
 */
record MedianInterval(double low, double high, double coverage) {
  /** The coverage an interval should reach when the samples allow it. */
  static final double TARGET_COVERAGE = 0.95;

  /**
   * The interval of {@code samples}' median.
   *
   * @throws IllegalArgumentException if there are no samples
   */
  static MedianInterval of(double[] samples) {
    int n = samples.length;
    if (n == 0) {
      throw new IllegalArgumentException("a median interval needs at least one sample");
    }
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    // k = 1 is the whole range; narrow it while the coverage of [x(k+1), x(n-k)] stays at the
    // target.
    int k = 1;
    while (k + 1 <= (n + 1) / 2 && coverage(n, k + 1) >= TARGET_COVERAGE) {
      k++;
    }
    return new MedianInterval(sorted[k - 1], sorted[n - k], coverage(n, k));
  }

  /** {@code 1 − 2·P(Binomial(n, ½) ≤ k − 1)}: the coverage of {@code [x(k), x(n+1−k)]}. */
  static double coverage(int n, int k) {
    double tail = 0;
    double term = Math.pow(0.5, n); // P(X = 0)
    for (int i = 0; i < k; i++) {
      tail += term;
      term = term * (n - i) / (i + 1);
    }
    return Math.max(0, 1 - 2 * tail);
  }

  @Override
  public String toString() {
    return String.format("[%.2f, %.2f] %.0f%%", low, high, coverage * 100);
  }
}
