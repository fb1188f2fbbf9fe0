package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs gate benches: for each backend and each cell of the mode, fills a new store once, starts the
 * {@link MergeLoad}, and measures every probe on it (a warm-up round, then the counted rounds of
 * paced ticks; in a backend's first cell, a back-to-back burst of a read-only tick before its
 * warm-up round), then the fold of the due family at the same size; the store is deleted before the
 * next cell. Sharing the store between probes keeps a full run's population to one per cell.
 *
 * <p>An ingest cell ({@link GateCell#besideWriter()}) also starts a {@link WriterLoad} after the
 * population, which ingests for the whole cell, and measures only the probes that race it ({@link
 * TickProbe#besideWriter}), in {@link RaceRound}s; it is skipped when no probe of the run does.
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
  public GateRun(
      GateMode mode,
      List<String> backends,
      List<TickProbe> probes,
      Path workDir,
      GateSettings settings) {
    this(mode, mode.cells(), backends, probes, workDir, settings);
  }

  /** A run over explicit {@code cells} (tests use tiny ones). */
  public GateRun(
      GateMode mode,
      List<GateCell> cells,
      List<String> backends,
      List<TickProbe> probes,
      Path workDir,
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
        if (cell.besideWriter() && probes.stream().noneMatch(GateRun::measuredBesideWriter)) {
          LOG.info(
              "{} {}: no bench of this run is measured beside a writer; cell skipped",
              backend,
              cell.label());
          continue;
        }
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

  /** Whether an ingest cell measures {@code probe} ({@link TickProbe#besideWriter}). */
  private static boolean measuredBesideWriter(TickProbe probe) {
    return probe.besideWriter(() -> 0L).isPresent();
  }

  /**
   * @param firstOfBackend whether this is the backend's first cell: each probe whose tick only
   *     reads ({@link TickProbe#readsOnly()}) then first ticks back to back for {@link
   *     GateSettings#jitWarmupMillis()}, untimed
   */
  private List<CellResult> measureCell(
      String backend, GateCell cell, Path dir, boolean firstOfBackend) {
    List<CellResult> out = new ArrayList<>();
    try (Store store = BenchStores.open(backend, dir, Format3.families())) {
      DeliveryQueue queue =
          DeliveryQueue.open(
              store,
              QueueConfig.defaults()
                  .withTenantsMax(Math.max(cell.tenants(), 1_000_000))
                  .withShardedAggregate(settings.shardedAggregate()));
      QueuePopulation.Population pop =
          QueuePopulation.populate(queue, cell, System.currentTimeMillis());
      LOG.info("{} {}: populated in {} ms", backend, cell.label(), pop.millis());
      MergeLoad load = MergeLoad.forCell(queue, cell, pop, settings.loadPerSecond());
      load.start();
      WriterLoad writer = null;
      try {
        if (cell.besideWriter()) {
          writer = WriterLoad.start(queue, cell.tenants(), cell.ingestPerSecond());
        }
        sleepMillis(settings.loadWarmupMillis());
        List<ProbeRounds> measured = new ArrayList<>();
        for (TickProbe probe : probes) {
          if (writer == null) {
            measured.add(measureQuiet(probe, queue, load, backend, firstOfBackend));
          } else {
            Optional<TickProbe> racing = probe.besideWriter(writer::durableSeq);
            if (racing.isPresent()) {
              measured.add(measureRace(racing.get(), queue, load, writer));
            }
          }
        }
        double foldMs = foldDue(queue);
        for (ProbeRounds m : measured) {
          TickProbe probe = m.probe();
          List<RoundStats> rounds = m.rounds();
          double value = RoundStats.lowestP10(rounds);
          CellResult result =
              new CellResult(
                  probe.bench(),
                  backend,
                  cell,
                  List.copyOf(rounds),
                  value,
                  foldMs,
                  m.loadPerSecond(),
                  settings.loadPerSecond(),
                  m.loadWriteMicros(),
                  pop.millis(),
                  m.rowsPerTick(),
                  m.writer());
          LOG.info(
              String.format(
                  "%-20s %-8s %-7s %9d rows %7d tenants  p10 %8.3f ms (rounds %s)  fold %9.3f ms  load %5.0f/s (write %.0f us)  %.1f rows/tick%s",
                  probe.bench(),
                  backend,
                  cell.axis(),
                  cell.rows(),
                  cell.tenants(),
                  value,
                  p10s(rounds),
                  foldMs,
                  m.loadPerSecond(),
                  m.loadWriteMicros(),
                  m.rowsPerTick(),
                  m.writer() == null
                      ? ""
                      : String.format(
                          "  writer %.0f/%d hooks/s, claimed %.0f of %.0f rows/s, %d refused",
                          m.writer().hooksPerSecond(),
                          m.writer().targetHooksPerSecond(),
                          m.writer().claimedRowsPerSecond(),
                          m.writer().rowsPerSecond(),
                          m.writer().refused())));
          warnOnSlowLoadWrites(m, backend, cell);
          out.add(result);
        }
      } finally {
        try {
          if (writer != null) {
            writer.close();
          }
        } finally {
          load.stop();
        }
      }
    }
    return out;
  }

  /** A probe's warm-up and counted rounds in a cell without a writer. */
  private ProbeRounds measureQuiet(
      TickProbe probe,
      DeliveryQueue queue,
      MergeLoad load,
      String backend,
      boolean firstOfBackend) {
    if (firstOfBackend && probe.readsOnly() && settings.jitWarmupMillis() > 0) {
      long ticks =
          TickRound.burst(
              settings.jitWarmupMillis(),
              now -> probe.tick(queue, now),
              now -> probe.settle(queue, now));
      LOG.info(
          "{} {}: {} ticks back to back before the first round (JIT warm-up, not counted)",
          probe.bench(),
          backend,
          ticks);
    }
    round(probe, queue); // warm-up, not counted
    probe.resetRows();
    LoadMark mark = new LoadMark(load);
    List<RoundStats> rounds = new ArrayList<>();
    for (int r = 0; r < settings.rounds(); r++) {
      rounds.add(round(probe, queue));
    }
    double rowsPerTick =
        (double) probe.rowsClaimed() / ((long) settings.rounds() * settings.ticksPerRound());
    return new ProbeRounds(probe, rounds, mark.perSecond(), mark.writeMicros(), rowsPerTick, null);
  }

  /**
   * A probe's warm-up and counted rounds racing {@code writer} ({@link RaceRound}): the rounds'
   * stats are its ticks that claimed a row; the writer's achieved rate and the rows claimed per
   * second go beside them.
   */
  private ProbeRounds measureRace(
      TickProbe probe, DeliveryQueue queue, MergeLoad load, WriterLoad writer) {
    raceRound(probe, queue); // warm-up, not counted: drains what the population left due
    probe.resetRows();
    LoadMark mark = new LoadMark(load);
    long hooks0 = writer.created();
    long rows0 = writer.rowsCreated();
    long refused0 = writer.refused();
    List<RoundStats> claiming = new ArrayList<>();
    List<RoundStats> empty = new ArrayList<>();
    for (int r = 0; r < settings.rounds(); r++) {
      RaceRound round = raceRound(probe, queue);
      claiming.add(round.claiming());
      empty.add(round.empty());
    }
    double seconds = mark.seconds();
    long ticks = claiming.stream().mapToLong(RoundStats::ticks).sum();
    double rowsPerTick = ticks == 0 ? 0 : (double) probe.rowsClaimed() / ticks;
    CellResult.WriterRace race =
        new CellResult.WriterRace(
            writer.targetPerSecond(),
            (writer.created() - hooks0) / seconds,
            (writer.rowsCreated() - rows0) / seconds,
            probe.rowsClaimed() / seconds,
            writer.refused() - refused0,
            List.copyOf(empty));
    return new ProbeRounds(
        probe, claiming, mark.perSecond(), mark.writeMicros(), rowsPerTick, race);
  }

  private void warnOnSlowLoadWrites(ProbeRounds m, String backend, GateCell cell) {
    if (m.loadWriteMicros() > SLOW_LOAD_WRITE_MICROS) {
      LOG.warn(
          "{} {} {}: the load's writes averaged {} us while this tick ran (not gated; see loadWriteMicros)",
          m.probe().bench(),
          backend,
          cell.label(),
          Math.round(m.loadWriteMicros()));
    }
  }

  /** The merge load's counts when the counted rounds started; what it achieved since. */
  private static final class LoadMark {
    private final MergeLoad load;
    private final long batches;
    private final long writeNanos;
    private final long startNanos;

    LoadMark(MergeLoad load) {
      this.load = load;
      this.batches = load.batches();
      this.writeNanos = load.writeNanos();
      this.startNanos = System.nanoTime();
    }

    double seconds() {
      return (System.nanoTime() - startNanos) / 1e9;
    }

    double perSecond() {
      return (load.batches() - batches) / seconds();
    }

    double writeMicros() {
      long n = load.batches() - batches;
      return n == 0 ? 0 : (load.writeNanos() - writeNanos) / 1e3 / n;
    }
  }

  /**
   * One probe's counted rounds on one cell and the load achieved meanwhile.
   *
   * @param writer beside a writer, how it and the ticks kept up; null otherwise
   */
  private record ProbeRounds(
      TickProbe probe,
      List<RoundStats> rounds,
      double loadPerSecond,
      double loadWriteMicros,
      double rowsPerTick,
      CellResult.WriterRace writer) {}

  /** One round of {@code probe} racing the cell's writer (see {@link RaceRound}). */
  private RaceRound raceRound(TickProbe probe, DeliveryQueue queue) {
    return RaceRound.run(settings, now -> probe.tick(queue, now), now -> probe.settle(queue, now));
  }

  /**
   * One round of {@code probe} on {@code queue}, settled after each tick (see {@link TickRound}).
   */
  private RoundStats round(TickProbe probe, DeliveryQueue queue) {
    return TickRound.run(settings, now -> probe.tick(queue, now), now -> probe.settle(queue, now));
  }

  /**
   * The fastest of {@code foldRuns} folds of the due family (every {@code 'D'} row, between
   * sentinels).
   */
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
