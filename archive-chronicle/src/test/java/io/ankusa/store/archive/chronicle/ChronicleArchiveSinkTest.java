package io.ankusa.store.archive.chronicle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The sink and the reader on their own: what is appended and synced comes back after a reopen;
 * ranges; repeats left by archiver restarts are skipped; both roll cycles; argument, close and
 * corruption errors.
 */
class ChronicleArchiveSinkTest {

  // ---- the repeat-skipping property -------------------------------------------------------------

  /**
   * One archiver run after a restart. It starts at the lowest unsettled obligation, which is at or
   * below the previous run's highest: it appends again the last {@code back} seqs the archive holds
   * (their obligations were not settled; the archive holds nothing else in that span, since chunks
   * append every obligation in seq order), then new seqs above the highest (each step 1..3: gaps
   * are dropped hooks). A run cut off during the repeat ({@code cut < back}) appends only the first
   * {@code cut} repeats. Repeats carry different bytes here, so returning a later copy would show.
   */
  record Run(int back, int cut, List<Integer> steps, long envelopeSeed) {}

  @Provide
  Arbitrary<List<Run>> runs() {
    Arbitrary<Run> run =
        Combinators.combine(
                Arbitraries.integers().between(0, 12),
                Arbitraries.integers().between(0, 12),
                Arbitraries.integers().between(1, 3).list().ofMaxSize(20),
                Arbitraries.longs())
            .as(Run::new);
    return run.list().ofMinSize(1).ofMaxSize(4);
  }

