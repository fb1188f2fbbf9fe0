package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs gate benches: for each backend and each cell of the mode, fills a new store once, starts the
 * {@link MergeLoad}, and measures every probe on it (a warm-up round, then the counted rounds of
 * paced ticks; in a backend's first cell, a back-to-back burst of a read-only tick before its warm-up
 * round), then the fold of the due family at the same size; the store is deleted before the next
 * cell. Sharing the store between probes keeps a full run's population to one per cell.
 */
public final class GateRun {
  private static final Logger LOG = LoggerFactory.getLogger(GateRun.class);
  /** A load write slower than this on average is worth a warning: the tick slows writers down. */
  private static final double SLOW_LOAD_WRITE_MICROS = 200;

  private final GateMode mode;
  private final List<String> backends;
  private final List<TickProbe> probes;
  private final Path workDir;
  private final GateSettings settings;
  private final List<GateCell> cells;

  /**
   * @param workDir where the cells' stores live while measured (each deleted after its cell)
   */
  public GateRun(GateMode mode, List<String> backends, List<TickProbe> probes, Path workDir, GateSettings settings) {
    this(mode, mode.cells(), backends, probes, workDir, settings);
  }

  /** A run over explicit {@code cells} (tests use tiny ones). */
  public GateRun(GateMode mode, List<GateCell> cells, List<String> backends, List<TickProbe> probes, Path workDir,
      GateSettings settings) {
    this.mode = mode;
    this.cells = List.copyOf(cells);
    this.backends = List.copyOf(backends);
    this.probes = List.copyOf(probes);
    this.workDir = workDir;
    this.settings = settings;
    backends.forEach(BenchStores::requireBackend);
  }

  /** Measures every cell; the results carry the verdicts. */
  public GateResults run() {
    GateResults results = new GateResults(mode, GateRule.STANDARD, probes);
    for (String backend : backends) {
      for (int i = 0; i < cells.size(); i++) {
        GateCell cell = cells.get(i);
        Path dir = workDir.resolve(backend + "-" + i + "-" + cell.axis() + "-" + cell.axisValue());
        FileTrees.deleteRecursively(dir);
        try {
          measureCell(backend, cell, dir, i == 0).forEach(results::add);
        } finally {
          FileTrees.deleteRecursively(dir);
        }
      }
    }
    return results;
  }

  /**
   * @param firstOfBackend whether this is the backend's first cell: each probe whose tick only reads
   *     ({@link TickProbe#readsOnly()}) then first ticks back to back for {@link
   *     GateSettings#jitWarmupMillis()}, untimed
   */
  private List<CellResult> measureCell(String backend, GateCell cell, Path dir, boolean firstOfBackend) {
    List<CellResult> out = new ArrayList<>();
    try (Store store = BenchStores.open(backend, dir, Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults().withTenantsMax(Math.max(cell.tenants(), 1_000_000))
          .withShardedAggregate(settings.shardedAggregate()));
      QueuePopulation.Population pop = QueuePopulation.populate(queue, cell, System.currentTimeMillis());
      LOG.info("{} {}: populated in {} ms", backend, cell.label(), pop.millis());
      MergeLoad load = new MergeLoad(queue, pop.activeOrds(), pop.activeTenants(), pop.aheadBaseAt(), pop.lastSeq(),
          settings.loadPerSecond());
      load.start();
      try {
        sleepMillis(settings.loadWarmupMillis());
        List<ProbeRounds> measured = new ArrayList<>();
        for (TickProbe probe : probes) {
          if (firstOfBackend && probe.readsOnly() && settings.jitWarmupMillis() > 0) {
            long ticks = TickRound.burst(settings.jitWarmupMillis(), now -> probe.tick(queue, now),
                now -> probe.settle(queue, now));
            LOG.info("{} {}: {} ticks back to back before the first round (JIT warm-up, not counted)", probe.bench(),
                backend, ticks);
          }
          round(probe, queue); // warm-up, not counted
          probe.resetRows();
          long batches0 = load.batches();
          long writes0 = load.writeNanos();
          long t0 = System.nanoTime();
          List<RoundStats> rounds = new ArrayList<>();
          for (int r = 0; r < settings.rounds(); r++) {
            rounds.add(round(probe, queue));
          }
          long loadBatches = load.batches() - batches0;
          double loadRate = loadBatches / ((System.nanoTime() - t0) / 1e9);
          double writeMicros = loadBatches == 0 ? 0 : (load.writeNanos() - writes0) / 1e3 / loadBatches;
          double rowsPerTick = (double) probe.rowsClaimed() / ((long) settings.rounds() * settings.ticksPerRound());
          measured.add(new ProbeRounds(probe, rounds, loadRate, writeMicros, rowsPerTick));
          if (writeMicros > SLOW_LOAD_WRITE_MICROS) {
            LOG.warn("{} {} {}: the load's writes averaged {} us while this tick ran (not gated; see loadWriteMicros)",
                probe.bench(), backend, cell.label(), Math.round(writeMicros));
          }
        }
        double foldMs = foldDue(queue);
        for (ProbeRounds m : measured) {
          TickProbe probe = m.probe();
          List<RoundStats> rounds = m.rounds();
          double value = rounds.stream().mapToDouble(RoundStats::p10Ms).min().orElseThrow();
          CellResult result = new CellResult(probe.bench(), backend, cell, List.copyOf(rounds), value, foldMs,
              m.loadPerSecond(), settings.loadPerSecond(), m.loadWriteMicros(), pop.millis(), m.rowsPerTick());
          LOG.info(String.format("%-20s %-8s %-7s %9d rows %7d tenants  p10 %8.3f ms (rounds %s)  fold %9.3f ms  load %5.0f/s (write %.0f us)  %.1f rows/tick",
              probe.bench(), backend, cell.axis(), cell.rows(), cell.tenants(), value, p10s(rounds), foldMs, m.loadPerSecond(), m.loadWriteMicros(), m.rowsPerTick()));
          out.add(result);
        }
      } finally {
        load.stop();
      }
    }
    return out;
  }

  /** One probe's counted rounds on one cell and the load achieved meanwhile. */
  private record ProbeRounds(TickProbe probe, List<RoundStats> rounds, double loadPerSecond, double loadWriteMicros,
      double rowsPerTick) {}

  /** One round of {@code probe} on {@code queue}, settled after each tick (see {@link TickRound}). */
  private RoundStats round(TickProbe probe, DeliveryQueue queue) {
    return TickRound.run(settings, now -> probe.tick(queue, now), now -> probe.settle(queue, now));
  }

  /** The fastest of {@code foldRuns} folds of the due family (every {@code 'D'} row, between sentinels). */
  private double foldDue(DeliveryQueue queue) {
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < settings.foldRuns(); i++) {
      long[] count = new long[1];
      long start = System.nanoTime();
      CounterFold.foldFamily(queue.store(), KeyFamily.DUE, e -> count[0] += e.value().length);
      best = Math.min(best, (System.nanoTime() - start) / 1e6);
    }
    return best;
  }

  private static String p10s(List<RoundStats> rounds) {
    StringBuilder sb = new StringBuilder();
    for (RoundStats r : rounds) {
      sb.append(sb.length() == 0 ? "" : " ").append(String.format("%.3f", r.p10Ms()));
    }
    return sb.toString();
  }

  private static void sleepMillis(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
