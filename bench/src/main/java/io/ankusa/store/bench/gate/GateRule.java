package io.ankusa.store.bench.gate;

import java.util.ArrayList;
import java.util.List;

/**
 * The pass rule of the gate benches: the slowest cell within {@code ratio}× of the fastest,
 * the fastest counted as at least {@code floorMs}, and the slowest under {@code limitMs}; every cell
 * measured while the background load ran at no less than {@code minLoadFraction} of its target
 * (a cell measured without the load has not met the rule's conditions).
 *
 * <p>Why 2× with a 1 ms floor, and a cell being the p10 of 1 000 ticks (lowest of three rounds):
 * the ticks cost well under the floor, and a median of such a tick moves between runs of the same
 * cell by about as much as the ratio allows (docs/measurements/gate.md); a bigger store costs a
 * little more per seek, which is not growth with the queue; a tick that grew with the queue (a fold,
 * a read per tenant) would cost far more than the floor at the top of either axis and fail both limits.
 *
 * @param ratio most the slowest cell may be over the (floored) fastest
 * @param floorMs the fastest cell counts as at least this
 * @param limitMs every cell must be under this
 * @param minLoadFraction the achieved background load, as a fraction of its target, every cell needs
 */
public record GateRule(double ratio, double floorMs, double limitMs, double minLoadFraction) {
  /** The gate: 2×, 1 ms floor, 50 ms limit; the load at least 90 % of its 3 000 batches/s. */
  public static final GateRule STANDARD = new GateRule(2.0, 1.0, 50.0, 0.9);

  /**
   * The verdict on one bench's cells for one backend.
   *
   * @param cellMs each cell's value (ms), in any order; not empty
   * @param loadFractions each cell's achieved load over its target, same order
   */
  public Verdict judge(List<Double> cellMs, List<Double> loadFractions) {
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
      reasons.add(String.format("slowest cell %.3f ms is more than %.1fx the fastest %.3f ms (floored at %.1f ms): allowed %.3f ms",
          slowest, ratio, fastest, floorMs, allowed));
    }
    if (slowest >= limitMs) {
      reasons.add(String.format("slowest cell %.3f ms is not under the %.1f ms limit", slowest, limitMs));
    }
    for (int i = 0; i < loadFractions.size(); i++) {
      if (loadFractions.get(i) < minLoadFraction) {
        reasons.add(String.format("cell %d ran with the background load at %.0f%% of its target (needs %.0f%%):"
            + " the rule's conditions were not met (a busy machine, or writes slowed by the tick itself: see loadWriteMicros)", i, 100 * loadFractions.get(i), 100 * minLoadFraction));
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
  public record Verdict(boolean pass, double fastestMs, double slowestMs, double allowedMs, List<String> reasons) {}
}
