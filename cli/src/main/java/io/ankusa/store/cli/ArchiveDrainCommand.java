package io.ankusa.store.cli;

import io.ankusa.store.archive.chronicle.ArchiveDirectory;
import io.ankusa.store.archive.chronicle.ArchiveRollCycle;
import io.ankusa.store.archive.chronicle.ChronicleArchiveSink;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.spi.Store;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ankusa-store archive drain DIR --archive-dir ADIR}: archives every hook the stopped store
 * in {@code DIR} still owes the archive, then settles those obligations.
 *
 * <p>It opens the existing store offline (no writer may have it open; the backend's lock refuses a
 * second process), refuses a store that is not format 3 ("run ankusa-store migrate first": opening
 * the queue would otherwise migrate it as a side effect), opens the queue with the archive on and
 * runs {@link Archiver#drain()} into a {@link ChronicleArchiveSink} on {@code ADIR}.
 *
 * <p><b>Watermark.</b> The archiver is given {@code () -> Long.MAX_VALUE} as its {@code
 * durableSeq}: offline, every hook in the store is one a restarted writer would treat as durable
 * (the writer's recovery keeps what the store holds and carries on from its last seq), so
 * everything the store holds may go to the archive once the WAL is synced, which the command does
 * first; the archive still gets only durable hooks, since no write is in flight. Online, the
 * watermark is the writer's {@code durableSeq} instead (see {@code demo --archive-dir}).
 *
 * <p><b>Durability.</b> The guarantee is the {@link Archiver}'s: each chunk's records are synced to
 * the archive before the chunk's obligations are deleted, so a crash or a sink failure during a
 * drain leaves the unsettled obligations in the store; running the drain again appends those hooks
 * again, and {@code archive replay} skips the repeats. Exit codes: 0 drained; 1 a sink that cannot
 * write; 2 bad input (missing or non-format-3 store, bad {@code --chunk} or {@code --cycle}); one
 * line on stderr. The archive directory is checked first ({@link
 * ArchiveDirectory#requireArchiveOrNew}), so a bad one is refused before the store is opened.
 */
@Command(
    name = "drain",
    description =
        "Archive every hook a stopped format-3 store still owes the archive, then settle the obligations.")
final class ArchiveDrainCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "DIR",
      description = "the store directory (the store must not be open elsewhere)")
  Path dir;

  @Option(
      names = "--archive-dir",
      required = true,
      paramLabel = "ADIR",
      description = "the archive directory (created if missing)")
  Path archiveDir;

  @Option(
      names = "--backend",
      defaultValue = "rocksdb",
      description = "the store's engine (default: ${DEFAULT-VALUE})")
  String backend;

  @Option(
      names = "--chunk",
      defaultValue = "" + Archiver.DEFAULT_CHUNK_HOOKS,
      description =
          "hooks per archive sync and settle batch, 1..100000 (default: ${DEFAULT-VALUE})")
  int chunk;

  @Option(
      names = "--cycle",
      defaultValue = "daily",
      description =
          "roll cycle of a new archive, daily or hourly; an existing archive keeps its own (default: ${DEFAULT-VALUE})")
  String cycle;

  /** Most hooks per chunk: a chunk's envelopes are held in memory until its sync. */
  static final int MAX_CHUNK = 100_000;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (chunk < 1 || chunk > MAX_CHUNK) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT, "--chunk must be in 1.." + MAX_CHUNK + " hooks, got " + chunk);
    }
    ArchiveRollCycle rollCycle = rollCycle(cycle);
    ArchiveDirectory.requireArchiveOrNew(
        archiveDir); // before the store opens: a bad one changes nothing
    PrintWriter out = spec.commandLine().getOut();
    try (Store store = StoreDirectory.openFormat3(dir, backend)) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults().withArchive(true));
      // What the store recovered may include a writer's last groups, applied but never synced; make
      // them
      // durable first, as a restarting writer does, so the archive never holds a hook a power cut
      // could
      // take back from the store.
      store.syncWal();
      long before = archivePending(queue);
      Archiver.ChunkReport r;
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(archiveDir, rollCycle)) {
        r = new Archiver(queue, () -> Long.MAX_VALUE, sink, chunk).drain();
      }
      out.printf("archive drain %s -> %s%n", store.directory(), archiveDir.toAbsolutePath());
      out.printf("  obligations before   %,d%n", before);
      out.printf("  settled              %,d (archived, synced)%n", r.settled());
      out.printf("  dropped              %,d (hook already gone)%n", r.dropped());
      out.printf("  bytes                %,d%n", r.envelopeBytes());
      out.printf("  last seq             %d%n", r.lastSeq());
      out.printf("  archive pending now  %,d%n", archivePending(queue));
      out.flush();
    }
    return 0;
  }

  /**
   * The store's aggregate {@code archive_pending} (the gauge {@code ankusa_queue_archive_pending}):
   * obligations not yet settled.
   */
  static long archivePending(DeliveryQueue queue) {
    return queue.counters().aggregate(queue.store()).archivePending();
  }

  /** {@code daily} or {@code hourly}, any case. */
  static ArchiveRollCycle rollCycle(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("daily")) {
      return ArchiveRollCycle.DAILY;
    }
    if (n.equals("hourly")) {
      return ArchiveRollCycle.HOURLY;
    }
    throw new IllegalArgumentException("--cycle must be daily or hourly, got " + name);
  }
}
