package io.ankusa.store.bench.sustain;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The highest rate one backend sustains (see {@link SustainRun.Result#sustained()}), found by runs
 * at fixed rates. First the writer alone flat out (the writer's own rate) and the whole queue flat
 * out; the first probe is the lower of what the flat-out queue ingested and delivered (in hooks).
 * While probes sustain, the next is 20 % higher, up to the writer's own rate; after the first that
 * does not, the search halves the interval between the best sustained and the lowest failed rate.
 * Rates are rounded to 100 hooks a second.
 */
final class MaxRateSearch {
  private static final Logger LOG = LoggerFactory.getLogger(MaxRateSearch.class);

  /**
   * What the search found for one backend.
   *
   * @param writerOnly the writer alone, flat out
   * @param flatOut the whole queue, flat out
   * @param probes the fixed-rate runs, in order
   * @param maxSustainedHooksPerSecond the highest probe rate that sustained; 0 if none did
   */
  record Outcome(
      String backend,
      SustainRun.Result writerOnly,
      SustainRun.Result flatOut,
      List<SustainRun.Result> probes,
      long maxSustainedHooksPerSecond) {

    /** The highest sustained rate over the writer's own flat-out rate. */
    double ratioToWriter() {
      double w = writerOnly.ingestHooksPerSecond();
      return w == 0 ? 0 : maxSustainedHooksPerSecond / w;
    }
  }

  private MaxRateSearch() {}

  static Outcome search(String backend, SustainSettings s) {
    Path work = s.out().resolve("work");
    SustainRun.Result writerOnly = run(backend, SustainRun.Mode.WRITER_ONLY, 0, s, work);
    SustainRun.Result flatOut = run(backend, SustainRun.Mode.DISPATCH, 0, s, work);
    long ceiling = round(writerOnly.ingestHooksPerSecond());
    double rowsPerHook = Math.max(1.0, flatOut.rowsPerHook());
    long rate =
        round(
            Math.min(
                flatOut.ingestHooksPerSecond(), flatOut.deliveredRowsPerSecond() / rowsPerHook));
    rate = Math.max(100, Math.min(rate, ceiling));
    long good = 0;
    long bad = Long.MAX_VALUE;
    List<SustainRun.Result> probes = new ArrayList<>();
    for (int i = 0; i < s.probes(); i++) {
      SustainRun.Result r = run(backend, SustainRun.Mode.DISPATCH, rate, s, work);
      probes.add(r);
      if (r.sustained()) {
        good = Math.max(good, rate);
      } else {
        bad = Math.min(bad, rate);
      }
      long next =
          bad == Long.MAX_VALUE ? Math.min(ceiling, round(rate * 1.2)) : round((good + bad) / 2.0);
      if (good == 0 && bad != Long.MAX_VALUE) {
        next = Math.max(100, round(bad * 0.7));
      }
      if (next == rate || next <= good || next >= bad) {
        break;
      }
      rate = next;
    }
    return new Outcome(backend, writerOnly, flatOut, probes, good);
  }

  private static SustainRun.Result run(
      String backend, SustainRun.Mode mode, long rate, SustainSettings s, Path work) {
    LOG.info(
        "sustain: {} {} at {} for {} s",
        backend,
        mode,
        rate == 0 ? "flat out" : rate + " hooks/s",
        s.seconds());
    SustainRun.Result r =
        SustainRun.run(backend, mode, rate, s.seconds(), s.tenants(), s.producers(), work);
    LOG.info("sustain: {}", SustainReport.line(r));
    return r;
  }

  private static long round(double hooksPerSecond) {
    return Math.round(hooksPerSecond / 100.0) * 100;
  }
}
