package io.ankusa.store.bench.archive;

import io.ankusa.store.archive.chronicle.ArchiveRollCycle;
import io.ankusa.store.archive.chronicle.ChronicleArchiveReader;
import io.ankusa.store.archive.chronicle.ChronicleArchiveSink;
import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.bench.JsonText;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Archived hooks per second: a queue with the archive on holds {@code --hooks} hooks with {@code
 * --payload}-byte payloads (1 KiB by default, so envelopes of ≈ 1.1 KiB); the {@link Archiver}
 * drains them into a {@link ChronicleArchiveSink} in chunks of {@code --chunk}. Two baselines run
 * in the same round, on the same envelopes:
 *
 * <ul>
 *   <li><b>raw</b>: the envelopes, already in memory, appended straight to a fresh Chronicle sink
 *       with one sync per chunk — what the archive medium costs, with no store work at all;
 *   <li><b>store only</b>: the archiver into a sink that keeps nothing — the store's share (the
 *       scan of {@code 'a'}, the multiGet of hooks, the settle batch);
 *   <li><b>chunk loop</b>: the archiver driven by {@link Archiver#archiveChunk()} instead of {@link
 *       Archiver#drain()}, so without the read-ahead of the next chunk during the sink's sync —
 *       what that overlap buys.
 * </ul>
 *
 * <p>An untimed warm-up round of 5 000 hooks runs first. Each round populates a fresh store for
 * each archiver run (population is not timed), rounds alternate the three targets, and the median
 * of {@code --runs} rounds is reported with archiver/raw as the figure to compare across machines.
 * The archiver's time is also split into sink appends, sink syncs and the rest (the store). After
 * each archiver run the archive is replayed and must hold every seq once, in order; a bench that
 * archived less than it claims would fail there.
 *
 * <pre>
 * ArchiveBench [--hooks 100000] [--payload 1024] [--chunk 256] [--tenants 10] [--backend rocksdb]
 *              [--runs 3] [--out bench-results/archive] [--work DIR]
 * </pre>
 *
 * Writes {@code OUT/archive.json} and {@code OUT/archive.txt}. Figures taken above a load average
 * of 1.5 on a 2-core machine are noise; the load is recorded with them.
 */
public final class ArchiveBench {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveBench.class);
  private static final int INGEST_BATCH = 256;

  private ArchiveBench() {}

  record Settings(
      int hooks,
      int payloadBytes,
      int chunk,
      int tenants,
      String backend,
      int runs,
      Path out,
      Path work) {}

  /** One timed drain: hooks and bytes moved, wall time, and the sink's share of it. */
  record Timing(
      long hooks, long bytes, long wallNanos, long appendNanos, long syncNanos, long syncs) {
    double hooksPerSecond() {
      return hooks * 1e9 / wallNanos;
    }

    double mibPerSecond() {
      return bytes * 1e9 / wallNanos / (1 << 20);
    }
  }

  public static void main(String[] args) throws IOException {
    Settings s = parse(args);
    Files.createDirectories(s.out());
    Path work = s.work() != null ? s.work() : Files.createTempDirectory("ankusa-archive-bench");
    List<Timing> archiver = new ArrayList<>();
    List<Timing> raw = new ArrayList<>();
    List<Timing> storeOnly = new ArrayList<>();
    List<Timing> chunkByChunk = new ArrayList<>();
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    try {
      warmUp(s, work.resolve("warm-up"));
      for (int round = 0; round < s.runs(); round++) {
        LOG.info(
            "round {} of {} (load {})",
            round + 1,
            s.runs(),
            String.format(Locale.ROOT, "%.2f", loadNow()));
        Path dir = work.resolve("round-" + round);
        List<byte[]> envelopes = new ArrayList<>();
        archiver.add(archiverRun(s, dir.resolve("archiver"), envelopes, true, true));
        raw.add(rawRun(s, dir.resolve("raw-archive"), envelopes));
        envelopes.clear();
        chunkByChunk.add(archiverRun(s, dir.resolve("chunk-by-chunk"), envelopes, true, false));
        envelopes.clear();
        storeOnly.add(archiverRun(s, dir.resolve("store-only"), envelopes, false, true));
        FileTrees.deleteRecursively(dir);
      }
    } finally {
      if (s.work() == null) {
        FileTrees.deleteRecursively(work);
      }
    }
    report(s, load, archiver, raw, storeOnly, chunkByChunk);
  }

  /** One small untimed round of each target: class loading, JIT and Chronicle's first mappings. */
  private static void warmUp(Settings s, Path dir) {
    Settings small =
        new Settings(
            Math.min(s.hooks(), 5_000),
            s.payloadBytes(),
            s.chunk(),
            s.tenants(),
            s.backend(),
            1,
            s.out(),
            s.work());
    List<byte[]> envelopes = new ArrayList<>();
    archiverRun(small, dir.resolve("archiver"), envelopes, true, true);
    rawRun(small, dir.resolve("raw-archive"), envelopes);
    archiverRun(small, dir.resolve("chunk-by-chunk"), new ArrayList<>(), true, false);
    archiverRun(small, dir.resolve("store-only"), new ArrayList<>(), false, true);
    FileTrees.deleteRecursively(dir);
  }

  /**
   * Populates a store with the archive on, then times {@link Archiver#drain()} (with {@code drain})
   * or a loop of {@link Archiver#archiveChunk()} (without: no read-ahead): into Chronicle under
   * {@code dir/archive} when {@code chronicle}, else into a sink that keeps nothing. Fills {@code
   * envelopes} with the stored envelopes in seq order (for the raw baseline).
   */
  static Timing archiverRun(
      Settings s, Path dir, List<byte[]> envelopes, boolean chronicle, boolean drain) {
    try (Store store = BenchStores.open(s.backend(), dir.resolve("store"), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults().withArchive(true));
      List<Long> seqs = populate(queue, s);
      for (long seq : seqs) {
        envelopes.add(store.get(Format3.HOOKS, Keys.hook(seq)));
      }
      TimedSink sink =
          chronicle
              ? new TimedSink(
                  ChronicleArchiveSink.open(dir.resolve("archive"), ArchiveRollCycle.DAILY))
              : new TimedSink(new DiscardingSink());
      long start = System.nanoTime();
      Archiver.ChunkReport r;
      try (sink) {
        Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, s.chunk());
        r = drain ? archiver.drain() : chunkByChunk(archiver);
      }
      long wall = System.nanoTime() - start;
      if (r.settled() != seqs.size()) {
        throw new IllegalStateException(
            "the archiver settled " + r.settled() + " of " + seqs.size() + " hooks");
      }
      if (chronicle) {
        checkReplay(dir.resolve("archive"), seqs);
      }
      return new Timing(
          r.settled(), r.envelopeBytes(), wall, sink.appendNanos, sink.syncNanos, sink.syncs);
    }
  }

  private static Archiver.ChunkReport chunkByChunk(Archiver archiver) {
    Archiver.ChunkReport total = Archiver.ChunkReport.NONE;
    for (Archiver.ChunkReport r = archiver.archiveChunk();
        r.obligations() > 0;
        r = archiver.archiveChunk()) {
      total = total.plus(r);
    }
    return total;
  }

  /** The same envelopes appended straight to Chronicle, one sync per chunk. */
  static Timing rawRun(Settings s, Path dir, List<byte[]> envelopes) {
    long bytes = 0;
    long syncs = 0;
    long start = System.nanoTime();
    try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
      for (int i = 0; i < envelopes.size(); i++) {
        sink.append(i + 1, envelopes.get(i));
        bytes += envelopes.get(i).length;
        if ((i + 1) % s.chunk() == 0 || i == envelopes.size() - 1) {
          sink.sync();
          syncs++;
        }
      }
    }
    long wall = System.nanoTime() - start;
    return new Timing(envelopes.size(), bytes, wall, 0, 0, syncs);
  }

  private static List<Long> populate(DeliveryQueue queue, Settings s) {
    DirectIngest ingest = new DirectIngest(queue);
    List<Long> seqs = new ArrayList<>(s.hooks());
    List<HookEnvelope> batch = new ArrayList<>(INGEST_BATCH);
    for (int i = 0; i < s.hooks(); i++) {
      byte[] payload = new byte[s.payloadBytes()];
      Arrays.fill(payload, (byte) ('a' + i % 26));
      batch.add(
          new HookEnvelope(
              0,
              "tenant-" + (i % s.tenants()),
              "src",
              "hook-" + i,
              null,
              1_700_000_000_000L + i,
              List.of(1),
              payload));
      if (batch.size() == INGEST_BATCH || i == s.hooks() - 1) {
        seqs.addAll(ingest.ingest(batch));
        batch.clear();
      }
    }
    return seqs;
  }

  private static void checkReplay(Path archive, List<Long> seqs) {
    List<Long> replayed = new ArrayList<>(seqs.size());
    try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(archive)) {
      reader.replay(1, Long.MAX_VALUE, h -> replayed.add(h.seq()));
    }
    if (!replayed.equals(seqs)) {
      throw new IllegalStateException(
          "the archive replayed "
              + replayed.size()
              + " seqs, not the "
              + seqs.size()
              + " archived, in order");
    }
  }

  private static void report(
      Settings s,
      double load,
      List<Timing> archiver,
      List<Timing> raw,
      List<Timing> storeOnly,
      List<Timing> chunkByChunk)
      throws IOException {
    Timing a = median(archiver);
    Timing r = median(raw);
    Timing so = median(storeOnly);
    Timing cc = median(chunkByChunk);
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "archive bench: %s, %d hooks, %d-byte payloads (envelopes %.0f B), chunks of %d, "
                + "%d tenants, median of %d rounds, load at start %.2f%n",
            s.backend(),
            s.hooks(),
            s.payloadBytes(),
            (double) a.bytes() / Math.max(1, a.hooks()),
            s.chunk(),
            s.tenants(),
            s.runs(),
            load));
    t.append("| target | hooks/s | MiB/s | syncs | sink append | sink sync | rest (store) |\n");
    t.append("|---|---|---|---|---|---|---|\n");
    t.append(row("archiver drain() → chronicle", a));
    t.append(row("archiveChunk() loop → chronicle (no read-ahead)", cc));
    t.append(row("raw chronicle (baseline)", r));
    t.append(row("archiver drain() → discard (store only)", so));
    t.append(
        String.format(
            Locale.ROOT,
            "archiver/raw = %.2f; archiver/store-only = %.2f; drain/chunk-loop = %.2f%n",
            a.hooksPerSecond() / r.hooksPerSecond(),
            a.hooksPerSecond() / so.hooksPerSecond(),
            a.hooksPerSecond() / cc.hooksPerSecond()));
    t.append("rounds (archiver hooks/s): ")
        .append(
            archiver.stream()
                .map(x -> String.format(Locale.ROOT, "%.0f", x.hooksPerSecond()))
                .toList())
        .append('\n');
    LOG.info("\n{}", t);
    Files.writeString(s.out().resolve("archive.txt"), t.toString(), StandardCharsets.UTF_8);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("backend", s.backend());
    json.put("hooks", s.hooks());
    json.put("payloadBytes", s.payloadBytes());
    json.put("chunk", s.chunk());
    json.put("runs", s.runs());
    json.put("loadAtStart", load);
    json.put("archiverHooksPerSecond", a.hooksPerSecond());
    json.put("rawHooksPerSecond", r.hooksPerSecond());
    json.put("storeOnlyHooksPerSecond", so.hooksPerSecond());
    json.put("chunkLoopHooksPerSecond", cc.hooksPerSecond());
    json.put("archiverOverRaw", a.hooksPerSecond() / r.hooksPerSecond());
    Files.writeString(s.out().resolve("archive.json"), JsonText.of(json), StandardCharsets.UTF_8);
  }

  private static String row(String name, Timing x) {
    double wall = x.wallNanos();
    return String.format(
        Locale.ROOT,
        "| %s | %.0f | %.1f | %d | %s | %s | %s |%n",
        name,
        x.hooksPerSecond(),
        x.mibPerSecond(),
        x.syncs(),
        share(x.appendNanos(), wall),
        share(x.syncNanos(), wall),
        x.appendNanos() == 0 && x.syncNanos() == 0
            ? "—"
            : share((long) wall - x.appendNanos() - x.syncNanos(), wall));
  }

  private static String share(long nanos, double wall) {
    return nanos == 0 ? "—" : String.format(Locale.ROOT, "%.0f %%", 100.0 * nanos / wall);
  }

  private static Timing median(List<Timing> runs) {
    List<Timing> sorted = new ArrayList<>(runs);
    sorted.sort((x, y) -> Double.compare(x.hooksPerSecond(), y.hooksPerSecond()));
    return sorted.get(sorted.size() / 2);
  }

  private static double loadNow() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  static Settings parse(String[] args) {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException(
            "expected --name value pairs, got '"
                + args[i]
                + "'; usage: ArchiveBench"
                + " [--hooks 100000] [--payload 1024] [--chunk 256] [--tenants 10] [--backend rocksdb] [--runs 3]"
                + " [--out bench-results/archive] [--work DIR]");
      }
      opts.put(args[i].substring(2), args[++i]);
    }
    return new Settings(
        Integer.parseInt(opts.getOrDefault("hooks", "100000")),
        Integer.parseInt(opts.getOrDefault("payload", "1024")),
        Integer.parseInt(opts.getOrDefault("chunk", "256")),
        Integer.parseInt(opts.getOrDefault("tenants", "10")),
        BenchStores.requireBackend(opts.getOrDefault("backend", "rocksdb")),
        Integer.parseInt(opts.getOrDefault("runs", "3")),
        Path.of(opts.getOrDefault("out", "bench-results/archive")),
        opts.containsKey("work") ? Path.of(opts.get("work")) : null);
  }

  /** A sink that times its delegate's appends and syncs. */
  private static final class TimedSink implements ArchiveSink, AutoCloseable {
    private final ArchiveSink delegate;
    long appendNanos;
    long syncNanos;
    long syncs;

    TimedSink(ArchiveSink delegate) {
      this.delegate = delegate;
    }

    @Override
    public void append(long seq, byte[] envelope) {
      long t0 = System.nanoTime();
      delegate.append(seq, envelope);
      appendNanos += System.nanoTime() - t0;
    }

    @Override
    public void sync() {
      long t0 = System.nanoTime();
      delegate.sync();
      syncNanos += System.nanoTime() - t0;
      syncs++;
    }

    @Override
    public void close() {
      if (delegate instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException("closing the archive sink failed", e);
        }
      }
    }
  }

  /** Keeps nothing: the archiver's store work alone. */
  private static final class DiscardingSink implements ArchiveSink {
    @Override
    public void append(long seq, byte[] envelope) {}

    @Override
    public void sync() {}
  }
}
