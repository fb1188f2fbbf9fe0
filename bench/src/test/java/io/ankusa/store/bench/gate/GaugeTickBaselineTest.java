package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GaugeTickBaseline}: both sides of a cell measured, bad arguments refused with status 2.
 */
class GaugeTickBaselineTest {
  @TempDir Path dir;

  @Test
  void theBaselineMeasuresBothSidesOfACell() throws Exception {
    GateSettings tiny = new GateSettings(20, 2, 0, 500, 1, 0, 0, false);
    GaugeTickBaseline.CellFigures f =
        GaugeTickBaseline.measure(
            new GateCell("rows", 500, 20, 8),
            dir.resolve("cell"),
            tiny.withJitWarmupMillis(30),
            3,
            true);
    assertThat(f.spiRounds()).hasSize(3).allSatisfy(r -> assertThat(r.ticks()).isEqualTo(20));
    assertThat(f.rawRounds()).hasSize(3).allSatisfy(r -> assertThat(r.ticks()).isEqualTo(20));
    assertThat(f.spiP10()).isPositive();
    assertThat(f.rawP10()).isPositive();
    assertThat(f.spiP50()).isGreaterThanOrEqualTo(f.spiP10());
    assertThat(Files.exists(dir.resolve("cell"))).isTrue();
  }

  @Test
  void badArgumentsExitWithStatusTwoAndWriteNothing() {
    assertThat(GaugeTickBaseline.run("--rounds", "0", "--out", dir.resolve("a").toString()))
        .isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--mode", "huge", "--out", dir.resolve("b").toString()))
        .isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--aggregate", "both", "--out", dir.resolve("c").toString()))
        .isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--interval-us", "-1", "--out", dir.resolve("d").toString()))
        .isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--load", "0", "--out", dir.resolve("e").toString()))
        .isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--load", "lots", "--out", dir.resolve("f").toString()))
        .isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--frobnicate", "1")).isEqualTo(2);
    assertThat(GaugeTickBaseline.run("--rounds")).isEqualTo(2);
    assertThat(dir).isEmptyDirectory();
  }
}
