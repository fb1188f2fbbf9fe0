package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** How a round and a warm-up burst run their ticks. */
class TickRoundTest {
  @Test
  void aBurstTicksBackToBackForItsTimeAndSettlesEveryTick() {
    AtomicLong ticks = new AtomicLong();
    AtomicLong settled = new AtomicLong();
    long start = System.nanoTime();
    long ran =
        TickRound.burst(40, now -> ticks.incrementAndGet(), now -> settled.incrementAndGet());
    long tookMillis = (System.nanoTime() - start) / 1_000_000;

    assertThat(tookMillis).isGreaterThanOrEqualTo(40);
    assertThat(ran).isEqualTo(ticks.get()).isEqualTo(settled.get());
    // Back to back: far more ticks than the 40 a 1 ms schedule would start.
    assertThat(ran).isGreaterThan(1_000);
  }

  @Test
  void aBurstOfNoTimeRunsNoTick() {
    AtomicLong ticks = new AtomicLong();
    assertThat(TickRound.burst(0, now -> ticks.incrementAndGet(), now -> {})).isZero();
    assertThat(ticks.get()).isZero();
  }

  @Test
  void aRoundTimesEveryTickAndSettlesEachOne() {
    AtomicLong settled = new AtomicLong();
    RoundStats stats =
        TickRound.run(
            new GateSettings(25, 1, 0, 1, 1, 0, 0, false),
            now -> now,
            now -> settled.incrementAndGet());
    assertThat(stats.ticks()).isEqualTo(25);
    assertThat(settled.get()).isEqualTo(25);
  }
}
