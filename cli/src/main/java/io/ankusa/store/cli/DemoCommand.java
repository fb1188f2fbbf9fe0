package io.ankusa.store.cli;

import io.ankusa.store.archive.chronicle.ArchiveDirectory;
import io.ankusa.store.archive.chronicle.ArchiveRollCycle;
import io.ankusa.store.archive.chronicle.ChronicleArchiveSink;
import io.ankusa.store.queue.DeadLetter;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.QueueOptions;
import io.ankusa.store.queue.QueueStats;
import io.ankusa.store.queue.TenantStats;
import io.ankusa.store.queue.WebhookQueue;
import io.ankusa.store.queue.config.WriterConfig;
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
 * through the writer from several producer threads (skewed tenant sizes, some duplicate retries), a
 * dispatcher playing the sinks, live gauges, a summary, and a verify of the store at the end.
 *
 * <p>The queue is a {@link WebhookQueue}, the queue's front door, as a service embeds it: its
 * handler is the demo's sinks ({@link DemoSinks}), and every couple of seconds the demo replays
 * part of its dead-letter queue; with {@code --archive-dir} (off by default) it copies hooks into a
 * Chronicle archive ({@link DemoArchive}); the summary then adds what was archived, a read-back of
 * the archive, and the archive-pending gauge, which must be 0 at the end. A failed read-back or a
 * non-zero gauge makes the exit code 1.
 */
@Command(
    name = "demo",
    description = "Run the queue end to end on an embedded store, then verify it.")
final class DemoCommand implements java.util.concurrent.Callable<Integer> {
  @Option(
      names = "--dir",
      defaultValue = "ankusa-data",
      description =
          "store directory: a new or empty one, or one holding this backend's store"
              + " (default: ${DEFAULT-VALUE})")
  Path dir;

  @Option(
      names = "--backend",
      defaultValue = "rocksdb",
      description = "rocksdb, lmdb, postgres, etcd or memory (default: ${DEFAULT-VALUE})")
  String backend;

  @Option(
      names = "--etcd-endpoints",
      paramLabel = "URLS",
      description =
          "with --backend etcd: the cluster to keep"
              + " the store on, http://HOST:PORT,...; default: a local 3-member cluster the demo starts from the etcd binary"
              + " on the PATH, its data in DIR.etcd beside the store directory")
  String etcdEndpoints;

  @Option(
      names = "--postgres-url",
      paramLabel = "JDBC-URL",
      description =
          "with --backend postgres: the server to"
              + " keep the store on, jdbc:postgresql://HOST:PORT/DB?user=ROLE (a password from ~/.pgpass; nothing after"
              + " '?' is written to the store directory); default: an embedded server, its data in DIR.pgdata beside the"
              + " store directory, up while the demo runs")
  String postgresUrl;

  @Option(
      names = "--tenants",
      defaultValue = "200",
      description = "tenants in the workload, 1..1000000 (default: ${DEFAULT-VALUE})")
  int tenants;

  @Option(
      names = "--seconds",
      defaultValue = "10",
      description = "how long producers ingest, 1..86400 (default: ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--producers",
      defaultValue = "4",
      description =
          "producer threads, 1..256, each holding about 11 MiB of heap (default: ${DEFAULT-VALUE})")
  int producers;

  @Option(
      names = "--retry-rate",
      defaultValue = "0.10",
      description = "share of attempts a sink asks to retry, 0..1 (default: ${DEFAULT-VALUE})")
  double retryRate;

  @Option(
      names = "--dead-rate",
      defaultValue = "0.03",
      description =
          "share of attempts dead-lettered, 0..1 minus --retry-rate (default: ${DEFAULT-VALUE})")
  double deadRate;

  @Option(
      names = "--duplicate-rate",
      defaultValue = "0.05",
      description =
          "share of requests that retry an earlier idempotency key, 0..1 (default: ${DEFAULT-VALUE})")
  double duplicateRate;

