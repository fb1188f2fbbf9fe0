package io.ankusa.store.bench.gate;

import java.util.List;

/**
 * One bench's measurement of one cell on one backend.
 *
 * @param bench the bench ({@link TickProbe#bench()})
 * @param backend the SPI backend
 * @param cell the queue's shape
 * @param rounds every counted round, in order (beside a writer, its ticks that claimed a row:
 *     {@link RaceRound})
 * @param valueMs the cell's value: the lowest p10 of the rounds
 * @param foldMs the fastest fold of the due family at the same size, under the same load (not
 *     gated)
 * @param loadPerSecond merging batches per second the background load achieved while the rounds ran
 * @param loadTargetPerSecond what it was asked for
 * @param loadWriteMicros mean wall-clock time of one load batch's write meanwhile
 * @param populateMs how long filling the store took
 * @param rowsPerTick rows the probe claimed per counted tick (0 for a probe that claims nothing)
 * @param writer how the writer and the ticks kept up, in a cell beside a writer; null in the others
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
    double rowsPerTick,
    WriterRace writer) {

  /** The cell's value per claimed row, in microseconds (0 when nothing was claimed). */
  public double microsPerClaimedRow() {
    return rowsPerTick == 0 ? 0 : valueMs * 1000 / rowsPerTick;
  }

  /** Achieved load over its target. */
  public double loadFraction() {
    return loadPerSecond / loadTargetPerSecond;
  }

  /** The conditions the rule checks of the writer's race; null without a writer. */
  public GateRule.WriterConditions writerConditions() {
    return writer == null
        ? null
        : new GateRule.WriterConditions(writer.hooksFraction(), writer.claimedFraction());
  }

  /**
   * The writer's race while the counted rounds ran.
   *
   * @param targetHooksPerSecond the producers' target
   * @param hooksPerSecond hooks the writer acknowledged as created (durable) per second
   * @param rowsPerSecond their delivery rows per second
   * @param claimedRowsPerSecond rows the ticks claimed per second
   * @param refused hooks the writer refused (overloaded, fenced) meanwhile
   * @param emptyTicks per counted round, the ticks that claimed nothing (not gated)
   */
  public record WriterRace(
      int targetHooksPerSecond,
      double hooksPerSecond,
      double rowsPerSecond,
      double claimedRowsPerSecond,
      long refused,
      List<RoundStats> emptyTicks) {

    /** The writer's achieved rate over its target. */
    public double hooksFraction() {
      return hooksPerSecond / targetHooksPerSecond;
    }

    /** Rows claimed over rows ingested, meanwhile (0 when nothing was ingested). */
    public double claimedFraction() {
      return rowsPerSecond == 0 ? 0 : claimedRowsPerSecond / rowsPerSecond;
    }
  }
}
