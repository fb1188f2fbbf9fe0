package io.ankusa.store.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ingest bench's ratio pairs each writer round with the raw round that ran next to it and takes
 * the median of those ratios, so a slow stretch of the machine that spans two rounds moves one
 * ratio, not the cell's.
 */
class WriterIngestRatioTest {

  @Test
  void aCellsRatioIsTheMedianOfItsPairedRounds() {
    // Round 2 ran while the machine was slow for both targets: paired, it is 1.00 like the others'
    // 1.00
    // and 0.90; the medians of the two targets would give 100/120 = 0.83.
    WriterIngestBench.Cell cell = cell(new double[] {100, 40, 90}, new double[] {100, 40, 120});
    assertThat(cell.roundRatios()).containsExactly(new double[] {1.00, 1.00, 0.75}, within(1e-9));
    assertThat(cell.ratio()).isCloseTo(1.00, within(1e-9));
    assertThat(cell.ratioOfMedians()).isCloseTo(90.0 / 100.0, within(1e-9));
    // Three rounds: the interval can only be the lowest to the highest, which holds the median 3
    // times in 4.
    assertThat(cell.ratioInterval().low()).isCloseTo(0.75, within(1e-9));
    assertThat(cell.ratioInterval().high()).isCloseTo(1.00, within(1e-9));
    assertThat(cell.ratioInterval().coverage()).isCloseTo(0.75, within(1e-9));
  }

  @Test
  void anEvenNumberOfRoundsTakesTheMeanOfTheMiddleTwoAndAnEmptyCellIsZero() {
    assertThat(cell(new double[] {90, 100, 110, 80}, new double[] {100, 100, 100, 100}).ratio())
        .isCloseTo((0.90 + 1.00) / 2, within(1e-9));
    assertThat(cell(new double[] {50}, new double[] {0}).roundRatios()).containsExactly(0.0);
    assertThat(WriterIngestBench.medianOf(new double[0])).isZero();
    double[] unsorted = {3, 1, 2};
    assertThat(WriterIngestBench.medianOf(unsorted)).isEqualTo(2);
    assertThat(unsorted).containsExactly(3, 1, 2);
  }

  @Test
  void processCpuIsPerStoredHookInTheWindowAndMinusOneWhereTheJvmDoesNotReportIt() {
    ThreadProbe.Reading idle = new ThreadProbe.Reading(0, 0, 1);
    // 10 000 hooks/s for 3 s is 30 000 hooks; 45 ms of CPU among them is 1.5 µs each.
    assertThat(
            new IngestRound.Result(10_000, 1, 2, 1, 1, 0, idle, idle, idle, 3.0, 45, Map.of())
                .processCpuMicrosPerHook())
        .isCloseTo(1.5, within(1e-9));
    assertThat(
            new IngestRound.Result(10_000, 1, 2, 1, 1, 0, idle, idle, idle, 3.0, -1, Map.of())
                .processCpuMicrosPerHook())
        .isEqualTo(-1);
    assertThat(
            new IngestRound.Result(0, 1, 2, 1, 1, 0, idle, idle, idle, 3.0, 45, Map.of())
                .processCpuMicrosPerHook())
        .isZero();
    assertThat(IngestRound.processCpuNanos()).isPositive();
  }

  private static WriterIngestBench.Cell cell(double[] writer, double[] raw) {
    return new WriterIngestBench.Cell(8, 10, 0.5, figures(writer), figures(raw));
  }

  private static WriterIngestBench.TargetFigures figures(double[] rates) {
    List<IngestRound.Result> rounds = new ArrayList<>();
    for (double rate : rates) {
      ThreadProbe.Reading idle = new ThreadProbe.Reading(0, 0, 1);
      rounds.add(new IngestRound.Result(rate, 1, 2, 1, 1, 0, idle, idle, idle, 3.0, 0, Map.of()));
    }
    return new WriterIngestBench.TargetFigures(
        WriterIngestBench.median(rounds, IngestRound.Result::hooksPerSecond), 0, 0, 0, 0, rounds);
  }
}
