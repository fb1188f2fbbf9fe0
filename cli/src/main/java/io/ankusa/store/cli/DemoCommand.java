package io.ankusa.store.cli;

import io.ankusa.store.archive.chronicle.ArchiveDirectory;
import io.ankusa.store.archive.chronicle.ArchiveRollCycle;
import io.ankusa.store.archive.chronicle.ChronicleArchiveSink;
import io.ankusa.store.queue.counter.Counters;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.maintenance.InflightRecovery;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.metrics.QueueGauges;
import io.ankusa.store.queue.runtime.QueueRuntime;
import io.ankusa.store.queue.ingest.QueueWriter;
import io.ankusa.store.queue.maintenance.Reclaim;
import io.ankusa.store.queue.runtime.RuntimeSettings;
import io.ankusa.store.queue.counter.TenantCounts;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.ingest.WriterStats;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store demo}: the main job. An embedded store, a multi-tenant workload ingested
 * through the writer from several producer threads (skewed tenant sizes, some duplicate retries),
 * a dispatcher playing the sinks, live gauges, a summary, and a verify of the store at the end.
 *
 * <p>The queue runs on a {@link QueueRuntime}: recovery first, then the writer, the dispatcher (playing
 * the sinks through a {@link DemoDeliveryHandler}), reclaim, and with {@code --archive-dir} (off by
 * default) the archiver, which copies hooks into a Chronicle archive ({@link DemoArchive}); the summary
 * then adds what was archived, a read-back of the archive, and the archive-pending gauge, which must
 * be 0 at the end. A failed read-back or a non-zero gauge makes the exit code 1.
 */
