package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A round beside a writer times only the ticks that claimed a row into its value, keeps the empty
 * ones apart, settles after every tick, and ends without its claiming ticks when none come; a
 * cell's value skips a round that timed nothing.
 */
class RaceRoundTest {
  /**
   * Ten ticks a round, back to back: a round without claims ends after ten nominal milliseconds
   * each.
   */
  private static final GateSettings FAST = new GateSettings(10, 1, 0, 500, 1, 0, 0, false);

  @Test
  void onlyTheTicksThatClaimedARowAreTheRoundsValueAndTheEmptyOnesAreKeptApart() {
    long[] calls = {0};
    List<Long> settled = new ArrayList<>();
    RaceRound round = RaceRound.run(FAST, now -> calls[0]++ % 3 == 0 ? 5 : 0, settled::add);
    assertThat(round.claiming().ticks()).isEqualTo(FAST.ticksPerRound());
    assertThat(round.empty().ticks())
        .as("two empty ticks between claiming ones")
        .isEqualTo(2 * (FAST.ticksPerRound() - 1));
    assertThat(settled).hasSize((int) calls[0]);
  }

  @Test
  void aRoundWhoseTicksNeverClaimEndsWithoutClaimingTicks() {
    RaceRound round = RaceRound.run(FAST, now -> 0, now -> {});
    assertThat(round.claiming().ticks()).isZero();
    assertThat(round.empty().ticks()).isPositive();
  }

  @Test
  void theCellsValueIsTheLowestP10OfTheRoundsThatTimedATick() {
    RoundStats none = new RoundStats(0, 0, 0, 0, 0);
    RoundStats slow = new RoundStats(10, 0.5, 0.6, 0.9, 1.0);
    RoundStats fast = new RoundStats(10, 0.3, 0.4, 0.9, 1.0);
    assertThat(RoundStats.lowestP10(List.of(none, slow, fast))).isEqualTo(0.3);
    assertThat(RoundStats.lowestP10(List.of(none))).isZero();
  }
}
