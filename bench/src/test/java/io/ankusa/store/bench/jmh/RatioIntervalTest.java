package io.ankusa.store.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * The fork interval around a SPI/raw ratio: where it sits, how wide it is, and when there is none.
 */
class RatioIntervalTest {
  @Test
  void sidesFromOneSpreadGiveAnIntervalAroundOne() {
    double[] forks = {2900, 3100, 3000, 2800, 3200, 3050, 2950, 3000};
    RatioInterval i = RatioInterval.of(forks, forks.clone());
    assertThat(i.low()).isLessThan(1.0).isGreaterThan(0.9);
    assertThat(i.high()).isGreaterThan(1.0).isLessThan(1.1);
    assertThat(i.meets(1.10)).isTrue();
    assertThat(i.misses(1.10)).isFalse();
    assertThat(i.spiForks()).isEqualTo(8);
    assertThat(i.rawForks()).isEqualTo(8);
  }

  @Test
  void aSlowerSideIsShownOverTheTarget() {
    double[] raw = {1000, 1020, 980, 1010, 990};
    double[] spi = {1300, 1320, 1280, 1310, 1290};
    RatioInterval i = RatioInterval.of(spi, raw);
    assertThat(i.low()).isGreaterThan(1.25);
    assertThat(i.high()).isLessThan(1.35);
    assertThat(i.misses(1.10)).isTrue();
    assertThat(i.meets(1.10)).isFalse();
  }

  @Test
  void forksThatDisagreeLeaveTheTargetUndecided() {
    // Two slow forks of eight on the SPI side: the point ratio is 1.06, but the run cannot tell.
    double[] raw = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    double[] spi = {900, 900, 900, 900, 900, 900, 1400, 1440};
    RatioInterval i = RatioInterval.of(spi, raw);
    assertThat(i.low()).isLessThan(1.0);
    assertThat(i.high()).isGreaterThan(1.10);
    assertThat(i.meets(1.10)).isFalse();
    assertThat(i.misses(1.10)).isFalse();
  }

  @Test
  void theSameScoresAlwaysGiveTheSameInterval() {
    double[] raw = {1000, 1100, 900};
    double[] spi = {1200, 1000, 1050};
    assertThat(RatioInterval.of(spi, raw)).isEqualTo(RatioInterval.of(spi, raw));
  }

  @Test
  void oneForkOnEitherSideGivesNoInterval() {
    assertThat(RatioInterval.of(new double[] {1000}, new double[] {1000, 1100})).isNull();
    assertThat(RatioInterval.of(new double[] {1000, 1100}, new double[] {1000})).isNull();
  }

  @Test
  void pairedRoundsCancelWhatTheMachineDidDuringEachRound() {
    // The machine slows down and speeds up between rounds; within each round the SPI is 10 %
    // slower.
    double[] raw = {1000, 2000, 1500, 1200, 1800};
    double[] spi = {1100, 2200, 1650, 1320, 1980};
    RatioInterval paired = RatioInterval.paired(spi, raw);
    assertThat(paired.paired()).isTrue();
    assertThat(paired.low()).isCloseTo(1.10, within(1e-9));
    assertThat(paired.high()).isCloseTo(1.10, within(1e-9));
    assertThat(RatioInterval.pairedRatio(spi, raw)).isCloseTo(1.10, within(1e-9));
    // Unpaired, the same forks cannot settle anything.
    RatioInterval unpaired = RatioInterval.of(spi, raw);
    assertThat(unpaired.paired()).isFalse();
    assertThat(unpaired.low()).isLessThan(0.95);
    assertThat(unpaired.high()).isGreaterThan(1.25);
  }

  @Test
  void pairedRoundsThatDisagreeGiveAWideInterval() {
    double[] raw = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
    double[] spi = {800, 1300, 900, 1400, 1000, 1200, 850, 1350};
    RatioInterval paired = RatioInterval.paired(spi, raw);
    assertThat(paired.low()).isLessThan(1.0);
    assertThat(paired.high()).isGreaterThan(1.10);
  }

  @Test
  void pairingNeedsOneScoreOfEachSidePerRound() {
    assertThatThrownBy(() -> RatioInterval.paired(new double[] {1, 2, 3}, new double[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one SPI and one raw score per round");
    assertThat(RatioInterval.paired(new double[] {1000}, new double[] {900})).isNull();
  }

  @Test
  void printsTwoDecimals() {
    assertThat(new RatioInterval(0.951, 1.086, 8, 8, true)).hasToString("[0.95, 1.09]");
  }
}