  /**
   * Random runs, each starting at or below the previous run's highest (as after a restart): the
   * reader yields the union of the seqs, each once, sorted, with the bytes of the first copy; and a
   * random sub-range yields exactly the part of that inside it.
   */
  @Property
  void repeatsAreSkipped(
      @ForAll("runs") List<Run> runs,
      @ForAll @IntRange(min = 1, max = 80) int rangeFrom,
      @ForAll @IntRange(min = 0, max = 80) int rangeLength) {
    Path dir = TempDirs.create("archive-prop-");
    try {
      TreeMap<Long, byte[]> firstCopies = new TreeMap<>();
      long highest = 0;
      for (Run r : runs) {
        Random random = new Random(r.envelopeSeed());
        List<Long> archived = new ArrayList<>(firstCopies.keySet());
        List<Long> repeats =
            archived.subList(Math.max(0, archived.size() - r.back()), archived.size());
        List<Long> seqs = new ArrayList<>(repeats.subList(0, Math.min(r.cut(), repeats.size())));
        if (r.cut() >= repeats.size()) {
          long seq = highest;
          for (int step : r.steps()) {
            seq += step;
            seqs.add(seq);
          }
        }
        try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
          for (long seq : seqs) {
            byte[] envelope = new byte[random.nextInt(2049)];
            random.nextBytes(envelope);
            sink.append(seq, envelope);
            firstCopies.putIfAbsent(seq, envelope);
            highest = Math.max(highest, seq);
          }
          sink.sync();
        }
      }
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        assertThat(replay(reader, 1, Long.MAX_VALUE))
            .as("everything archived, each seq once, first copy")
            .containsExactlyElementsOf(hooks(firstCopies));
        long to = rangeFrom + (long) rangeLength;
        assertThat(replay(reader, rangeFrom, to))
            .as("range [%d, %d]", rangeFrom, to)
            .containsExactlyElementsOf(hooks(firstCopies.subMap((long) rangeFrom, true, to, true)));
        assertThat(reader.scanHighestSeq()).isEqualTo(highest);
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  // ---- examples --------------------------------------------------------------------------------

  @Example
  void appendSyncReopenReplayReturnsExactlyWhatWasAppended() {
    Path dir = TempDirs.create("archive-basic-");
    try {
      Map<Long, byte[]> appended = new TreeMap<>();
      Random random = new Random(7);
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
        for (long seq = 1; seq <= 300; seq++) {
          byte[] envelope = new byte[random.nextInt(2049)];
          random.nextBytes(envelope);
          sink.append(seq, envelope);
          appended.put(seq, envelope.clone());
          // The sink copies: the caller may reuse its array at once.
          java.util.Arrays.fill(envelope, (byte) 0x5A);
        }
        sink.sync();
      }
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        assertThat(replay(reader, 1, Long.MAX_VALUE)).containsExactlyElementsOf(hooks(appended));
        assertThat(replay(reader, 1, 1)).containsExactly(new ArchivedHook(1, appended.get(1L)));
        assertThat(replay(reader, 300, 300))
            .containsExactly(new ArchivedHook(300, appended.get(300L)));
        assertThat(replay(reader, 100, 109))
            .extracting(ArchivedHook::seq)
            .containsExactly(100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 109L);
        assertThat(replay(reader, 301, 400)).isEmpty();
        assertThat(reader.replay(250, 260, h -> {})).isEqualTo(11);
        assertThat(reader.scanHighestSeq()).isEqualTo(300);
      }
      // Appending after a reopen continues the same archive.
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
        sink.append(301, new byte[] {1, 2, 3});
        sink.sync();
      }
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        assertThat(replay(reader, 299, Long.MAX_VALUE))
            .extracting(ArchivedHook::seq)
            .containsExactly(299L, 300L, 301L);
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void hourlyCycleWorksAndAnExistingArchiveKeepsItsCycle() throws IOException {
    Path dir = TempDirs.create("archive-hourly-");
    try {
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.HOURLY)) {
        for (long seq = 1; seq <= 20; seq++) {
          sink.append(seq, new byte[] {(byte) seq});
        }
        sink.sync();
      }
      assertThat(cycleFiles(dir))
          .as("hourly cycle files are named yyyyMMdd-HHF.cq4")
          .allMatch(name -> name.matches("\\d{8}-\\d{2}F\\.cq4"))
          .isNotEmpty();
      // Opening it as DAILY keeps the hourly cycle (Chronicle reads it from metadata.cq4t).
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
        sink.append(21, new byte[] {21});
        sink.sync();
      }
      assertThat(cycleFiles(dir)).allMatch(name -> name.matches("\\d{8}-\\d{2}F\\.cq4"));
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        List<ArchivedHook> all = replay(reader, 1, Long.MAX_VALUE);
        assertThat(all)
            .extracting(ArchivedHook::seq)
            .containsExactly(
                1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L, 18L,
                19L, 20L, 21L);
        assertThat(all.get(20).envelope()).containsExactly(21);
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void dailyCycleFilesAreNamedByDay() throws IOException {
    Path dir = TempDirs.create("archive-daily-");
    try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
      sink.append(1, new byte[0]);
      sink.sync();
      assertThat(cycleFiles(dir)).singleElement().matches(name -> name.matches("\\d{8}F\\.cq4"));
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void badArgumentsAreRefusedBeforeTheQueueFileIsTouched() throws IOException {
    Path dir = TempDirs.create("archive-args-");
    try {
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
        assertThatThrownBy(() -> sink.append(0, new byte[1]))
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining(dir.toAbsolutePath().toString())
            .hasMessageContaining("seq 0");
        assertThatThrownBy(() -> sink.append(-5, new byte[1]))
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining("seq -5");
        assertThatThrownBy(() -> sink.append(3, null))
            .isInstanceOf(StoreArgumentException.class)
            .hasMessageContaining("seq 3")
            .hasMessageContaining("null");
        sink.sync();
        assertThat(cycleFiles(dir)).as("no cycle file was created by refused appends").isEmpty();
      }
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        assertThat(replay(reader, 1, Long.MAX_VALUE)).isEmpty();
        assertThat(reader.scanHighestSeq()).isZero();
        assertThatThrownBy(() -> reader.replay(0, 5, h -> {}))
            .isInstanceOf(StoreArgumentException.class);
        assertThatThrownBy(() -> reader.replay(6, 5, h -> {}))
            .isInstanceOf(StoreArgumentException.class);
        assertThatThrownBy(() -> reader.replay(1, 5, null))
            .isInstanceOf(StoreArgumentException.class);
      }
      Path missing = dir.resolve("no-such-archive");
      assertThatThrownBy(() -> ChronicleArchiveReader.open(missing))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining(missing.toString())
          .hasMessageContaining("does not exist");
      assertThat(missing).as("the reader never creates the directory").doesNotExist();
      assertThatThrownBy(() -> ChronicleArchiveSink.open(null, ArchiveRollCycle.DAILY))
          .isInstanceOf(StoreArgumentException.class);
      assertThatThrownBy(() -> ChronicleArchiveSink.open(dir, null))
          .isInstanceOf(StoreArgumentException.class);
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void everyCallAfterCloseThrows() {
    Path dir = TempDirs.create("archive-closed-");
    try {
      ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY);
      sink.append(1, new byte[] {1});
      sink.sync();
      sink.close();
      sink.close(); // idempotent
      assertThatThrownBy(() -> sink.append(2, new byte[] {2}))
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining(dir.toAbsolutePath().toString());
      assertThatThrownBy(sink::sync).isInstanceOf(StoreClosedException.class);
      assertThatThrownBy(() -> sink.append(0, null))
          .as("closed is reported before bad arguments")
          .isInstanceOf(StoreClosedException.class);

      ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir);
      reader.close();
      reader.close();
      assertThatThrownBy(() -> reader.replay(1, 2, h -> {}))
          .isInstanceOf(StoreClosedException.class);
      assertThatThrownBy(reader::scanHighestSeq).isInstanceOf(StoreClosedException.class);
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void aRecordOfAnUnknownFormatIsCorruption() {
    Path dir = TempDirs.create("archive-corrupt-format-");
    try {
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
        sink.append(1, new byte[] {1});
        sink.append(2, new byte[] {2});
        sink.sync();
      }
      long badIndex =
          writeRaw(
              dir,
              b -> {
                b.writeByte((byte) 9);
                b.write(new byte[] {0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 3});
              });
      try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(dir, ArchiveRollCycle.DAILY)) {
        sink.append(4, new byte[] {4});
        sink.sync();
      }
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        List<ArchivedHook> seen = new ArrayList<>();
        assertThatThrownBy(() -> reader.replay(1, Long.MAX_VALUE, seen::add))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining(dir.toAbsolutePath().toString())
            .hasMessageContaining("excerpt index 0x" + Long.toHexString(badIndex))
            .hasMessageContaining("format byte 9");
        assertThat(seen)
            .extracting(ArchivedHook::seq)
            .as("records before the damage were passed")
            .containsExactly(1L, 2L);
        assertThat(replay(reader, 1, 2))
            .as("a range that ends before the damage reads fine")
            .extracting(ArchivedHook::seq)
            .containsExactly(1L, 2L);
        assertThatThrownBy(reader::scanHighestSeq).isInstanceOf(StoreCorruptionException.class);
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void aRecordWhoseLengthDoesNotMatchIsCorruption() {
    Path dir = TempDirs.create("archive-corrupt-length-");
    try {
      long shortIndex = writeRaw(dir, b -> b.write(new byte[] {1, 0, 0, 0}));
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        assertThatThrownBy(() -> reader.replay(1, 10, h -> {}))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining("excerpt index 0x" + Long.toHexString(shortIndex))
            .hasMessageContaining("shorter than the 13-byte record header");
      }
      FileTrees.deleteRecursively(dir);
      // format 1, seq 5, length 4, but 3 envelope bytes.
      long badIndex =
          writeRaw(dir, b -> b.write(new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 4, 7, 7, 7}));
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(dir)) {
        assertThatThrownBy(() -> reader.replay(1, 10, h -> {}))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining(dir.toAbsolutePath().toString())
            .hasMessageContaining("excerpt index 0x" + Long.toHexString(badIndex))
            .hasMessageContaining("seq 5 says its envelope is 4 bytes but the excerpt holds 3");
      }
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }

  @Example
  void theAnalyticsAndBannerSwitchesAreSetOnlyWhenUnset() {
    for (String property :
        List.of(ChronicleSetup.ANALYTICS_PROPERTY, ChronicleSetup.ANNOUNCER_PROPERTY)) {
      String before = System.getProperty(property);
      try {
        System.clearProperty(property);
        ChronicleSetup.silenceUnlessConfigured();
        assertThat(System.getProperty(property)).as(property).isEqualTo("true");
        System.setProperty(property, "false");
        ChronicleSetup.silenceUnlessConfigured();
        assertThat(System.getProperty(property))
            .as("an operator's choice of %s is kept", property)
            .isEqualTo("false");
      } finally {
        if (before == null) {
          System.clearProperty(property);
        } else {
          System.setProperty(property, before);
        }
      }
    }
  }

  // ---- helpers ---------------------------------------------------------------------------------

  static List<ArchivedHook> replay(ChronicleArchiveReader reader, long from, long to) {
    List<ArchivedHook> out = new ArrayList<>();
    long n = reader.replay(from, to, out::add);
    assertThat(n).as("replay's count").isEqualTo(out.size());
    return out;
  }

  static List<ArchivedHook> hooks(Map<Long, byte[]> bySeq) {
    return bySeq.entrySet().stream()
        .map(e -> new ArchivedHook(e.getKey(), e.getValue()))
        .collect(Collectors.toList());
  }

  private static List<String> cycleFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".cq4"))
          .collect(Collectors.toList());
    }
  }

  /** Appends one excerpt with raw Chronicle calls (no record format) and returns its index. */
  private static long writeRaw(Path dir, java.util.function.Consumer<Bytes<?>> body) {
    try (ChronicleQueue q =
            SingleChronicleQueueBuilder.binary(dir)
                .rollCycle(ArchiveRollCycle.DAILY.chronicleCycle())
                .build();
        ExcerptAppender appender = q.createAppender()) {
      try (DocumentContext dc = appender.writingDocument()) {
        body.accept(dc.wire().bytes());
      }
      return appender.lastIndexAppended();
    }
  }
}
