package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The gate's settings: out-of-range values refused, and each {@code with…} changes its one field.
 */
class GateSettingsTest {
  @Test
  void outOfRangeSettingsAreRefused() {
    assertThatThrownBy(() -> new GateSettings(1_000, 3, 1_000, 3_000, 3, 500, -1, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gate settings out of range");
    assertThatThrownBy(() -> GateSettings.STANDARD.withTickIntervalMicros(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GateSettings.STANDARD.withLoadPerSecond(0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eachWitherChangesItsOwnFieldOnly() {
    GateSettings s = GateSettings.STANDARD;
    assertThat(s.jitWarmupMillis()).isEqualTo(2_000);
    assertThat(s.withJitWarmupMillis(0))
        .isEqualTo(new GateSettings(1_000, 3, 1_000, 3_000, 3, 500, 0, false));
    assertThat(s.withTickIntervalMicros(0))
        .isEqualTo(new GateSettings(1_000, 3, 0, 3_000, 3, 500, 2_000, false));
    assertThat(s.withLoadPerSecond(7))
        .isEqualTo(new GateSettings(1_000, 3, 1_000, 7, 3, 500, 2_000, false));
    assertThat(s.withShardedAggregate(true))
        .isEqualTo(new GateSettings(1_000, 3, 1_000, 3_000, 3, 500, 2_000, true));
  }
}
