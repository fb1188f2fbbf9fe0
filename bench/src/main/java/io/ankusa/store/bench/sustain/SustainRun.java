package io.ankusa.store.bench.sustain;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.ingest.TaskCpu;
import io.ankusa.store.bench.ingest.WriterIngestBench;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.Delivery;
import io.ankusa.store.queue.QueueOptions;
import io.ankusa.store.queue.QueueStats;
import io.ankusa.store.queue.WebhookQueue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of the sustained-throughput bench: a new store of one backend, producers at a fixed rate
 * (or flat out), and either the whole queue runtime with sinks that deliver every claimed row at
 * once ({@link Mode#DISPATCH}), or the writer alone ({@link Mode#WRITER_ONLY}, the writer's own
 * flat-out rate). Every {@value #GAUGE_MILLIS} ms it reads the queue's gauges; every second it
 * records one {@link Second}. The store is deleted afterwards.
 */
final class SustainRun {
  /** How often the gauges are read. */
  static final long GAUGE_MILLIS = 200;

  /** Whether the queue delivers what it ingests, or only ingests. */
  enum Mode {
    DISPATCH,
    WRITER_ONLY
  }

  /**
   * One second of a run.
   *
   * @param second seconds since the producers started, at the end of this one
   * @param ingestHooks hooks acknowledged as created (durable) in this second
   * @param ingestRows their delivery rows
   * @param deliveredRows rows the sinks delivered in this second
   * @param reclaimedHooks hooks reclaim deleted in this second
   * @param pendingRows due rows (first attempts and retries) at the end of the second
   * @param inflightRows inflight rows at the end of the second
   * @param oldestDueMs the largest oldest-due age the gauges read in this second
   * @param engine the engine's own figures at the end of the second ({@link
   *     Store#engineStatistics()}), with running totals turned into this second's increase
   */
  record Second(
      int second,
      long ingestHooks,
      long ingestRows,
      long deliveredRows,
      long reclaimedHooks,
      long pendingRows,
      long inflightRows,
      long oldestDueMs,
      Map<String, Long> engine) {}

  /**
   * What a run measured.
   *
   * @param backend the backend
   * @param mode dispatching, or the writer alone
   * @param targetHooksPerSecond the producers' target; 0 for flat out
   * @param seconds each second of the run
   * @param oldestDueAges every oldest-due age the gauges read, in order
   * @param cpuMillis CPU time each group of threads used over the run, largest first ({@link
   *     TaskCpu}: the queue's threads, the producers, the engine's own such as RocksDB's flush and
   *     compaction threads, the JIT compiler and the collector)
   * @param loadBefore the machine's one-minute load average before the run
   * @param loadAfter the same after it
   */
  record Result(
      String backend,
      Mode mode,
      long targetHooksPerSecond,
      List<Second> seconds,
      long[] oldestDueAges,
      Map<String, Long> cpuMillis,
      double loadBefore,
      double loadAfter) {

    /**
     * CPU µs the threads whose group name starts with {@code group} used per unit of {@code count}.
     */
    double cpuMicrosPer(String group, long count) {
      long ms =
          cpuMillis.entrySet().stream()
              .filter(e -> e.getKey().startsWith(group))
              .mapToLong(Map.Entry::getValue)
              .sum();
      return count == 0 ? 0 : ms * 1000.0 / count;
    }

    /** Hooks acknowledged over the run. */
    long hooks() {
      return seconds.stream().mapToLong(Second::ingestHooks).sum();
    }

    /** Rows delivered over the run. */
    long delivered() {
      return seconds.stream().mapToLong(Second::deliveredRows).sum();
    }

    /** Hooks acknowledged per second over the run. */
    double ingestHooksPerSecond() {
      return seconds.stream().mapToLong(Second::ingestHooks).sum()
          / (double) Math.max(1, seconds.size());
    }

    /** Delivery rows per hook acknowledged. */
    double rowsPerHook() {
      long hooks = seconds.stream().mapToLong(Second::ingestHooks).sum();
      return hooks == 0 ? 0 : seconds.stream().mapToLong(Second::ingestRows).sum() / (double) hooks;
    }

    /** Rows delivered per second over the run. */
    double deliveredRowsPerSecond() {
      return seconds.stream().mapToLong(Second::deliveredRows).sum()
          / (double) Math.max(1, seconds.size());
    }

    /** Hooks reclaimed per second over the run. */
    double reclaimedHooksPerSecond() {
      return seconds.stream().mapToLong(Second::reclaimedHooks).sum()
          / (double) Math.max(1, seconds.size());
    }

    /** The 99th percentile of the oldest-due ages the gauges read (nearest rank). */
    long p99OldestDueMs() {
      if (oldestDueAges.length == 0) {
        return 0;
      }
      long[] sorted = oldestDueAges.clone();
      java.util.Arrays.sort(sorted);
      return sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
    }

    /** The most due rows at the end of any second. */
    long maxPendingRows() {
      return seconds.stream().mapToLong(Second::pendingRows).max().orElse(0);
    }

    /**
     * Whether the run sustained its rate: the producers reached at least 97 % of the target, the
     * p99 of the oldest-due age stayed at or under 1 s, and the due rows stayed under two seconds
     * of ingest. A flat-out or writer-only run is never "sustained": it has no target.
     */
    boolean sustained() {
      if (mode != Mode.DISPATCH || targetHooksPerSecond == 0) {
        return false;
      }
      double rowsPerSecond = targetHooksPerSecond * Math.max(1.0, rowsPerHook());
      return ingestHooksPerSecond() >= 0.97 * targetHooksPerSecond
          && p99OldestDueMs() <= 1_000
          && maxPendingRows() < 2 * rowsPerSecond;
    }
  }

  private SustainRun() {}

  /**
   * Runs backend {@code backend} for {@code seconds} seconds in {@code work} (emptied first and
   * deleted after), {@code producers} threads over {@code tenants} tenants at {@code
   * hooksPerSecond} (0: flat out). Dispatching, the queue runs through its front door ({@link
   * WebhookQueue}) with a synchronous handler that delivers everything it is handed, as a service
   * would run it.
   */
  static Result run(
      String backend,
      Mode mode,
      long hooksPerSecond,
      int seconds,
      int tenants,
      int producers,
      Path work) {
    FileTrees.deleteRecursively(work);
    MemoryStoreProvider.discard(work.resolve("store")); // a memory store outlives its files
    double loadBefore = WriterIngestBench.loadAverage();
    Map<String, String> options = Map.of("rocksdb.statistics", "1");
    Store store = BenchStores.open(backend, work.resolve("store"), Format3.families(), options);
    try {
      Sampler sampler;
      if (mode == Mode.DISPATCH) {
        try (WebhookQueue queue =
            WebhookQueue.open(
                store,
                QueueOptions.defaults(),
                deliveries -> deliveries.forEach(Delivery::delivered))) {
          try (PacedProducers producing =
              new PacedProducers(queue::ingest, producers, tenants, hooksPerSecond)) {
            sampler =
                new Sampler(
                    store,
                    producing,
                    () -> {
                      QueueStats q = queue.stats();
                      return new Reading(
                          q.due(), q.inflight(), q.oldestDueAgeMs(), q.delivered(), q.reclaimed());
                    });
            sampler.runFor(seconds);
          }
        }
      } else {
        DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
        QueueGauges gauges = new QueueGauges(queue);
        try (QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults());
            PacedProducers producing =
                new PacedProducers(writer::ingest, producers, tenants, hooksPerSecond)) {
          sampler =
              new Sampler(
                  store,
                  producing,
                  () -> {
                    QueueGauges.Gauge g = gauges.measure(System.currentTimeMillis());
                    return new Reading(
                        g.aggregate().due(), g.aggregate().inflight(), g.oldestDueAgeMs(), 0, 0);
                  });
          sampler.runFor(seconds);
        }
      }
      return new Result(
          backend,
          mode,
          hooksPerSecond,
          sampler.seconds,
          sampler.ages(),
          sampler.cpu,
          loadBefore,
          WriterIngestBench.loadAverage());
    } finally {
      store.close();
      FileTrees.deleteRecursively(work);
      MemoryStoreProvider.discard(work.resolve("store"));
    }
  }

  /** One reading of the queue: its backlog and what it delivered and reclaimed so far. */
  record Reading(
      long dueRows, long inflightRows, long oldestDueMs, long delivered, long reclaimed) {}

  /** Reads the queue and the counts on the bench's main thread. */
  private static final class Sampler {
    private final Store store;
    private final PacedProducers producing;
    private final java.util.function.Supplier<Reading> reading;
    final List<Second> seconds = new ArrayList<>();
    private final List<Long> ages = new ArrayList<>();

    /** CPU ms by thread group over the sampled seconds, read before any thread of the run ends. */
    Map<String, Long> cpu = Map.of();

    Sampler(Store store, PacedProducers producing, java.util.function.Supplier<Reading> reading) {
      this.store = store;
      this.producing = producing;
      this.reading = reading;
    }

    void runFor(int totalSeconds) {
      long start = System.nanoTime();
      long hooks = 0;
      long rows = 0;
      long deliveredRows = 0;
      long reclaimedHooks = 0;
      Map<String, Long> engineBefore = store.engineStatistics();
      TaskCpu.Reading cpuBefore = TaskCpu.read();
      for (int s = 1; s <= totalSeconds; s++) {
        long secondMaxAge = 0;
        Reading g = null;
        long secondEnd = start + TimeUnit.SECONDS.toNanos(s);
        while (true) {
          long now = System.nanoTime();
          if (now >= secondEnd) {
            break;
          }
          sleepNanos(Math.min(TimeUnit.MILLISECONDS.toNanos(GAUGE_MILLIS), secondEnd - now));
          g = reading.get();
          ages.add(g.oldestDueMs());
          secondMaxAge = Math.max(secondMaxAge, g.oldestDueMs());
        }
        Reading last = g == null ? reading.get() : g;
        long h = producing.created();
        long r = producing.rowsCreated();
        long d = last.delivered();
        long rc = last.reclaimed();
        Map<String, Long> engine = store.engineStatistics();
        seconds.add(
            new Second(
                s,
                h - hooks,
                r - rows,
                d - deliveredRows,
                rc - reclaimedHooks,
                last.dueRows(),
                last.inflightRows(),
                secondMaxAge,
                increase(engineBefore, engine)));
        hooks = h;
        rows = r;
        deliveredRows = d;
        reclaimedHooks = rc;
        engineBefore = engine;
      }
      cpu = TaskCpu.read().millisSince(cpuBefore);
    }

    long[] ages() {
      return ages.stream().mapToLong(Long::longValue).toArray();
    }

    private static void sleepNanos(long nanos) {
      try {
        TimeUnit.NANOSECONDS.sleep(nanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("the sustained-throughput bench was interrupted", e);
      }
    }
  }

  /**
   * The engine's figures at the end of a second: the running totals (names in {@link
   * #RUNNING_TOTALS}) as their increase since {@code before}, the others as read.
   */
  static Map<String, Long> increase(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> out = new HashMap<>();
    after.forEach(
        (name, value) ->
            out.put(
                name,
                RUNNING_TOTALS.contains(name) ? value - before.getOrDefault(name, 0L) : value));
    return out;
  }

  /** The engine figures that are running totals since the open. */
  static final List<String> RUNNING_TOTALS =
      List.of(
          "iteratorSeeks",
          "iteratorSteps",
          "iteratorKeysSkipped",
          "compactionReadBytes",
          "compactionWriteBytes");
}
