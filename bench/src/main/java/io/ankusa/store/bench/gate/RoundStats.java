package io.ankusa.store.bench.gate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The distribution of one round of ticks, in milliseconds.
 *
 * @param ticks how many ticks the round timed
 * @param p10Ms 10th percentile: the round's value in the gate rule
 * @param p50Ms median
 * @param p99Ms 99th percentile
 * @param maxMs slowest tick
 */
public record RoundStats(int ticks, double p10Ms, double p50Ms, double p99Ms, double maxMs) {
  /** The stats of a histogram recorded in nanoseconds. */
  public static RoundStats of(Histogram nanos) {
    return new RoundStats(
        (int) nanos.getTotalCount(),
        ms(nanos.getValueAtPercentile(10)),
        ms(nanos.getValueAtPercentile(50)),
        ms(nanos.getValueAtPercentile(99)),
        ms(nanos.getMaxValue()));
  }

  /**
   * A cell's value: the lowest p10 of the rounds that timed at least one tick (a round beside a
   * writer may end without one: {@link RaceRound}); 0 when none did.
   */
  public static double lowestP10(List<RoundStats> rounds) {
    return rounds.stream()
        .filter(r -> r.ticks() > 0)
        .mapToDouble(RoundStats::p10Ms)
        .min()
        .orElse(0);
  }

  /** This round for a results file: ticks, p10Ms, p50Ms, p99Ms, maxMs. */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ticks", ticks);
    m.put("p10Ms", p10Ms);
    m.put("p50Ms", p50Ms);
    m.put("p99Ms", p99Ms);
    m.put("maxMs", maxMs);
    return m;
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
