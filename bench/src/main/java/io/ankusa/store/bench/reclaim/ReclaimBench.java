package io.ankusa.store.bench.reclaim;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.ingest.WriterIngestBench;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.ClearedKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.Reclaim;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.queue.internal.runtime.RuntimeSettings;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does reclaim keep up with delivery? Two measurements in one run, on one backend:
 *
 * <ol>
 *   <li><b>live</b>: a {@link QueueRuntime} whose handler delivers every claimed row at once, fed
 *       by producer threads through its writer for {@code --seconds}; every second the hooks stored
 *       and the hooks still owed are counted from a snapshot ({@link Reclaim#backlog}; the count
 *       itself loads the store a little). Reported: delivered rows/s, finished hooks/s (hooks
 *       nothing owes any more: reclaimed + still stored), reclaimed hooks/s, their ratio, and the
 *       largest "stored − owed" seen. While producing, the ratio sits just under 1× by
 *       construction: the hooks finished since reclaim's last pass are counted as finished and not
 *       yet as reclaimed. So the run goes on without producers (up to 10 s) until no finished hook
 *       is left stored, and reports the ratio then (target 1×: nothing piles up);
 *   <li><b>pass</b>: the same population of {@code --hooks} delivered hooks in two stores,
 *       reclaimed by {@link Reclaim#pass} and by the former pass (a scan of the markers from the
 *       head, then a range read and a point read per hook, kept here as the baseline): hooks/s of
 *       each and the ratio;
 *   <li><b>capacity</b>: the pass's hooks/s over the live finished hooks/s — how many times faster
 *       than delivery reclaim can run (target ≥ 1×).
 * </ol>
 *
 * Nothing is asserted: the figures are ratios within the run, to be read with the load average
 * printed beside them. Usage: {@code ReclaimBench [--backend rocksdb] [--seconds 10] [--producers
 * 4] [--tenants 200] [--hooks 100000] [--out DIR] [--work DIR]}.
 */
public final class ReclaimBench {
  private static final Logger LOG = LoggerFactory.getLogger(ReclaimBench.class);
  private static final int PASS_LIMIT = 10_000;

  private ReclaimBench() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args));
  }

  /** Runs the bench; returns 0, or 2 on bad arguments. */
  public static int run(String... args) throws Exception {
    String backend = "rocksdb";
    int seconds = 10;
    int producers = 4;
    int tenants = 200;
    int hooks = 100_000;
    Path out = Path.of("bench-results", "reclaim");
    Path work = null;
    try {
      for (int i = 0; i < args.length; i += 2) {
        String v = args[i + 1];
        switch (args[i]) {
          case "--backend" -> backend = BenchStores.requireBackend(v);
          case "--seconds" -> seconds = Integer.parseInt(v);
          case "--producers" -> producers = Integer.parseInt(v);
          case "--tenants" -> tenants = Integer.parseInt(v);
          case "--hooks" -> hooks = Integer.parseInt(v);
          case "--out" -> out = Path.of(v);
          case "--work" -> work = Path.of(v);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
      }
      if (seconds < 1 || producers < 1 || tenants < 1 || hooks < 1) {
        throw new IllegalArgumentException(
            "--seconds, --producers, --tenants and --hooks must be at least 1");
      }
    } catch (RuntimeException e) {
      LOG.error(
          "{}; usage: ReclaimBench [--backend rocksdb] [--seconds 10] [--producers 4] [--tenants 200]"
              + " [--hooks 100000] [--out DIR] [--work DIR]",
          e.getMessage());
      return 2;
    }
    Path workDir = work == null ? out.resolve("work") : work;
    StringBuilder report = new StringBuilder();
    report.append(
        String.format(
            "reclaim bench, %s; load average %.2f at start%n",
            backend, WriterIngestBench.loadAverage()));
    double finishedPerSecond =
        live(backend, workDir.resolve("live"), seconds, producers, tenants, report);
    double capacity = passes(backend, workDir, hooks, report);
    report.append(
        String.format(
            "%ncapacity: Reclaim.pass %,.0f hooks/s over live finished %,.0f hooks/s = %.1f×"
                + " (how many times faster than delivery reclaim can run)%n",
            capacity, finishedPerSecond, capacity / finishedPerSecond));
    report.append(String.format("load average %.2f at end%n", WriterIngestBench.loadAverage()));
    LOG.info("\n{}", report);
    try {
      Files.createDirectories(out);
      Files.writeString(out.resolve("reclaim.txt"), report.toString(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the reclaim bench results to " + out, e);
    }
    return 0;
  }

  /** Longest wait for reclaim to catch up once the producers stop. */
  private static final long DRAIN_MS = 10_000;

  /** The runtime under load, sampled every second; returns the finished hooks/s while producing. */
  private static double live(
      String backend, Path dir, int seconds, int producers, int tenants, StringBuilder report)
      throws InterruptedException {
    FileTrees.deleteRecursively(dir);
    LongAdder delivered = new LongAdder();
    TickHandler deliverAll =
        (queue, tick, now) -> {
          Transition t = new Transition();
          for (InflightRow row : tick.claimed()) {
            Deliveries.delivered(t, row);
          }
          queue.write(t, Durability.NO_SYNC);
          delivered.add(tick.rowsClaimed());
        };
    long maxUnowed = 0;
    Reclaim.Backlog end;
    long reclaimed;
    double secs;
    long drainedReclaimed;
    long drainedUnowed;
    long drainMs;
    report.append(
        String.format(
            "%nlive: %d producers, %d tenants, %d s; stored / owed / not owed each second:%n",
            producers, tenants, seconds));
    try (Store store = BenchStores.open(backend, dir, Format3.families());
        QueueRuntime runtime =
            QueueRuntime.start(
                store,
                QueueConfig.defaults(),
                RuntimeSettings.defaults(),
                deliverAll,
                null,
                System::currentTimeMillis)) {
      AtomicBoolean producing = new AtomicBoolean(true);
      List<Thread> threads = new ArrayList<>();
      long start = System.nanoTime();
      for (int p = 0; p < producers; p++) {
        int id = p;
        Thread t =
            new Thread(
                () -> produce(runtime.writer(), id, tenants, producing),
                "reclaim-bench-producer-" + p);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
      try {
        for (int s = 1; s <= seconds; s++) {
          Thread.sleep(1_000);
          Reclaim.Backlog b = backlog(store);
          maxUnowed = Math.max(maxUnowed, b.unowed());
          report.append(
              String.format("  %3d s  %,10d  %,10d  %,10d%n", s, b.stored(), b.owed(), b.unowed()));
        }
      } finally {
        producing.set(false);
        for (Thread t : threads) {
          t.join();
        }
      }
      secs = (System.nanoTime() - start) / 1e9;
      reclaimed = runtime.reclaimedHooks();
      end = backlog(store);
      // then let the runtime run on without producers until nothing finished is left stored
      long drainStart = System.nanoTime();
      Reclaim.Backlog drained = end;
      while (drained.unowed() > 0 && System.nanoTime() - drainStart < DRAIN_MS * 1_000_000L) {
        Thread.sleep(100);
        drained = backlog(store);
      }
      drainedReclaimed = runtime.reclaimedHooks();
      drainedUnowed = drained.unowed();
      drainMs = (System.nanoTime() - drainStart) / 1_000_000L;
    }
    long finished = reclaimed + end.unowed();
    report.append(
        String.format(
            "  delivered rows/s %,.0f; finished hooks/s %,.0f; reclaimed hooks/s %,.0f;"
                + " reclaimed / finished %.3f×; most hooks not owed but stored %,d; at the end %,d%n",
            delivered.sum() / secs,
            finished / secs,
            reclaimed / secs,
            finished == 0 ? 1.0 : (double) reclaimed / finished,
            maxUnowed,
            end.unowed()));
    long drainedFinished = drainedReclaimed + drainedUnowed;
    report.append(
        String.format(
            "  after the producers stopped: %,d ms until %,d finished hooks were left stored;"
                + " reclaimed / finished then %.3f×%n",
            drainMs,
            drainedUnowed,
            drainedFinished == 0 ? 1.0 : (double) drainedReclaimed / drainedFinished));
    FileTrees.deleteRecursively(dir);
    return finished / secs;
  }

  private static Reclaim.Backlog backlog(Store store) {
    try (Snapshot view = store.snapshot()) {
      return Reclaim.backlog(view);
    }
  }

  /** One producer: 1 or 2 sinks, at most 256 requests in flight. */
  private static void produce(QueueWriter writer, int id, int tenants, AtomicBoolean producing) {
    SplittableRandom random = new SplittableRandom(id);
    Semaphore inflight = new Semaphore(256);
    byte[] payload = new byte[512];
    long n = 0;
    while (producing.get()) {
      List<Integer> sinks = random.nextInt(4) == 0 ? List.of(1, 2) : List.of(1);
      IngestRequest r =
          new IngestRequest(
              "tenant-" + random.nextInt(tenants),
              "bench",
              "p" + id + "-" + n,
              null,
              System.currentTimeMillis(),
              sinks,
              payload);
      n++;
      inflight.acquireUninterruptibly();
      writer.ingest(r).whenComplete((IngestResult res, Throwable e) -> inflight.release());
    }
    inflight.acquireUninterruptibly(256);
  }

  /**
   * The same delivered population reclaimed by the pass and by the former pass; returns the pass's
   * hooks/s.
   */
  private static double passes(String backend, Path work, int hooks, StringBuilder report) {
    // alternated, best of three each, so neither side pays the JIT's warm-up alone
    double current = 0;
    double former = 0;
    for (int round = 0; round < 3; round++) {
      former = Math.max(former, timePasses(backend, work.resolve("pass-former"), hooks, true));
      current = Math.max(current, timePasses(backend, work.resolve("pass-current"), hooks, false));
    }
    report.append(
        String.format(
            "%npass: %,d delivered hooks, %,d markers per pass, best of 3 alternated rounds%n",
            hooks, PASS_LIMIT));
    report.append(String.format("  Reclaim.pass     %,12.0f hooks/s%n", current));
    report.append(String.format("  former pass      %,12.0f hooks/s%n", former));
    report.append(String.format("  ratio            %.2f×%n", current / former));
    return current;
  }

  /** Populates {@code hooks} delivered hooks, then reclaims them all; returns hooks/s. */
  private static double timePasses(String backend, Path dir, int hooks, boolean former) {
    FileTrees.deleteRecursively(dir);
    try (Store store = BenchStores.open(backend, dir, Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 5_000, Long.MAX_VALUE);
      for (int made = 0; made < hooks; made += 5_000) {
        List<HookEnvelope> chunk = new ArrayList<>();
        for (int i = made; i < Math.min(hooks, made + 5_000); i++) {
          chunk.add(
              new HookEnvelope(
                  0,
                  "tenant-" + (i % 100),
                  "bench",
                  "h" + i,
                  null,
                  1_000,
                  List.of(1),
                  new byte[256]));
        }
        new DirectIngest(queue).ingest(chunk);
        Transition t = new Transition();
        dispatcher.tick(10_000).claimed().forEach(row -> Deliveries.delivered(t, row));
        queue.write(t, Durability.NO_SYNC);
      }
      store.syncWal();
      long start = System.nanoTime();
      long deleted = 0;
      while (true) {
        int n = former ? formerPass(queue, PASS_LIMIT) : Reclaim.run(queue, PASS_LIMIT);
        deleted += n;
        if (n == 0) {
          break;
        }
      }
      double secs = (System.nanoTime() - start) / 1e9;
      if (deleted != hooks) {
        throw new IllegalStateException("reclaimed " + deleted + " hooks of " + hooks);
      }
      return deleted / secs;
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  /**
   * The former pass, kept as the baseline: the first {@code limit} markers from the head of {@code
   * 'c'}, then per hook a range read of its delivery rows and a point read of its obligation.
   */
  private static int formerPass(DeliveryQueue queue, int limit) {
    KeyRange cleared = Keys.realKeysOf(KeyFamily.CLEARED);
    List<Long> seqs = new ArrayList<>();
    try (Scan scan =
        queue.store().scan(cleared.columnFamily(), cleared.lo(), cleared.hi(), Direction.FORWARD)) {
      while (seqs.size() < limit && scan.hasNext()) {
        seqs.add(ClearedKey.decode(scan.next().key()).seq());
      }
    }
    Batch batch = new Batch();
    int deleted = 0;
    for (long seq : seqs) {
      KeyRange rows = Keys.deliveriesOf(seq);
      boolean anyRow;
      try (Scan scan =
          queue.store().scan(rows.columnFamily(), rows.lo(), rows.hi(), Direction.FORWARD)) {
        anyRow = scan.hasNext();
      }
      if (anyRow || queue.store().get(Format3.INDEX, Keys.archive(seq)) != null) {
        continue;
      }
      batch.delete(Format3.HOOKS, Keys.hook(seq));
      batch.delete(Format3.INDEX, Keys.cleared(seq));
      deleted++;
    }
    if (!batch.isEmpty()) {
      queue.store().write(batch, Durability.NO_SYNC);
    }
    return deleted;
  }
}
