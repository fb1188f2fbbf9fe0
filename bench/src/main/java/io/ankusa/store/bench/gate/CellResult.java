package io.ankusa.store.bench.gate;

import java.util.List;

/**
 * One bench's measurement of one cell on one backend.
 *
 * @param bench the bench ({@link TickProbe#bench()})
 * @param backend the SPI backend
 * @param cell the queue's shape
 * @param rounds every counted round, in order
 * @param valueMs the cell's value: the lowest p10 of the rounds
 * @param foldMs the fastest fold of the due family at the same size, under the same load (not gated)
 * @param loadPerSecond merging batches per second the background load achieved while the rounds ran
 * @param loadTargetPerSecond what it was asked for
 * @param loadWriteMicros mean wall-clock time of one load batch's write meanwhile
 * @param populateMs how long filling the store took
 * @param rowsPerTick rows the probe claimed per counted tick (0 for a probe that claims nothing)
 */
public record CellResult(
    String bench,
    String backend,
    GateCell cell,
    List<RoundStats> rounds,
    double valueMs,
    double foldMs,
    double loadPerSecond,
    int loadTargetPerSecond,
    double loadWriteMicros,
    long populateMs,
    double rowsPerTick) {

  /** The cell's value per claimed row, in microseconds (0 when nothing was claimed). */
  public double microsPerClaimedRow() {
    return rowsPerTick == 0 ? 0 : valueMs * 1000 / rowsPerTick;
  }

  /** Achieved load over its target. */
  public double loadFraction() {
    return loadPerSecond / loadTargetPerSecond;
  }
}
