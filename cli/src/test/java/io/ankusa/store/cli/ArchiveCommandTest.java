package io.ankusa.store.cli;

import static io.ankusa.store.cli.CommandRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.archive.chronicle.ArchiveRollCycle;
import io.ankusa.store.archive.chronicle.ChronicleArchiveSink;
import io.ankusa.store.conformance.queue.fixtures.StoreArchive;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ankusa-store archive drain|replay} and {@code demo --archive-dir}. */
class ArchiveCommandTest {
  @TempDir Path tmp;

  /**
   * Hooks 1..5 (tenants acme, default, globex), ingested with the archive on; {@code damage}
   * applied after.
   */
  private Path store(Batch damage) {
    Path dir = tmp.resolve("store");
    try (Store store =
        StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults().withArchive(true));
      new DirectIngest(queue)
          .ingest(
              List.of(
                  new HookEnvelope(0, "acme", "src", "h1", "k1", 5_000, List.of(1, 2), new byte[7]),
                  new HookEnvelope(0, null, "src", "h2", null, 6_000, List.of(1), new byte[3]),
                  new HookEnvelope(0, "globex", "src", "h3", null, 7_000, List.of(4), new byte[9]),
                  new HookEnvelope(0, "acme", "src", "h4", null, 8_000, List.of(3), new byte[0]),
                  new HookEnvelope(
                      0, "globex", "other", "h5", null, 9_000, List.of(1, 2, 3), new byte[11])));
      if (!damage.isEmpty()) {
        store.write(damage, Durability.SYNC);
      }
    }
    return dir;
  }

  /** The seqs of the hook lines {@code archive replay} printed, in print order. */
  private static List<Long> seqs(String replayOut) {
    List<Long> seqs = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^(\\d+)  tenant=").matcher(replayOut);
    while (m.find()) {
      seqs.add(Long.parseLong(m.group(1)));
    }
    return seqs;
  }

  @Test
  void drainArchivesEveryHookThenReplayPrintsThemInSeqOrder() {
    Path dir = store(new Batch());
    Path adir = tmp.resolve("archive");
    CommandRun drain =
        run("archive", "drain", dir.toString(), "--archive-dir", adir.toString(), "--chunk", "2");
    assertThat(drain.code()).as(drain.err()).isZero();
    assertThat(drain.out())
        .contains("obligations before   5")
        .contains("settled              5")
        .contains("dropped              0")
        .contains("last seq             5")
        .contains("archive pending now  0");

    CommandRun replay = run("archive", "replay", adir.toString());
    assertThat(replay.code()).as(replay.err()).isZero();
    assertThat(seqs(replay.out())).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(replay.out())
        .contains(
            "1  tenant=acme  source=src  hook=h1  receivedAt=1970-01-01T00:00:05Z (5000)  sinks=1,2  payload=7 bytes")
        .contains("2  tenant=default  source=src  hook=h2")
        .contains(
            "5  tenant=globex  source=other  hook=h5  receivedAt=1970-01-01T00:00:09Z (9000)  sinks=1,2,3"
                + "  payload=11 bytes")
        .contains("replayed 5 hooks");

    // the obligations are settled and the counters still equal a fold of the rows
    CommandRun verify = run("verify", dir.toString());
    assertThat(verify.code()).as(verify.out() + verify.err()).isZero();

    // a second drain finds nothing; the archive still reads back each seq once
    CommandRun again = run("archive", "drain", dir.toString(), "--archive-dir", adir.toString());
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out()).contains("settled              0").contains("last seq             0");
    assertThat(seqs(run("archive", "replay", adir.toString()).out()))
        .containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void anObligationWhoseHookIsGoneIsDroppedAndNotArchived() {
    Path dir = store(new Batch().delete(Format3.HOOKS, Keys.hook(3)));
    Path adir = tmp.resolve("archive");
    CommandRun drain =
        run(
            "archive",
            "drain",
            dir.toString(),
            "--archive-dir",
            adir.toString(),
            "--cycle",
            "HOURLY");
    assertThat(drain.code()).as(drain.err()).isZero();
    assertThat(drain.out())
        .contains("settled              4")
        .contains("dropped              1")
        .contains("archive pending now  0");
    assertThat(seqs(run("archive", "replay", adir.toString()).out()))
        .containsExactly(1L, 2L, 4L, 5L);
  }

  @Test
  void replayKeepsToItsRangeAndLimit() {
    Path adir = tmp.resolve("archive");
    CommandRun drain =
        run("archive", "drain", store(new Batch()).toString(), "--archive-dir", adir.toString());
    assertThat(drain.code()).as(drain.err()).isZero();
    String a = adir.toString();

    assertThat(seqs(run("archive", "replay", a, "--from", "2", "--to", "4").out()))
        .containsExactly(2L, 3L, 4L);
    assertThat(seqs(run("archive", "replay", a, "--from", "3", "--to", "3").out()))
        .containsExactly(3L);
    assertThat(seqs(run("archive", "replay", a, "--from", "4").out())).containsExactly(4L, 5L);
    assertThat(seqs(run("archive", "replay", a, "--to", "1").out())).containsExactly(1L);
    assertThat(seqs(run("archive", "replay", a, "--from", "5", "--to", "99").out()))
        .containsExactly(5L);
    assertThat(seqs(run("archive", "replay", a, "--from", "6").out())).isEmpty();

    CommandRun limited = run("archive", "replay", a, "--limit", "2");
    assertThat(limited.code()).as(limited.err()).isZero();
    assertThat(seqs(limited.out())).containsExactly(1L, 2L);
    assertThat(limited.out()).contains("replayed 2 hooks").contains("stopped at --limit 2");
    assertThat(seqs(run("archive", "replay", a, "--from", "2", "--limit", "5").out()))
        .containsExactly(2L, 3L, 4L, 5L);

    for (String[] bad :
        new String[][] {
          {"--from", "0"},
          {"--from", "4", "--to", "3"},
          {"--to", "0"},
          {"--limit", "0"},
          {"--from", "x"}
        }) {
      List<String> args = new ArrayList<>(List.of("archive", "replay", a));
      args.addAll(List.of(bad));
      CommandRun r = run(args.toArray(new String[0]));
      assertThat(r.code()).as(String.join(" ", bad)).isEqualTo(2);
      assertThat(r.out()).as(String.join(" ", bad)).doesNotContain("tenant=");
    }
  }

  @Test
  void aFormat2OrMissingStoreIsRefusedWithExitTwoAndLeftAlone() throws Exception {
    Path fixture = tmp.resolve("v2.tar.zst");
    assertThat(run("fixture", "--format", "2", fixture.toString()).code()).isZero();
    Path v2 = tmp.resolve("v2");
    StoreArchive.unpack(fixture, v2);
    Path adir = tmp.resolve("archive");

    CommandRun refused = run("archive", "drain", v2.toString(), "--archive-dir", adir.toString());
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err()).contains("run ankusa-store migrate").doesNotContain("\tat ");
    assertThat(refused.err().strip().lines()).hasSize(1);
    // not migrated as a side effect
    assertThat(run("migrate", v2.toString(), "--dry-run").out()).contains("2 -> 3");
    assertThat(adir).doesNotExist();

    CommandRun missing =
        run("archive", "drain", tmp.resolve("nope").toString(), "--archive-dir", adir.toString());
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("no store at");
  }

  @Test
  void aStoreStampedFormat2IsRefused() {
    Path adir = tmp.resolve("archive");
    Path stamped2 =
        store(
            new Batch().put(Format3.DEFAULT, Keys.formatStamp(), new FormatStampValue(2).encode()));
    CommandRun two = run("archive", "drain", stamped2.toString(), "--archive-dir", adir.toString());
    assertThat(two.code()).isEqualTo(2);
    assertThat(two.err())
        .startsWith("ankusa-store archive drain: ")
        .contains("is format 2")
        .contains("run ankusa-store migrate");
    assertThat(adir).doesNotExist();
  }

  @Test
  void aStoreInAnInterruptedMigrationIsRefused() {
    Path adir = tmp.resolve("archive");
    Path migrating =
        store(new Batch().put(Format3.DEFAULT, Keys.migrating(Format3.FORMAT), new byte[0]));
    CommandRun r = run("archive", "drain", migrating.toString(), "--archive-dir", adir.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("interrupted migration").contains("run ankusa-store migrate");
    assertThat(adir).doesNotExist();
  }

  @Test
  void badDrainOptionsAreExitTwo() {
    Path dir = store(new Batch());
    String adir = tmp.resolve("archive").toString();
    assertThat(
            run("archive", "drain", dir.toString(), "--archive-dir", adir, "--chunk", "0").code())
        .isEqualTo(2);
    assertThat(
            run("archive", "drain", dir.toString(), "--archive-dir", adir, "--chunk", "-3").code())
        .isEqualTo(2);
    assertThat(
            run("archive", "drain", dir.toString(), "--archive-dir", adir, "--cycle", "weekly")
                .code())
        .isEqualTo(2);
    assertThat(run("archive", "drain", dir.toString()).code()).as("no --archive-dir").isEqualTo(2);
    // nothing was settled by the refused runs
    CommandRun drain = run("archive", "drain", dir.toString(), "--archive-dir", adir);
    assertThat(drain.out()).as(drain.err()).contains("settled              5");
  }

  @Test
  void anArchiveDirectoryUnderAFileIsBadInputAndSettlesNothing() throws Exception {
    Path dir = store(new Batch());
    Path notADirectory = Files.writeString(tmp.resolve("a-file"), "not an archive");
    CommandRun refused =
        run(
            "archive",
            "drain",
            dir.toString(),
            "--archive-dir",
            notADirectory.resolve("archive").toString());
    assertThat(refused.code())
        .as("a file in the archive's path is bad input: %s", refused.err())
        .isEqualTo(2);
    assertThat(refused.err()).contains("is a file, not a directory").doesNotContain("\tat ");
    CommandRun drain =
        run("archive", "drain", dir.toString(), "--archive-dir", tmp.resolve("archive").toString());
    assertThat(drain.out())
        .as("the refused run settled nothing: %s", drain.err())
        .contains("settled              5");
  }

  @Test
  void replayOfAMissingDirectoryIsExitTwo() {
    CommandRun r = run("archive", "replay", tmp.resolve("nope").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("does not exist").doesNotContain("\tat ");
  }

  @Test
  void anEnvelopeThatDoesNotDecodeIsExitOneNamingItsSeq() {
    Path adir = tmp.resolve("archive");
    try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(adir, ArchiveRollCycle.DAILY)) {
      sink.append(
          1,
          new HookEnvelope(1, "acme", "src", "h1", null, 5_000, List.of(1), new byte[2]).encode());
      sink.append(2, new byte[] {42, 0, 1});
      sink.sync();
    }
    CommandRun r = run("archive", "replay", adir.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(seqs(r.out())).containsExactly(1L);
    assertThat(r.err())
        .startsWith("ankusa-store archive replay: ")
        .contains("archived hook seq 2")
        .contains("last good seq 1");
    assertThat(r.err().strip().lines()).hasSize(1);
  }

  @Test
  void aRecordOfAnUnknownFormatIsExitOneNamingTheExcerpt() {
    Path adir = tmp.resolve("archive");
    try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(adir, ArchiveRollCycle.DAILY)) {
      sink.append(
          1, new HookEnvelope(1, null, "src", "h1", null, 5_000, List.of(1), new byte[2]).encode());
      sink.sync();
    }
    try (ChronicleQueue q = SingleChronicleQueueBuilder.binary(adir).build();
        ExcerptAppender appender = q.createAppender();
        DocumentContext dc = appender.writingDocument()) {
      dc.wire().bytes().writeByte((byte) 9).writeLong(2).writeInt(0);
    }
    CommandRun r = run("archive", "replay", adir.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(seqs(r.out())).containsExactly(1L);
    assertThat(r.err()).contains(adir.toAbsolutePath().toString()).containsIgnoringCase("excerpt");
  }

  @Test
  void theDemoWithAnArchiveArchivesEveryHookAndReadsThemBack() {
    Path adir = tmp.resolve("archive");
    CommandRun demo =
        run(
            "demo",
            "--dir",
            tmp.resolve("data").toString(),
            "--seconds",
            "1",
            "--tenants",
            "5",
            "--producers",
            "1",
            "--archive-dir",
            adir.toString());
    assertThat(demo.code()).as(demo.out() + demo.err()).isZero();
    assertThat(demo.out())
        .contains("archive replay       ok")
        .contains("archive pending      0\n")
        .containsPattern("verify .*: clean");
    Matcher archived = Pattern.compile("archive +([\\d,]+) hooks archived").matcher(demo.out());
    assertThat(archived.find()).isTrue();
    long n = Long.parseLong(archived.group(1).replace(",", ""));
    assertThat(n).isPositive();
    Matcher created = Pattern.compile("\\(([\\d,]+) created in").matcher(demo.out());
    assertThat(created.find()).as(demo.out()).isTrue();
    assertThat(n)
        .as("hooks archived: every hook the demo created, none dropped")
        .isEqualTo(Long.parseLong(created.group(1).replace(",", "")));

    CommandRun replay = run("archive", "replay", adir.toString());
    assertThat(replay.code()).as(replay.err()).isZero();
    List<Long> seqs = seqs(replay.out());
    assertThat(seqs).hasSize((int) n).isSorted().doesNotHaveDuplicates();
    assertThat(Files.isDirectory(adir)).isTrue();
  }
}
