package io.ankusa.store.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The median's order-statistic interval: the coverage arithmetic, the pick, and the coverage
 * itself.
 */
class MedianIntervalTest {

  @Test
  void coverageIsOneMinusBothBinomialTails() {
    assertThat(MedianInterval.coverage(5, 1)).isCloseTo(1 - 2.0 / 32, within(1e-12));
    assertThat(MedianInterval.coverage(11, 1)).isCloseTo(1 - 2.0 / 2048, within(1e-12));
    assertThat(MedianInterval.coverage(11, 2)).isCloseTo(1 - 2.0 * 12 / 2048, within(1e-12));
    assertThat(MedianInterval.coverage(11, 3)).isCloseTo(1 - 2.0 * 67 / 2048, within(1e-12));
    assertThat(MedianInterval.coverage(1, 1)).isZero();
  }

  @Test
  void fiveSamplesGiveTheirWholeRangeAndElevenDropTheExtremes() {
    MedianInterval five = MedianInterval.of(new double[] {1.3, 0.8, 1.0, 0.9, 1.1});
    assertThat(five.low()).isEqualTo(0.8);
    assertThat(five.high()).isEqualTo(1.3);
    assertThat(five.coverage()).isCloseTo(0.9375, within(1e-12));

    MedianInterval eleven = MedianInterval.of(new double[] {5, 1, 9, 3, 7, 11, 2, 8, 4, 10, 6});
    assertThat(eleven.low()).isEqualTo(2);
    assertThat(eleven.high()).isEqualTo(10);
    assertThat(eleven.coverage()).isCloseTo(1 - 2.0 * 12 / 2048, within(1e-12));
    assertThat(eleven).hasToString("[2.00, 10.00] 99%");
  }

  @Test
  void theIntervalHoldsTheTrueMedianAsOftenAsItsCoverageSays() {
    // Samples from a skewed distribution whose median is known: exp(N(0, 1)) has median 1.
    Random random = new Random(7);
    int trials = 4_000;
    int held = 0;
    double coverage = 0;
    for (int t = 0; t < trials; t++) {
      double[] samples = new double[11];
      for (int i = 0; i < samples.length; i++) {
        samples[i] = Math.exp(random.nextGaussian());
      }
      MedianInterval interval = MedianInterval.of(samples);
      coverage = interval.coverage();
      held += interval.low() <= 1 && 1 <= interval.high() ? 1 : 0;
    }
    assertThat((double) held / trials).isCloseTo(coverage, within(0.01));
  }

  @Test
  void noSamplesIsRefused() {
    assertThatThrownBy(() -> MedianInterval.of(new double[0]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one sample");
  }
}
