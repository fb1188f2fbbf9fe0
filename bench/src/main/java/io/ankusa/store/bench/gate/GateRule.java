package io.ankusa.store.bench.gate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The pass rule of the gate benches: the slowest cell within {@code ratio}× of the fastest, the
 * fastest counted as at least {@code floorMs}, and the slowest under {@code limitMs}; every cell
 * measured while the background load ran at no less than {@code minLoadFraction} of its target (a
 * cell measured without the load has not met the rule's conditions). A cell that races a writer
 * ({@link GateCell#besideWriter()}) is compared per tick like the others ({@link RaceRound} says
 * why) and has two conditions more, at the same fraction: its writer ingested at no less than
 * {@code minLoadFraction} of its target rate (or the machine, or the tick, held it back), and its
 * ticks claimed no less than {@code minLoadFraction} of the rows the writer ingested meanwhile (or
 * the dispatcher did not keep up with its writer, however cheap its ticks).
 *
 * <p>Why 2× with a 1 ms floor, and a cell being the p10 of 1 000 ticks (lowest of three rounds):
 * the ticks cost well under the floor, and a median of such a tick moves between runs of the same
 * cell by about as much as the ratio allows (docs/measurements/gate.md); a bigger store costs a
 * little more per seek, which is not growth with the queue; a tick that grew with the queue (a
 * fold, a read per tenant) would cost far more than the floor at the top of either axis and fail
 * both limits.
 *
 * @param ratio most the slowest cell may be over the (floored) fastest
 * @param floorMs the fastest cell counts as at least this
 * @param limitMs every cell must be under this
 * @param minLoadFraction the achieved background load, as a fraction of its target, every cell
 *     needs; beside a writer, also the writer's achieved rate over its target and the rows claimed
 *     over the rows ingested
 */
public record GateRule(double ratio, double floorMs, double limitMs, double minLoadFraction) {
  /** The gate: 2×, 1 ms floor, 50 ms limit; the load at least 90 % of its 3 000 batches/s. */
  public static final GateRule STANDARD = new GateRule(2.0, 1.0, 50.0, 0.9);

  /**
   * How a cell beside a writer met its conditions.
   *
   * @param hooksFraction the writer's achieved rate over its target
   * @param claimedFraction rows the ticks claimed over rows the writer ingested, meanwhile
   */
  public record WriterConditions(double hooksFraction, double claimedFraction) {}

  /** {@link #judge(List, List, List)} of cells without a writer. */
  public Verdict judge(List<Double> cellMs, List<Double> loadFractions) {
    return judge(cellMs, loadFractions, Collections.nCopies(loadFractions.size(), null));
  }

  /**
   * The verdict on one bench's cells for one backend.
   *
   * @param cellMs each cell's value (ms), in any order; not empty
   * @param loadFractions each cell's achieved load over its target, same order
   * @param writers each cell's writer conditions, same order; null for a cell without a writer
   */
  public Verdict judge(
      List<Double> cellMs, List<Double> loadFractions, List<WriterConditions> writers) {
    if (cellMs.isEmpty()) {
      throw new IllegalArgumentException("a verdict needs at least one cell");
    }
    double fastest = Double.POSITIVE_INFINITY;
    double slowest = 0;
    for (double v : cellMs) {
      fastest = Math.min(fastest, v);
      slowest = Math.max(slowest, v);
    }
    double allowed = ratio * Math.max(fastest, floorMs);
    List<String> reasons = new ArrayList<>();
    if (slowest > allowed) {
      reasons.add(
          String.format(
              "slowest cell %.3f ms is more than %.1fx the fastest %.3f ms (floored at %.1f ms): allowed %.3f ms",
              slowest, ratio, fastest, floorMs, allowed));
    }
    if (slowest >= limitMs) {
      reasons.add(
          String.format("slowest cell %.3f ms is not under the %.1f ms limit", slowest, limitMs));
    }
    for (int i = 0; i < loadFractions.size(); i++) {
      if (loadFractions.get(i) < minLoadFraction) {
        reasons.add(
            String.format(
                "cell %d ran with the background load at %.0f%% of its target (needs %.0f%%):"
                    + " the rule's conditions were not met (a busy machine, or writes slowed by the tick itself: see loadWriteMicros)",
                i, 100 * loadFractions.get(i), 100 * minLoadFraction));
      }
    }
    for (int i = 0; i < writers.size(); i++) {
      WriterConditions w = writers.get(i);
      if (w == null) {
        continue;
      }
      if (!(w.hooksFraction() >= minLoadFraction)) {
        reasons.add(
            String.format(
                "cell %d's writer ingested at %.0f%% of its target rate (needs %.0f%%): the rule's"
                    + " conditions were not met (a busy machine, or a writer held back by the ticks: lower --ingest-rate to"
                    + " a rate the sustained bench measured as sustainable here)",
                i, 100 * w.hooksFraction(), 100 * minLoadFraction));
      }
      if (!(w.claimedFraction() >= minLoadFraction)) {
        reasons.add(
            String.format(
                "cell %d's ticks claimed %.0f%% of the rows its writer ingested meanwhile (needs"
                    + " %.0f%%): the dispatcher did not keep up with the writer",
                i, 100 * w.claimedFraction(), 100 * minLoadFraction));
      }
    }
    return new Verdict(reasons.isEmpty(), fastest, slowest, allowed, List.copyOf(reasons));
  }

  /**
   * @param pass whether every condition held
   * @param fastestMs the fastest cell
   * @param slowestMs the slowest cell
   * @param allowedMs what the slowest cell was allowed by the ratio rule
   * @param reasons why it failed; empty when it passed
   */
  public record Verdict(
      boolean pass, double fastestMs, double slowestMs, double allowedMs, List<String> reasons) {}
}
