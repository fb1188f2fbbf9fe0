package io.ankusa.store.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.ankusa.store.bench.jmh.SpiOverheadReport.ForkScores;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ratio table built from forks, whether they came from one JMH run or from one run per fork.
 */
class SpiOverheadReportTest {
  private static final String CASE = "EngineBench.pointGet threads=1";

  @Test
  void forksOfOneCaseFromSeveralRunsArePooled() {
    // Two rounds of one fork each, as the interleaved mode produces them.
    List<ForkScores> forks =
        List.of(
            new ForkScores(CASE, "lmdb", 1, "ns/op", new double[] {1200, 1300}),
            new ForkScores(CASE, "raw-lmdb", 1, "ns/op", new double[] {1000, 1000}),
            new ForkScores(CASE, "lmdb", 2, "ns/op", new double[] {1100, 1200}),
            new ForkScores(CASE, "raw-lmdb", 2, "ns/op", new double[] {1000, 1200}));

    Map<String, Object> lmdb = row(SpiOverheadReport.report(forks), "lmdb");
    assertThat(lmdb.get("forks")).isEqualTo(2);
    assertThat((double) lmdb.get("score")).isEqualTo(1200.0);
    assertThat((double) lmdb.get("median")).isEqualTo(1200.0);
    assertThat((double) lmdb.get("spiOverRaw")).isCloseTo(1200.0 / 1050.0, within(1e-9));
    assertThat((double) lmdb.get("spiOverRawOfMedians")).isCloseTo(1200.0 / 1000.0, within(1e-9));
    // Paired by round: 1250 / 1000 in round 1, 1150 / 1100 in round 2.
    assertThat((double) lmdb.get("spiOverRawPaired"))
        .isCloseTo(Math.sqrt(1.25 * (1150.0 / 1100.0)), within(1e-9));
    assertThat(lmdb.get("intervalOver")).isEqualTo("rounds");
    assertThat((double) lmdb.get("spiOverRawLow")).isCloseTo(1150.0 / 1100.0, within(1e-9));
    assertThat((double) lmdb.get("spiOverRawHigh")).isCloseTo(1.25, within(1e-9));

    Map<String, Object> raw = row(SpiOverheadReport.report(forks), "raw-lmdb");
    assertThat(raw.get("forks")).isEqualTo(2);
    assertThat(raw.get("spiOverRaw")).isNull();
    assertThat(raw.get("spiOverRawLow")).isNull();
  }

  /**
   * Over any two consecutive rounds, every SPI backend runs once before its raw baseline and once
   * after it; the first round keeps the order given.
   */
  @Test
  void eachSpiBackendRunsBeforeItsBaselineInHalfTheRounds() {
    List<String> given = List.of(EngineTarget.NAMES);
    assertThat(SpiOverheadReport.engineOrder(given, 1)).isEqualTo(given);
    for (String spi : List.of("rocksdb", "lmdb")) {
      String raw = EngineTarget.baselineOf(spi);
      int before = 0;
      for (int round = 1; round <= 4; round++) {
        List<String> order = SpiOverheadReport.engineOrder(given, round);
        assertThat(order).containsExactlyInAnyOrderElementsOf(given);
        before += order.indexOf(spi) < order.indexOf(raw) ? 1 : 0;
      }
      assertThat(before).as("rounds of four in which %s ran before %s", spi, raw).isEqualTo(2);
    }
  }

  @Test
  void forksOutsideRoundsAreNotPaired() {
    // JMH's own order: every SPI fork, then every raw fork. A round's drift cannot be told apart.
    List<ForkScores> forks =
        List.of(
            new ForkScores(CASE, "lmdb", 0, "ns/op", new double[] {1250}),
            new ForkScores(CASE, "lmdb", 0, "ns/op", new double[] {1150}),
            new ForkScores(CASE, "raw-lmdb", 0, "ns/op", new double[] {1000}),
            new ForkScores(CASE, "raw-lmdb", 0, "ns/op", new double[] {1100}));
    Map<String, Object> lmdb = row(SpiOverheadReport.report(forks), "lmdb");
    assertThat(lmdb.get("spiOverRawPaired")).isNull();
    assertThat(lmdb.get("intervalOver")).isEqualTo("forks");
    // Over each side's forks: 1150 against 1100 at the low end, 1250 against 1000 at the high end.
    assertThat((double) lmdb.get("spiOverRawLow")).isCloseTo(1150.0 / 1100.0, within(1e-9));
    assertThat((double) lmdb.get("spiOverRawHigh")).isCloseTo(1.25, within(1e-9));
  }

  @Test
  void aRoundMissingOneSideIsNotPaired() {
    List<ForkScores> forks =
        List.of(
            new ForkScores(CASE, "lmdb", 1, "ns/op", new double[] {1250}),
            new ForkScores(CASE, "lmdb", 2, "ns/op", new double[] {1150}),
            new ForkScores(CASE, "raw-lmdb", 1, "ns/op", new double[] {1000}),
            new ForkScores(CASE, "raw-lmdb", 3, "ns/op", new double[] {1100}));
    Map<String, Object> lmdb = row(SpiOverheadReport.report(forks), "lmdb");
    assertThat(lmdb.get("spiOverRawPaired")).isNull();
    assertThat(lmdb.get("intervalOver")).isEqualTo("forks");
  }

  @Test
  void aCaseWithoutItsBaselineHasNoRatio() {
    List<ForkScores> forks =
        List.of(new ForkScores(CASE, "rocksdb", 0, "ns/op", new double[] {2000, 2100}));
    Map<String, Object> rocksdb = row(SpiOverheadReport.report(forks), "rocksdb");
    assertThat(rocksdb.get("baseline")).isEqualTo("raw-rocksdb");
    assertThat(rocksdb.get("spiOverRaw")).isNull();
    assertThat(rocksdb.get("spiOverRawHigh")).isNull();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> row(Map<String, Object> json, String engine) {
    return ((List<Map<String, Object>>) json.get("results"))
        .stream().filter(r -> r.get("engine").equals(engine)).findFirst().orElseThrow();
  }
}