  @Option(
      names = "--archive-dir",
      paramLabel = "ADIR",
      description =
          "also archive every hook into this Chronicle archive (one archive per store; default: off)")
  Path archiveDir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    checkArguments();
    PrintWriter out = spec.commandLine().getOut();
    List<Integer> exitCodes = new ArrayList<>();
    try (DemoEtcdCluster cluster =
        DemoEtcdCluster.startIfNeeded(backend, etcdEndpoints, dir, out)) {
      Map<String, String> options = new java.util.HashMap<>(backendOptions());
      if (cluster != null) {
        options.put("etcd.endpoints", cluster.endpoints());
      }
      return runAndVerify(options, out, exitCodes);
    }
  }

  private Integer runAndVerify(
      Map<String, String> options, PrintWriter out, List<Integer> exitCodes) throws Exception {
    try (Store store = StoreDirectory.openOrCreate(dir, backend, options);
        ChronicleArchiveSink archiveSink =
            archiveDir == null
                ? null
                : ChronicleArchiveSink.open(archiveDir, ArchiveRollCycle.DAILY)) {
      Summary summary = run(store, archiveSink, out);
      summary.print(out);
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
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT, "--postgres-url is for --backend postgres, not " + backend);
    }
    if (etcdEndpoints != null && !backend.equals("etcd")) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT, "--etcd-endpoints is for --backend etcd, not " + backend);
    }
    DemoLimits.check(
        tenants,
        producers,
        seconds,
        retryRate,
        deadRate,
        duplicateRate,
        Runtime.getRuntime().maxMemory());
    if (archiveDir != null) {
      ArchiveDirectory.requireArchiveOrNew(archiveDir);
    }
  }

  /**
   * The run on one {@link WebhookQueue}: opening it recovers the store, then producers ingest until
   * the time is up or the queue fails, while the demo's sinks answer every delivery and, every
   * couple of seconds, part of the dead-letter queue is replayed. On the way out, whatever
   * happened, the producers stop first (each waits for its answers); with an archive, the demo then
   * waits (up to {@value #ARCHIVE_DRAIN_SECONDS} s) for the archiver to settle every hook its sink
   * synced, as a service draining before shutdown would; then the queue closes. A failure of the
   * queue is thrown by its close, after everything has stopped.
   */
  private Summary run(Store store, ChronicleArchiveSink archiveSink, PrintWriter out)
      throws InterruptedException {
    Summary s = new Summary();
    DemoSinks sinks = new DemoSinks(retryRate, deadRate);
    DemoArchive archive = archiveSink == null ? null : new DemoArchive(archiveSink, archiveDir);
    QueueOptions options =
        QueueOptions.defaults().withArchive(archive == null ? null : archive.sink());
    try (WebhookQueue queue = WebhookQueue.open(store, options, sinks)) {
      out.printf(
          "demo: %s store at %s; %d tenants, %d producers, %d s%s%n",
          backend, store.directory(), tenants, producers, seconds, recoveredNote(queue.stats()));
      out.flush();
      AtomicBoolean producing = new AtomicBoolean(true);
      List<Thread> threads = new ArrayList<>();
      List<long[]> latencies = new ArrayList<>();
      int samplesPerProducer = DemoLimits.samplesPerProducer(producers);
      // requests in flight over all producers: below the writer's queue, so many producers wait
      // instead of spinning
      Semaphore admitted =
          new Semaphore(
              Math.min(
                  DemoLimits.PRODUCER_IN_FLIGHT * producers,
                  WriterConfig.DEFAULT_QUEUE_CAPACITY / 2));
      long start = System.nanoTime();
      try {
        for (int p = 0; p < producers; p++) {
          long[] samples = new long[samplesPerProducer];
          latencies.add(samples);
          int id = p;
          Thread t =
              new Thread(
                  () -> produce(id, queue, producing, admitted, s, samples), "demo-producer-" + p);
          t.setDaemon(true);
          threads.add(t);
          t.start();
        }
        boolean tty = System.console() != null;
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        long lastLine = 0;
        long lastReplay = 0;
        while (System.nanoTime() < deadline) {
          Thread.sleep(250);
          long elapsedMs = (System.nanoTime() - start) / 1_000_000;
          if (elapsedMs - lastReplay >= REPLAY_INTERVAL_MS) {
            s.revived += replaySomeDead(queue);
            lastReplay = elapsedMs;
          }
          if (tty || elapsedMs - lastLine >= 1_000) {
            lastLine = elapsedMs;
            progress(out, tty, elapsedMs, queue.stats(), s.acked.sum());
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
      Thread.sleep(500); // let the dispatcher drain what is due for a moment
      if (archive != null) { // the archiver settles what its sink synced; give it the time it needs
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(ARCHIVE_DRAIN_SECONDS);
        while (queue.stats().archivePending() > 0 && System.nanoTime() < until) {
          Thread.sleep(50);
        }
      }
      s.latencyMicros = merge(latencies);
      s.sinks = sinks;
      s.stats = queue.stats();
      s.top = topTenants(queue);
    }
    if (archive != null) {
      s.archive = archive.result();
    }
    return s;
  }

  private static final long REPLAY_INTERVAL_MS = 2_000;

  /** How long the demo waits, after its producers stop, for the archiver to settle every hook. */
  private static final long ARCHIVE_DRAIN_SECONDS = 30;

  /** A replay of part of the DLQ: the newest 20 dead letters become due again; returns how many. */
  private static int replaySomeDead(WebhookQueue queue) {
    List<DeadLetter> dead = queue.deadLetters().newest(20).letters();
    return dead.isEmpty() ? 0 : queue.deadLetters().revive(dead);
  }

  private static String recoveredNote(QueueStats stats) {
    return stats.inflight() > 0 ? "; " + stats.inflight() + " deliveries in flight" : "";
  }

  /**
   * The demo's tenants with the most due and the most dead deliveries, from their counters: tenant
   * {@code i} is picked with weight {@code 1/(i+1)}, so the first ten thousand hold nearly every
   * delivery.
   */
  private List<TenantLine> topTenants(WebhookQueue queue) {
    List<TenantLine> lines = new ArrayList<>();
    for (int i = 0; i < Math.min(tenants, 10_000); i++) {
      String name = i == 0 ? "default" : "tenant-" + i;
      TenantStats t = queue.tenants().stats(name);
      lines.add(new TenantLine(name, t.pending() + t.scheduled(), t.dead()));
    }
    return lines;
  }

  /**
   * One producer: skewed tenants (tenant i is picked with weight 1/(i+1)), 1–3 sinks, some
   * duplicates.
   */
  private void produce(
      int id,
      WebhookQueue queue,
      AtomicBoolean producing,
      Semaphore admitted,
      Summary s,
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
        request =
            new IngestRequest(
                earlier.tenantId(),
                earlier.sourceId(),
                earlier.hookId(),
                earlier.idempotencyKey(),
                System.currentTimeMillis(),
                earlier.sinks(),
                earlier.payload());
      } else {
        int tenant = Math.abs(Arrays.binarySearch(cumulative, random.nextDouble() * total) + 1);
        tenant = Math.min(tenant, tenants - 1);
        String tenantId = tenant == 0 ? null : "tenant-" + tenant;
        List<Integer> sinks =
            random.nextInt(4) == 0 ? List.of(1, 2) : List.of(1 + random.nextInt(3));
        byte[] payload = new byte[200 + random.nextInt(1_800)];
        String key = "p" + id + "-" + n;
        request =
            new IngestRequest(
                tenantId, "demo-source", key, key, System.currentTimeMillis(), sinks, payload);
        recent[(int) (n % recent.length)] = request;
      }
      n++;
      inflight.acquireUninterruptibly();
      admitted.acquireUninterruptibly();
      long sent = System.nanoTime();
      CompletableFuture<IngestResult> f = queue.ingest(request);
      int slot = recorded < samples.length ? recorded++ : -1;
      f.whenComplete(
          (r, e) -> {
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
              if (r.outcome() == IngestResult.Outcome.CREATED
                  || r.outcome() == IngestResult.Outcome.DUPLICATE) {
                s.acked.increment();
              }
            }
          });
    }
    inflight.acquireUninterruptibly(DemoLimits.PRODUCER_IN_FLIGHT); // every answer is in
  }

  private void progress(PrintWriter out, boolean tty, long elapsedMs, QueueStats q, long acked) {
    int width = 20;
    int done = (int) Math.min(width, elapsedMs * width / (seconds * 1000L));
    String line =
        String.format(
            "[%s%s] %4.1fs  acked %d  pending %d  scheduled %d  inflight %d  dead %d"
                + "  delivered %d  oldest due %d ms",
            "#".repeat(done),
            ".".repeat(width - done),
            elapsedMs / 1000.0,
            acked,
            q.pending(),
            q.scheduled(),
            q.inflight(),
            q.dead(),
            q.delivered(),
            q.oldestDueAgeMs());
    if (tty) {
      out.print("\r" + line);
    } else {
      out.println(line);
    }
    out.flush();
  }

  /** Every recorded latency of every producer, sorted. */
  private static long[] merge(List<long[]> parts) {
    long[] all =
        parts.stream().flatMapToLong(Arrays::stream).filter(v -> v > 0).map(v -> v - 1).toArray();
    Arrays.sort(all);
    return all;
  }

  /** One tenant's line in the summary's top lists. */
  private record TenantLine(String name, long due, long dead) {}

  /** What the run measured. */
  private static final class Summary {
    final Map<IngestResult.Outcome, LongAdder> outcomes = new EnumMap<>(IngestResult.Outcome.class);
    final LongAdder acked = new LongAdder();
    long elapsedNanos;
    long revived;
    DemoSinks sinks;
    QueueStats stats;
    List<TenantLine> top = List.of();
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

    void print(PrintWriter out) {
      double secs = elapsedNanos / 1e9;
      QueueStats q = stats;
      long created = outcomes.get(IngestResult.Outcome.CREATED).sum();
      out.println();
      out.println("summary");
      out.printf(
          "  durable hooks/s      %,.0f  (%,d created in %.1f s)%n", created / secs, created, secs);
      out.printf(
          "  ack latency          p50 %s  p99 %s%n",
          micros(percentile(0.50)), micros(percentile(0.99)));
      out.printf("  outcomes             %s%n", outcomesLine());
      out.printf(
          "  deliveries           %,d delivered, %,d retried, %,d dead-lettered, %,d replayed from the DLQ%n",
          q.delivered(), q.retried(), q.deadLettered(), revived);
      out.printf(
          "  rows now             pending %,d  scheduled %,d  inflight %,d  dead %,d  (%,d bytes)%n",
          q.pending(), q.scheduled(), q.inflight(), q.dead(), q.bytes());
      out.printf("  tenants              %,d%n", q.tenants());
      out.printf(
          "  reclaim              %,d hooks reclaimed (%,.0f/s)%n",
          q.reclaimed(), q.reclaimed() / secs);
      if (archive != null) {
        String check = DemoArchive.replayCheck(archive);
        archiveOk = check.startsWith("ok") && q.archivePending() == 0;
        out.printf(
            "  archive              %,d hooks archived (%,d bytes) into %s%n",
            archive.appended(), archive.bytes(), archive.archiveDir());
        out.printf("  archive replay       %s%n", check);
        out.printf(
            "  archive pending      %,d%s%n",
            q.archivePending(),
            q.archivePending() == 0 ? "" : "  (FAILED: every obligation should be settled by now)");
      }
      printTop(out, "pending", TenantLine::due);
      printTop(out, "dead", TenantLine::dead);
      out.flush();
    }

    private void printTop(
        PrintWriter out, String what, java.util.function.ToLongFunction<TenantLine> measure) {
      out.printf("top tenants by %s%n", what);
      top.stream()
          .filter(t -> measure.applyAsLong(t) > 0)
          .sorted(java.util.Comparator.comparingLong(measure).reversed())
          .limit(5)
          .forEach(t -> out.printf("  %-32s %d%n", t.name(), measure.applyAsLong(t)));
    }

    private String outcomesLine() {
      StringBuilder sb = new StringBuilder();
      outcomes.forEach(
          (o, n) -> {
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
      return latencyMicros[
          (int) Math.min(latencyMicros.length - 1, Math.floor(p * latencyMicros.length))];
    }

    private static String micros(long us) {
      return us >= 1_000 ? String.format("%.1f ms", us / 1000.0) : us + " µs";
    }
  }
}
