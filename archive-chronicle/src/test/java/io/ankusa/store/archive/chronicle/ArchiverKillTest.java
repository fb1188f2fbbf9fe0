package io.ankusa.store.archive.chronicle;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.rocksdb.RocksDbStoreProvider;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archive's guarantee across SIGKILL. A child JVM ({@link ArchiverKillChild}) ingests into a
 * RocksDB store with the archive on while an {@link Archiver} copies hooks into the Chronicle sink
 * in chunks of 16; the parent kills it with SIGKILL at a random moment after it has archived
 * something — mid-chunk, often between the sink's sync and the settle batch, or in the middle of an
 * excerpt. Then:
 *
 * <ul>
 *   <li>every acknowledged hook is stored, and every stored hook is still an {@code 'a'} obligation
 *       or in the archive (no obligation lost);
 *   <li>the archive holds only stored hooks, with their exact bytes;
 *   <li>archive_pending equals the number of {@code 'a'} rows and counters equal a fold;
 *   <li>after a new sink and archiver {@code drain()}, the reader yields every stored seq exactly
 *       once, in order, with exact bytes, and no obligation is left.
 * </ul>
 *
 * Cycles accumulate on one store and one archive: {@value #DEFAULT_CYCLES} by default, the system
 * property {@code ankusa.archive.kill.cycles} runs more; {@code ankusa.seed} (the project's one
 * seed property) replays the kill moments. Chronicle needs no special recovery step: the next
 * appender frees the dead process's write lock (its pid is gone) and overwrites the unfinished
 * excerpt, and a reader stops at it.
 */
class ArchiverKillTest {
  static final int DEFAULT_CYCLES = 5;
  private static final Logger LOG = LoggerFactory.getLogger(ArchiverKillTest.class);

  @TempDir Path tmp;

  @Test
  void noObligationIsLostAndEveryHookIsArchivedOnceAcrossSigkill() throws Exception {
    int cycles = Integer.getInteger("ankusa.archive.kill.cycles", DEFAULT_CYCLES);
    long seed = Long.getLong("ankusa.seed", System.nanoTime()); // the project's one seed property
    Random random = new Random(seed);
    Path storeDir = tmp.resolve("store");
    Path archiveDir = tmp.resolve("archive");
    Path acks = tmp.resolve("acks.txt");
    Path progress = tmp.resolve("progress.txt");
    Files.createFile(acks);
    Files.createFile(progress);
    long checked = 0;
    for (int cycle = 1; cycle <= cycles; cycle++) {
      String what =
          "cycle "
              + cycle
              + " of "
              + cycles
              + " (seed "
              + seed
              + ", replay with -Dankusa.seed="
              + seed
              + ")";
      runAndKill(storeDir, archiveDir, acks, progress, cycle, random.nextInt(300), what);
      checked = check(storeDir, archiveDir, acks, what);
    }
    assertThat(checked).as("hooks checked: the children made progress").isGreaterThan(0);
  }

  private void runAndKill(
      Path storeDir,
      Path archiveDir,
      Path acks,
      Path progress,
      int cycle,
      int killAfterMillis,
      String what)
      throws Exception {
    Path stderr = tmp.resolve("child-" + cycle + ".err");
    List<String> command = new ArrayList<>();
    command.add(ChildJvmLauncher.java());
    command.addAll(childJvmFlags());
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            ArchiverKillChild.class.getName(),
            storeDir.toString(),
            archiveDir.toString(),
            acks.toString(),
            progress.toString(),
            Integer.toString(cycle)));
    Process child =
        ChildJvmLauncher.start(
            new ProcessBuilder(command)
                .redirectError(stderr.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD));
    try {
      long acked = Files.size(acks);
      long archived = Files.size(progress);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while ((Files.size(acks) == acked || Files.size(progress) == archived)
          && child.isAlive()
          && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      Thread.sleep(killAfterMillis);
      assertThat(child.isAlive())
          .as(
              "%s: the child is still running after it archived something; its stderr:%n%s",
              what, Files.readString(stderr))
          .isTrue();
      assertThat(Files.size(progress))
          .as("%s: the child archived something before the kill", what)
          .isGreaterThan(archived);
    } finally {
      child.destroyForcibly(); // SIGKILL: no close, no final sync, maybe half an excerpt
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("%s: the child exited", what).isTrue();
    }
  }

  /**
   * Checks the store and the archive after a kill, drains, checks again; returns the hooks checked.
   */
  private long check(Path storeDir, Path archiveDir, Path acks, String what) throws IOException {
    TreeSet<Long> acked = new TreeSet<>();
    String text = Files.readString(acks, StandardCharsets.UTF_8);
    int end = text.lastIndexOf('\n'); // a kill may cut the last line short
    if (end > 0) {
      for (String line : text.substring(0, end).split("\n")) {
        acked.add(Long.parseLong(line));
      }
    }
    try (Store store =
        new RocksDbStoreProvider().open(storeDir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, ArchiverKillChild.CONFIG);
      TreeMap<Long, byte[]> stored = QueueRows.hooks(store);
      TreeSet<Long> obligations = QueueRows.obligations(store);
      assertThat(stored.keySet())
          .as("%s: every acknowledged hook is stored", what)
          .containsAll(acked);

      // The archive as the kill left it, read before any sink reopens it (a reader must not wait at
      // a
      // half-written excerpt).
      List<ArchivedHook> archived;
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(archiveDir)) {
        archived = ChronicleArchiveSinkTest.replay(reader, 1, Long.MAX_VALUE);
      }
      TreeSet<Long> archivedSeqs = new TreeSet<>();
      for (ArchivedHook h : archived) {
        archivedSeqs.add(h.seq());
        assertThat(stored)
            .as("%s: the archive holds seq %d, which is not a stored hook", what, h.seq())
            .containsKey(h.seq());
        assertThat(Arrays.equals(h.envelope(), stored.get(h.seq())))
            .as("%s: archived bytes of seq %d equal its 'h' row", what, h.seq())
            .isTrue();
      }
      long excerpts = rawExcerpts(archiveDir);
      LOG.info(
          "{}: {} hooks stored ({} acknowledged), {} obligations, {} archived seqs in {} excerpts ({} repeats)",
          what,
          stored.size(),
          acked.size(),
          obligations.size(),
          archivedSeqs.size(),
          excerpts,
          excerpts - archivedSeqs.size());
      for (long seq : stored.keySet()) {
        assertThat(obligations.contains(seq) || archivedSeqs.contains(seq))
            .as(
                "%s: hook %d is neither an 'a' obligation nor archived: its obligation was lost",
                what, seq)
            .isTrue();
      }
      assertThat(QueueRows.archivePending(store, ArchiverKillChild.CONFIG))
          .as("%s: archive_pending equals the 'a' rows", what)
          .isEqualTo(obligations.size());
      assertThat(Counters.readAll(store))
          .as("%s: counters equal a fold", what)
          .isEqualTo(CounterFold.fold(store));

      try (ChronicleArchiveSink sink =
          ChronicleArchiveSink.open(archiveDir, ArchiveRollCycle.DAILY)) {
        new Archiver(queue, () -> Long.MAX_VALUE, sink, ArchiverKillChild.CHUNK_HOOKS).drain();
      }
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(archiveDir)) {
        assertThat(ChronicleArchiveSinkTest.replay(reader, 1, Long.MAX_VALUE))
            .as(
                "%s: after drain the archive yields every stored hook once, in order, with exact bytes",
                what)
            .containsExactlyElementsOf(ChronicleArchiveSinkTest.hooks(stored));
      }
      assertThat(QueueRows.obligations(store)).as("%s: 'a' rows after drain", what).isEmpty();
      assertThat(QueueRows.archivePending(store, ArchiverKillChild.CONFIG))
          .as("%s: archive_pending after drain", what)
          .isZero();
      return stored.size();
    }
  }

  /** Every excerpt in the archive, repeats included (raw Chronicle read). */
  private static long rawExcerpts(Path archiveDir) {
    long n = 0;
    try (ChronicleQueue q = SingleChronicleQueueBuilder.binary(archiveDir).readOnly(true).build();
        ExcerptTailer tailer = q.createTailer()) {
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return n;
          }
          n++;
        }
      }
    }
  }

  /**
   * The flags this JVM runs with that the child needs too (native access, Chronicle's exports,
   * jna.tmpdir).
   */
  private static List<String> childJvmFlags() {
    List<String> flags = new ArrayList<>();
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-exports")
          || arg.startsWith("--add-opens")
          || arg.startsWith("--enable-native-access")
          || arg.startsWith("-XX:+IgnoreUnrecognizedVMOptions")
          || arg.startsWith("-Dchronicle.")
          || arg.startsWith("-Djna.")) {
        flags.add(arg);
      }
    }
    return flags;
  }
}