@Command(name = "demo", description = "Run the queue end to end on an embedded store, then verify it.")
final class DemoCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--dir", defaultValue = "ankusa-data", description = "store directory: a new or empty one, or one holding this backend's store"
      + " (default: ${DEFAULT-VALUE})")
  Path dir;

  @Option(names = "--backend", defaultValue = "rocksdb", description = "rocksdb, lmdb, postgres, etcd or memory (default: ${DEFAULT-VALUE})")
  String backend;

  @Option(names = "--etcd-endpoints", paramLabel = "URLS", description = "with --backend etcd: the cluster to keep"
      + " the store on, http://HOST:PORT,...; default: a local 3-member cluster the demo starts from the etcd binary"
      + " on the PATH, its data in DIR.etcd beside the store directory")
  String etcdEndpoints;

  @Option(names = "--postgres-url", paramLabel = "JDBC-URL", description = "with --backend postgres: the server to"
      + " keep the store on, jdbc:postgresql://HOST:PORT/DB?user=ROLE (a password from ~/.pgpass; nothing after"
      + " '?' is written to the store directory); default: an embedded server under the store directory")
  String postgresUrl;

  @Option(names = "--tenants", defaultValue = "200", description = "tenants in the workload, 1..1000000 (default: ${DEFAULT-VALUE})")
  int tenants;

  @Option(names = "--seconds", defaultValue = "10", description = "how long producers ingest, 1..86400 (default: ${DEFAULT-VALUE})")
  int seconds;

  @Option(names = "--producers", defaultValue = "4", description = "producer threads, 1..256, each holding about 11 MiB of heap (default: ${DEFAULT-VALUE})")
  int producers;

  @Option(names = "--retry-rate", defaultValue = "0.10", description = "share of attempts a sink asks to retry, 0..1 (default: ${DEFAULT-VALUE})")
  double retryRate;

  @Option(names = "--dead-rate", defaultValue = "0.03", description = "share of attempts dead-lettered, 0..1 minus --retry-rate (default: ${DEFAULT-VALUE})")
  double deadRate;

  @Option(names = "--duplicate-rate", defaultValue = "0.05", description = "share of requests that retry an earlier idempotency key, 0..1 (default: ${DEFAULT-VALUE})")
  double duplicateRate;

  @Option(names = "--archive-dir", paramLabel = "ADIR",
      description = "also archive every hook into this Chronicle archive (one archive per store; default: off)")
  Path archiveDir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    checkArguments();
    PrintWriter out = spec.commandLine().getOut();
    List<Integer> exitCodes = new ArrayList<>();
    try (DemoEtcdCluster cluster = DemoEtcdCluster.startIfNeeded(backend, etcdEndpoints, dir, out)) {
      Map<String, String> options = new java.util.HashMap<>(backendOptions());
      if (cluster != null) {
        options.put("etcd.endpoints", cluster.endpoints());
      }
      return runAndVerify(options, out, exitCodes);
    }
  }

  private Integer runAndVerify(Map<String, String> options, PrintWriter out, List<Integer> exitCodes) throws Exception {
    try (Store store = StoreDirectory.openOrCreate(dir, backend, options);
        ChronicleArchiveSink archiveSink = archiveDir == null ? null
            : ChronicleArchiveSink.open(archiveDir, ArchiveRollCycle.DAILY)) {
      Summary summary = run(store, archiveSink, out);
      summary.print(out, summary.queue);
      exitCodes.add(summary.archiveOk ? 0 : AnkusaStore.FOUND_PROBLEMS);
    }
    out.println();
    try (Store reopened = StoreDirectory.openReadOnly(dir, backend)) {
      exitCodes.add(VerifyCommand.report(reopened, out));
    }
    return exitCodes.stream().max(Integer::compare).orElse(0);
  }

  /** The backend options the flags ask for. */
  private Map<String, String> backendOptions() {
    if (etcdEndpoints != null) {
      return Map.of("etcd.endpoints", etcdEndpoints);
    }
    return postgresUrl == null ? Map.of() : Map.of("postgres.url", postgresUrl);
  }

  private void checkArguments() {
    if (postgresUrl != null && !backend.equals("postgres")) {
      throw new CommandInputException(FailureCause.BAD_ARGUMENT, "--postgres-url is for --backend postgres, not "
          + backend);
    }
    if (etcdEndpoints != null && !backend.equals("etcd")) {
      throw new CommandInputException(FailureCause.BAD_ARGUMENT, "--etcd-endpoints is for --backend etcd, not "
          + backend);
    }
    DemoLimits.check(tenants, producers, seconds, retryRate, deadRate, duplicateRate, Runtime.getRuntime().maxMemory());
    if (archiveDir != null) {
      ArchiveDirectory.requireArchiveOrNew(archiveDir);
    }
  }

  /**
   * The run on one {@link QueueRuntime}: it recovers the store, then producers ingest until the time is
   * up or a component of the runtime fails. On the way out, whatever happened, the producers stop first
   * (each waits for its answers), then the runtime closes: reclaim, archiver (a last drain), dispatcher,
   * writer. A failure of the runtime is thrown by its close, after everything has stopped.
   */
  private Summary run(Store store, ChronicleArchiveSink archiveSink, PrintWriter out) throws InterruptedException {
    Summary s = new Summary();
    DemoDeliveryHandler handler = new DemoDeliveryHandler(retryRate, deadRate);
    DemoArchive archive = archiveSink == null ? null : new DemoArchive(archiveSink, archiveDir);
    try (QueueRuntime runtime = QueueRuntime.start(store, QueueConfig.defaults().withArchive(archive != null),
        RuntimeSettings.defaults(), handler, archive == null ? null : archive.sink(), System::currentTimeMillis)) {
      InflightRecovery.Result recovery = runtime.recovery();
      out.printf("demo: %s store at %s; %d tenants, %d producers, %d s%s%n", backend, store.directory(), tenants,
          producers, seconds, recovery.recovered() > 0 ? "; recovered " + recovery.recovered() + " inflight rows" : "");
      out.flush();
      QueueWriter writer = runtime.writer();
      AtomicBoolean producing = new AtomicBoolean(true);
      List<Thread> threads = new ArrayList<>();
      List<long[]> latencies = new ArrayList<>();
      int samplesPerProducer = DemoLimits.samplesPerProducer(producers);
      // requests in flight over all producers: below the writer's queue, so many producers wait instead of spinning
      Semaphore admitted = new Semaphore(Math.min(DemoLimits.PRODUCER_IN_FLIGHT * producers, WriterConfig.DEFAULT_QUEUE_CAPACITY / 2));
      long start = System.nanoTime();
      try {
        for (int p = 0; p < producers; p++) {
          long[] samples = new long[samplesPerProducer];
          latencies.add(samples);
          int id = p;
          Thread t = new Thread(() -> produce(id, writer, producing, admitted, s, samples), "demo-producer-" + p);
          t.setDaemon(true);
          threads.add(t);
          t.start();
        }
        QueueGauges gauges = new QueueGauges(runtime.queue());
        boolean tty = System.console() != null;
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        long lastLine = 0;
        while (System.nanoTime() < deadline && runtime.failure().isEmpty()) {
          Thread.sleep(250);
          long elapsedMs = (System.nanoTime() - start) / 1_000_000;
          if (tty || elapsedMs - lastLine >= 1_000) {
            lastLine = elapsedMs;
            progress(out, tty, elapsedMs, gauges.measure(System.currentTimeMillis()), writer.stats(), runtime);
          }
        }
        if (tty) {
          out.println();
        }
      } finally {
        producing.set(false);
        for (Thread t : threads) {
          t.join(); // each waits for its answers; a closed or fenced writer answers at once
        }
      }
      s.elapsedNanos = System.nanoTime() - start;
      if (runtime.failure().isEmpty()) {
        Thread.sleep(500); // let the dispatcher drain what is due for a moment
      }
      runtime.close(); // throws the runtime's failure, if any, once everything has stopped
      s.queue = runtime.queue();
      s.writer = writer.stats();
      s.dispatch = handler;
      s.reclaimed = runtime.reclaimedHooks();
      s.latencyMicros = merge(latencies);
      if (archive != null) {
        s.archive = archive.result(runtime.archived());
      }
    }
    return s;
  }

  /** One producer: skewed tenants (tenant i is picked with weight 1/(i+1)), 1–3 sinks, some duplicates. */
  private void produce(int id, QueueWriter writer, AtomicBoolean producing, Semaphore admitted, Summary s,
      long[] samples) {
    SplittableRandom random = new SplittableRandom(1000 + id);
    double[] cumulative = new double[tenants];
    double total = 0;
    for (int i = 0; i < tenants; i++) {
      total += 1.0 / (i + 1);
      cumulative[i] = total;
    }
    Semaphore inflight = new Semaphore(DemoLimits.PRODUCER_IN_FLIGHT);
    IngestRequest[] recent = new IngestRequest[DemoLimits.RECENT_REQUESTS];
    int recorded = 0;
    long n = 0;
    while (producing.get()) {
      IngestRequest request;
      if (n > recent.length && random.nextDouble() < duplicateRate) {
        // a provider retrying a hook it already sent: same tenant, same idempotency key
        IngestRequest earlier = recent[random.nextInt(recent.length)];
        request = new IngestRequest(earlier.tenantId(), earlier.sourceId(), earlier.hookId(),
            earlier.idempotencyKey(), System.currentTimeMillis(), earlier.sinks(), earlier.payload());
      } else {
        int tenant = Math.abs(Arrays.binarySearch(cumulative, random.nextDouble() * total) + 1);
        tenant = Math.min(tenant, tenants - 1);
        String tenantId = tenant == 0 ? null : "tenant-" + tenant;
        List<Integer> sinks = random.nextInt(4) == 0 ? List.of(1, 2) : List.of(1 + random.nextInt(3));
        byte[] payload = new byte[200 + random.nextInt(1_800)];
        String key = "p" + id + "-" + n;
        request = new IngestRequest(tenantId, "demo-source", key, key, System.currentTimeMillis(), sinks, payload);
        recent[(int) (n % recent.length)] = request;
      }
      n++;
      inflight.acquireUninterruptibly();
      admitted.acquireUninterruptibly();
      long sent = System.nanoTime();
      CompletableFuture<IngestResult> f = writer.ingest(request);
      int slot = recorded < samples.length ? recorded++ : -1;
      f.whenComplete((r, e) -> {
        admitted.release();
        inflight.release();
        long micros = (System.nanoTime() - sent) / 1_000;
        if (slot >= 0) {
          samples[slot] = micros + 1; // 0 marks an empty slot
        }
        if (e != null) {
          s.outcomes.get(IngestResult.Outcome.UNAVAILABLE).increment();
        } else {
          s.outcomes.get(r.outcome()).increment();
          if (r.outcome() == IngestResult.Outcome.CREATED || r.outcome() == IngestResult.Outcome.DUPLICATE) {
            s.acked.increment();
          }
        }
      });
    }
    inflight.acquireUninterruptibly(DemoLimits.PRODUCER_IN_FLIGHT); // every answer is in
  }

  private void progress(PrintWriter out, boolean tty, long elapsedMs, QueueGauges.Gauge g, WriterStats w,
      QueueRuntime runtime) {
    int width = 20;
    int done = (int) Math.min(width, elapsedMs * width / (seconds * 1000L));
    TenantCounts c = g.aggregate();
    String line = String.format("[%s%s] %4.1fs  durable %d  pending %d  scheduled %d  inflight %d  dead %d"
            + "  active tenants %d  oldest due %d ms  syncs/group %.2f",
        "#".repeat(done), ".".repeat(width - done), elapsedMs / 1000.0, w.durableSeq(), c.pending(), c.scheduled(),
        c.inflight(), c.dead(), runtime.lastTick().activeTenants(), g.oldestDueAgeMs(), w.syncsPerGroup());
    if (tty) {
      out.print("\r" + line);
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Every recorded latency of every producer, sorted. */
  private static long[] merge(List<long[]> parts) {
    long[] all = parts.stream().flatMapToLong(Arrays::stream).filter(v -> v > 0).map(v -> v - 1).toArray();
    Arrays.sort(all);
    return all;
  }

  /** What the run measured. */
  private static final class Summary {
    final Map<IngestResult.Outcome, LongAdder> outcomes = new EnumMap<>(IngestResult.Outcome.class);
    final LongAdder acked = new LongAdder();
    long elapsedNanos;
    /** The queue the run served (its runtime closed, its store still open). */
    DeliveryQueue queue;
    WriterStats writer;
    DemoDeliveryHandler dispatch;
    /** Hooks the runtime's reclaim deleted. */
    long reclaimed;
    long[] latencyMicros = new long[0];
    /** What {@code --archive-dir} archived; null when the archive is off. */
    DemoArchive.Result archive;
    /** False when the archive's read-back failed or archive pending is not 0 at the end. */
    boolean archiveOk = true;

    Summary() {
      for (IngestResult.Outcome o : IngestResult.Outcome.values()) {
        outcomes.put(o, new LongAdder());
      }
    }

    void print(PrintWriter out, DeliveryQueue queue) {
      double secs = elapsedNanos / 1e9;
      QueueGauges gauges = new QueueGauges(queue);
      QueueGauges.Gauge g = gauges.measure(System.currentTimeMillis());
      TenantCounts c = g.aggregate();
      out.println();
      out.println("summary");
      out.printf("  durable hooks/s      %,.0f  (%,d created in %.1f s)%n",
          outcomes.get(IngestResult.Outcome.CREATED).sum() / secs, outcomes.get(IngestResult.Outcome.CREATED).sum(), secs);
      out.printf("  ack latency          p50 %s  p99 %s%n", micros(percentile(0.50)), micros(percentile(0.99)));
      out.printf("  outcomes             %s%n", outcomesLine());
      out.printf("  syncs                %,d for %,d groups (%.2f per group, %,.0f per second)%n",
          writer.syncs(), writer.groups(), writer.syncsPerGroup(), writer.syncs() / secs);
      out.printf("  dispatch             %,d delivered, %,d retried, %,d dead-lettered, %,d replayed from the DLQ%n",
          dispatch.delivered.sum(), dispatch.retried.sum(), dispatch.deadLettered.sum(), dispatch.revived.sum());
      out.printf("  rows now             pending %,d  scheduled %,d  inflight %,d  dead %,d  (%,d bytes)%n",
          c.pending(), c.scheduled(), c.inflight(), c.dead(), c.bytes());
      out.printf("  tenants              %,d%n", g.tenants());
      Reclaim.Backlog backlog;
      try (Snapshot view = queue.store().snapshot()) {
        backlog = Reclaim.backlog(view);
      }
      // finished: hooks nothing owes any more, reclaimed or still waiting for reclaim
      long finished = reclaimed + backlog.unowed();
      out.printf("  reclaim              %,d hooks reclaimed (%,.0f/s) of %,d finished (%,.0f/s): %.2f×;"
          + " hooks stored %,d, owed %,d, not owed %,d%n", reclaimed, reclaimed / secs, finished, finished / secs,
          finished == 0 ? 1.0 : (double) reclaimed / finished, backlog.stored(), backlog.owed(), backlog.unowed());
      if (archive != null) {
        String check = DemoArchive.replayCheck(archive);
        archiveOk = check.startsWith("ok") && c.archivePending() == 0;
        out.printf("  archive              %,d hooks archived (%,d bytes), %,d dropped, into %s%n", archive.settled(),
            archive.bytes(), archive.dropped(), archive.archiveDir());
        out.printf("  archive replay       %s%n", check);
        out.printf("  archive pending      %,d%s%n", c.archivePending(),
            c.archivePending() == 0 ? "" : "  (FAILED: every obligation should be settled by now)");
      }
      Map<Long, TenantCounts> counts = Counters.readAll(queue.store());
      InspectCommand.printTop(out, queue.store(), counts, "pending", TenantCounts::due, 5);
      InspectCommand.printTop(out, queue.store(), counts, "dead", TenantCounts::dead, 5);
      out.flush();
    }

    private String outcomesLine() {
      StringBuilder sb = new StringBuilder();
      outcomes.forEach((o, n) -> {
        if (n.sum() > 0) {
          sb.append(o).append(' ').append(String.format("%,d", n.sum())).append("  ");
        }
      });
      return sb.toString().trim();
    }

    private long percentile(double p) {
      if (latencyMicros.length == 0) {
        return 0;
      }
      return latencyMicros[(int) Math.min(latencyMicros.length - 1, Math.floor(p * latencyMicros.length))];
    }

    private static String micros(long us) {
      return us >= 1_000 ? String.format("%.1f ms", us / 1000.0) : us + " µs";
    }
  }
}
