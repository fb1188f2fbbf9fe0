package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.archive.chronicle.ArchiveRollCycle;
import io.ankusa.store.archive.chronicle.ChronicleArchiveSink;
import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.conformance.queue.fixtures.FixtureMain;
import io.ankusa.store.conformance.queue.fixtures.StoreArchive;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line under bad input, as a table: one row per command × bad input, each run
 * in-process through {@link AnkusaStore#execute} with captured streams. Every row asserts the exit
 * code, that stderr is exactly one line naming the command, without a stack trace, holding the
 * row's expected words, and that the directory the row points at is byte-identical afterwards
 * (every file's SHA-256, and no file added or removed; a missing path is still missing) — bad input
 * loses nothing, and read-only commands change no file.
 *
 * <p>Targets ({@code $DIR} in a row's arguments) are made fresh for each row from fixtures packed
 * once: a format-3 and a format-2 RocksDB store, a format-3 LMDB store, a Chronicle archive, an
 * empty directory, a directory of garbage, a regular file, a missing path, a half-extracted RocksDB
 * fixture (only {@code CURRENT} and {@code IDENTITY}; or all but one table file), a fixture whose
 * WAL is cut in half, and the same store while this JVM holds it open (locked).
 *
 * <p>Permission denied is tested two ways. The {@code denied} test backend fails every open exactly
 * as RocksDB fails on a file the operating system refuses (an {@code IOError} "Permission denied"
 * translated by the RocksDB backend's own failure mapping). And {@code IMMUTABLE} rows make the
 * real store directory unwritable in a way root cannot bypass — {@code chattr +i} (root) or mode
 * {@code r-x} (any other user) — and are aborted, with the reason, where neither is possible.
 */
class BadInputTableTest {
  @TempDir static Path fixtures;
  @TempDir Path rowDir;

  private static Path v3Rocks;
  private static Path v2Rocks;
  private static Path v3Lmdb;
  private static Path v3Flushed;
  private static Path archive;

  /** What {@code $DIR} is for a row. */
  enum Target {
    MISSING,
    FILE,
    EMPTY,
    GARBAGE,
    V3_ROCKS,
    V2_ROCKS,
    V3_LMDB,
    HALF_EXTRACTED,
    TRUNCATED_WAL,
    LOCKED,
    LOCKED_ELSEWHERE,
    IMMUTABLE_V3,
    IMMUTABLE_V2,
    MISSING_SST,
    ARCHIVE,
    GARBAGE_ARCHIVE,
    NONE
  }

  /**
   * One row.
   *
   * @param target what {@code $DIR} is
   * @param args the command line; {@code $DIR} is the target, {@code $NEW} a fresh missing path,
   *     {@code $V3} a good format-3 RocksDB store, {@code $ARCHIVE} a good archive
   * @param exit the expected exit code
   * @param err words stderr must contain (case-insensitive); empty for a row that must succeed
   */
  record Row(Target target, List<String> args, int exit, String err) {
    String name() {
      return String.join(" ", args).replace("$DIR", target.name().toLowerCase()) + " -> " + exit;
    }
  }

  private static Row row(Target target, int exit, String err, String... args) {
    return new Row(target, List.of(args), exit, err);
  }

  @BeforeAll
  static void packFixtures() {
    v3Rocks = unpacked(3, "rocksdb");
    v2Rocks = unpacked(2, "rocksdb");
    v3Lmdb = unpacked(3, "lmdb");
    v3Flushed = fixtures.resolve("v3-flushed");
    try {
      copy(v3Rocks, v3Flushed);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // an open and close moves the fixture's WAL into table files, which a half-extracted copy may
    // lack
    StoreProvider.named("rocksdb")
        .open(v3Flushed, StoreOptions.defaults().createIfMissing(false), Format3.families())
        .close();
    archive = fixtures.resolve("archive");
    try (ChronicleArchiveSink sink = ChronicleArchiveSink.open(archive, ArchiveRollCycle.DAILY)) {
      sink.append(
          1,
          new io.ankusa.store.queue.internal.record.HookEnvelope(
                  1, "acme", "s", "h1", null, 5_000, List.of(1), new byte[3])
              .encode());
      sink.sync();
    }
  }

  @AfterAll
  static void allowDeletion() {
    // an IMMUTABLE row that failed half-way must not leave an undeletable directory behind
    ReadOnlyDirectory.restoreAll();
  }

  private static Path unpacked(int format, String backend) {
    Path tar = fixtures.resolve("v" + format + "-" + backend + ".tar.zst");
    FixtureMain.write(format, tar, backend);
    Path dir = fixtures.resolve("v" + format + "-" + backend);
    StoreArchive.unpack(tar, dir);
    return dir;
  }

  static List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    // every command that opens a store, against every kind of bad directory
    for (String[] command :
        new String[][] {
          {"verify"},
          {"inspect"},
          {"migrate"},
          {"migrate", "--dry-run"},
          {"archive", "drain", "--archive-dir", "$NEW"}
        }) {
      List<String> c = List.of(command);
      String[] head =
          command[0].equals("archive")
              ? new String[] {"archive", "drain"}
              : new String[] {command[0]};
      List<String> tail = c.subList(head.length, c.size());
      rows.add(new Row(Target.NONE, concat(head, tail), 2, "missing required parameter"));
      rows.add(new Row(Target.MISSING, concat(head, "$DIR", tail), 2, "does not exist"));
      rows.add(
          new Row(Target.FILE, concat(head, "$DIR", tail), 2, "is a file, not a store directory"));
      rows.add(new Row(Target.EMPTY, concat(head, "$DIR", tail), 2, "the directory is empty"));
      rows.add(new Row(Target.GARBAGE, concat(head, "$DIR", tail), 2, "holds no store marker"));
      rows.add(
          new Row(
              Target.V3_LMDB,
              concat(head, "$DIR", tail),
              2,
              "holds a store of the 'lmdb' backend"));
      rows.add(
          new Row(Target.V3_ROCKS, concat(head, "$DIR", tail, "--backend", "lmdb"), 2, "lmdb"));
      rows.add(new Row(Target.HALF_EXTRACTED, concat(head, "$DIR", tail), 2, "no RocksDB store"));
      rows.add(new Row(Target.LOCKED, concat(head, "$DIR", tail), 2, "already open"));
      rows.add(
          new Row(
              Target.V3_ROCKS,
              concat(head, "$DIR", tail, "--backend", "nosuch"),
              2,
              "no store backend named 'nosuch'"));
      rows.add(
          new Row(
              Target.V3_ROCKS,
              concat(head, "$DIR", tail, "--backend", "denied"),
              2,
              "permission denied"));
      rows.add(
          new Row(
              Target.V3_ROCKS,
              concat(head, "$DIR", tail, "--no-such-option"),
              2,
              "unknown option"));
    }
    // a store another process holds read-only: readers share it, writers are refused, nothing is
    // written
    // (a read-write holder keeps writing its own info log, so the files could not be compared)
    // (one child JVM per row: three rows keep the table's time down)
    rows.add(row(Target.LOCKED_ELSEWHERE, 0, "", "verify", "$DIR"));
    rows.add(
        row(
            Target.LOCKED_ELSEWHERE,
            2,
            "in another process",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$NEW"));
    rows.add(
        row(
            Target.LOCKED_ELSEWHERE,
            2,
            "in another process",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "1"));
    // the read-only commands read a good store without changing a file, also when nothing may be
    // written
    rows.add(row(Target.V3_ROCKS, 0, "", "verify", "$DIR"));
    rows.add(row(Target.V3_ROCKS, 0, "", "inspect", "$DIR"));
    rows.add(row(Target.V3_ROCKS, 0, "", "migrate", "$DIR", "--dry-run"));
    rows.add(row(Target.V2_ROCKS, 0, "", "migrate", "$DIR", "--dry-run"));
    rows.add(row(Target.V3_ROCKS, 0, "", "migrate", "$DIR"));
    rows.add(row(Target.V3_LMDB, 0, "", "verify", "$DIR", "--backend", "lmdb"));
    rows.add(row(Target.IMMUTABLE_V3, 0, "", "verify", "$DIR"));
    rows.add(row(Target.IMMUTABLE_V3, 0, "", "inspect", "$DIR"));
    rows.add(row(Target.IMMUTABLE_V2, 0, "", "migrate", "$DIR", "--dry-run"));
    // ... and the writers refuse an unwritable one as a permissions problem, never as damage
    rows.add(row(Target.IMMUTABLE_V2, 2, "permission denied", "migrate", "$DIR"));
    rows.add(
        row(
            Target.IMMUTABLE_V3,
            2,
            "permission denied",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$NEW"));
    rows.add(
        row(
            Target.IMMUTABLE_V3,
            2,
            "permission denied",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "1"));
    // an old store is refused by the format-3 readers, with the way out
    rows.add(row(Target.V2_ROCKS, 2, "run ankusa-store migrate", "verify", "$DIR"));
    rows.add(row(Target.V2_ROCKS, 2, "run ankusa-store migrate", "inspect", "$DIR"));
    rows.add(
        row(
            Target.V2_ROCKS,
            2,
            "run ankusa-store migrate",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$NEW"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "memory backend keeps no store on disk",
            "migrate",
            "$DIR",
            "--backend",
            "memory"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "memory backend keeps no store on disk",
            "migrate",
            "$DIR",
            "--dry-run",
            "--backend",
            "memory"));
    rows.add(row(Target.V3_ROCKS, 2, "no memory store", "verify", "$DIR", "--backend", "memory"));
    // a WAL cut in half is the torn tail a crash leaves: RocksDB keeps the whole batches before it,
    // and
    // those make a clean store; a table file missing from a half-extracted copy is damage, a
    // problem found (1)
    rows.add(row(Target.TRUNCATED_WAL, 0, "", "verify", "$DIR"));
    rows.add(row(Target.TRUNCATED_WAL, 0, "", "inspect", "$DIR"));
    for (String[] command :
        new String[][] {{"verify"}, {"inspect"}, {"migrate"}, {"migrate", "--dry-run"}}) {
      rows.add(
          new Row(
              Target.MISSING_SST,
              concat(
                  new String[] {command[0]}, "$DIR", List.of(command).subList(1, command.length)),
              1,
              "damaged"));
    }
    // numbers
    rows.add(row(Target.V3_ROCKS, 2, "--top must be >= 0", "inspect", "$DIR", "--top", "-1"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "invalid value for option '--top'",
            "inspect",
            "$DIR",
            "--top",
            "99999999999"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "invalid value for option '--top'",
            "inspect",
            "$DIR",
            "--top",
            "many"));
    for (String chunk : new String[] {"0", "-3", "100001", "2147483647"}) {
      rows.add(
          row(
              Target.V3_ROCKS,
              2,
              "--chunk must be in 1..100000",
              "archive",
              "drain",
              "$DIR",
              "--archive-dir",
              "$NEW",
              "--chunk",
              chunk));
    }
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "invalid value for option '--chunk'",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$NEW",
            "--chunk",
            "99999999999"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "--cycle must be daily or hourly",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$NEW",
            "--cycle",
            "weekly"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "missing required option: '--archive-dir",
            "archive",
            "drain",
            "$DIR"));
    // archive drain: what the archive directory must be
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "is a file, not a directory",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$V3/CURRENT"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "is a file, not a directory",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$V3/CURRENT/archive"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "is not an archive",
            "archive",
            "drain",
            "$DIR",
            "--archive-dir",
            "$V3"));
    // archive replay
    rows.add(row(Target.NONE, 2, "missing required parameter", "archive", "replay"));
    rows.add(row(Target.MISSING, 2, "does not exist", "archive", "replay", "$DIR"));
    rows.add(row(Target.FILE, 2, "is not a directory", "archive", "replay", "$DIR"));
    rows.add(row(Target.EMPTY, 2, "is not an archive", "archive", "replay", "$DIR"));
    rows.add(row(Target.GARBAGE, 2, "is not an archive", "archive", "replay", "$DIR"));
    rows.add(
        row(
            Target.GARBAGE_ARCHIVE,
            2,
            "is not an archive of this format",
            "archive",
            "replay",
            "$DIR"));
    rows.add(row(Target.V3_ROCKS, 2, "is not an archive", "archive", "replay", "$DIR"));
    rows.add(row(Target.V3_LMDB, 2, "is not an archive", "archive", "replay", "$DIR"));
    rows.add(row(Target.ARCHIVE, 0, "", "archive", "replay", "$DIR"));
    for (String[] range :
        new String[][] {
          {"--from", "0"},
          {"--from", "-5"},
          {"--from", "4", "--to", "3"},
          {"--to", "0"},
          {"--limit", "0"},
          {"--limit", "-1"},
          {"--from", "x"},
          {"--limit", "99999999999999999999"}
        }) {
      List<String> args = new ArrayList<>(List.of("archive", "replay", "$DIR"));
      args.addAll(List.of(range));
      rows.add(
          new Row(
              Target.ARCHIVE,
              args,
              2,
              range[0].equals("--from") && range[1].equals("x") || range[1].startsWith("9999")
                  ? "invalid value"
                  : "must"));
    }
    // demo: every option up front, and a store only in a missing or empty directory
    for (String[] bad :
        new String[][] {
          {"--tenants", "0"},
          {"--tenants", "-1"},
          {"--tenants", "1000001"},
          {"--tenants", "2147483647"},
          {"--producers", "0"},
          {"--producers", "-4"},
          {"--producers", "257"},
          {"--producers", "2000"},
          {"--seconds", "0"},
          {"--seconds", "-1"},
          {"--seconds", "86401"},
          {"--seconds", "2147483647"},
          {"--retry-rate", "-0.1"},
          {"--retry-rate", "1.5"},
          {"--retry-rate", "NaN"},
          {"--dead-rate", "2"},
          {"--duplicate-rate", "-1"},
          {"--duplicate-rate", "1.01"},
          {"--retry-rate", "0.6", "--dead-rate", "0.6"}
        }) {
      List<String> args = new ArrayList<>(List.of("demo", "--dir", "$DIR"));
      args.addAll(List.of(bad));
      rows.add(new Row(Target.MISSING, args, 2, bad[0]));
    }
    rows.add(
        row(
            Target.MISSING,
            2,
            "invalid value for option '--tenants'",
            "demo",
            "--dir",
            "$DIR",
            "--tenants",
            "99999999999"));
    rows.add(
        row(
            Target.MISSING,
            2,
            "invalid value for option '--seconds'",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "ten"));
    rows.add(
        row(
            Target.MISSING,
            2,
            "no store backend named 'nosuch'",
            "demo",
            "--dir",
            "$DIR",
            "--backend",
            "nosuch"));
    rows.add(
        row(
            Target.FILE,
            2,
            "is a file, not a store directory",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "1"));
    rows.add(
        row(Target.GARBAGE, 2, "holds no store marker", "demo", "--dir", "$DIR", "--seconds", "1"));
    rows.add(
        row(
            Target.V3_LMDB,
            2,
            "holds a store of the 'lmdb' backend",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "1"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "lmdb",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "1",
            "--backend",
            "lmdb"));
    rows.add(row(Target.LOCKED, 2, "already open", "demo", "--dir", "$DIR", "--seconds", "1"));
    rows.add(
        row(
            Target.V3_ROCKS,
            2,
            "permission denied",
            "demo",
            "--dir",
            "$DIR",
            "--seconds",
            "1",
            "--backend",
            "denied"));
    rows.add(
        row(
            Target.GARBAGE,
            2,
            "is not an archive",
            "demo",
            "--dir",
            "$NEW",
            "--seconds",
            "1",
            "--archive-dir",
            "$DIR"));
    rows.add(
        row(
            Target.FILE,
            2,
            "is a file, not a directory",
            "demo",
            "--dir",
            "$NEW",
            "--seconds",
            "1",
            "--archive-dir",
            "$DIR"));
    // fixture
    rows.add(row(Target.NONE, 2, "missing required", "fixture", "--format", "3"));
    rows.add(row(Target.MISSING, 2, "missing required option: '--format", "fixture", "$DIR"));
    rows.add(row(Target.EMPTY, 2, "is an existing directory", "fixture", "--format", "3", "$DIR"));
    rows.add(
        row(Target.V3_ROCKS, 2, "is an existing directory", "fixture", "--format", "2", "$DIR"));
    rows.add(row(Target.FILE, 2, "already exists", "fixture", "--format", "3", "$DIR"));
    rows.add(
        row(Target.FILE, 2, "is not a directory", "fixture", "--format", "3", "$DIR/out.tar.zst"));
    rows.add(
        row(Target.MISSING, 2, "does not exist", "fixture", "--format", "3", "$DIR/out.tar.zst"));
    rows.add(row(Target.MISSING, 2, "--format must be 2 or 3", "fixture", "--format", "4", "$DIR"));
    rows.add(
        row(Target.MISSING, 2, "--format must be 2 or 3", "fixture", "--format", "-1", "$DIR"));
    rows.add(
        row(
            Target.MISSING,
            2,
            "invalid value for option '--format'",
            "fixture",
            "--format",
            "three",
            "$DIR"));
    rows.add(
        row(
            Target.MISSING,
            2,
            "no store backend named 'nosuch'",
            "fixture",
            "--format",
            "3",
            "--backend",
            "nosuch",
            "$DIR"));
    rows.add(
        row(
            Target.MISSING,
            2,
            "memory backend keeps no files",
            "fixture",
            "--format",
            "3",
            "--backend",
            "memory",
            "$DIR"));
    // bench, conformance, the top level
    rows.add(row(Target.NONE, 2, "is not a recognized option", "bench", "jmh", "--no-such-option"));
    rows.add(
        row(Target.NONE, 2, "unknown argument '--frobnicate'", "bench", "gate", "--frobnicate"));
    rows.add(row(Target.NONE, 2, "huge", "bench", "gate", "--mode", "huge"));
    rows.add(row(Target.NONE, 2, "cassandra", "bench", "gate", "--backend", "cassandra"));
    rows.add(
        row(
            Target.NONE,
            2,
            "--bench must be gauges, dispatch or all",
            "bench",
            "gate",
            "--bench",
            "ticks"));
    rows.add(
        row(
            Target.NONE,
            2,
            "--ingest-rate takes hooks a second",
            "bench",
            "gate",
            "--ingest-rate",
            "fast"));
    rows.add(
        row(
            Target.NONE,
            2,
            "unmatched argument at index 1: 'frob' (see ankusa-store bench --help)",
            "bench",
            "frob"));
    rows.add(
        row(
            Target.NONE,
            2,
            "missing required subcommand (see ankusa-store bench --help)",
            "bench"));
    rows.add(
        row(
            Target.NONE,
            2,
            "no store backend named 'nosuch'",
            "conformance",
            "--backend",
            "nosuch"));
    rows.add(row(Target.NONE, 2, "unmatched argument", "frobnicate"));
    rows.add(row(Target.NONE, 2, "unknown option", "--frobnicate"));
    return rows;
  }

  @Test
  void theTableHasAtLeastAHundredRowsAndSaysWhichCommandsTheyCover() {
    Map<String, Map<Integer, Integer>> byCommand = new TreeMap<>();
    for (Row r : rows()) {
      List<String> a = r.args();
      String command =
          a.get(0).startsWith("-") || a.get(0).equals("frobnicate")
              ? "(top level)"
              : a.get(0).equals("archive") || a.get(0).equals("bench")
                  ? a.get(0) + " " + (a.size() > 1 ? a.get(1) : "")
                  : a.get(0).equals("migrate") && a.contains("--dry-run")
                      ? "migrate --dry-run"
                      : a.get(0);
      byCommand
          .computeIfAbsent(command.strip(), c -> new TreeMap<>())
          .merge(r.exit(), 1, Integer::sum);
    }
    System.out.println(
        "bad-input table: " + rows().size() + " rows; by command and exit code: " + byCommand);
    assertThat(rows()).hasSizeGreaterThanOrEqualTo(100);
    assertThat(byCommand)
        .containsKeys(
            "verify",
            "inspect",
            "migrate",
            "migrate --dry-run",
            "archive drain",
            "archive replay",
            "demo",
            "fixture",
            "bench jmh",
            "bench gate",
            "conformance");
  }

  @Test
  void theStackTraceComesOnlyWithVerbose() throws IOException {
    Path missing = rowDir.resolve("nope");
    CommandRun quiet = CommandRun.run("verify", missing.toString());
    CommandRun verbose = CommandRun.run("verify", missing.toString(), "--verbose");
    assertThat(quiet.err()).doesNotContain("\tat ");
    assertThat(verbose.code()).isEqualTo(quiet.code()).isEqualTo(2);
    assertThat(verbose.err()).contains("\tat io.ankusa.store.cli.").endsWith(quiet.err());
  }

  @TestFactory
  Stream<DynamicTest> everyRow() {
    return rows().stream().map(r -> DynamicTest.dynamicTest(r.name(), () -> check(r)));
  }

  private void check(Row row) throws Exception {
    Path own =
        Files.createTempDirectory(rowDir, "row-"); // the factory's @TempDir is shared by its rows
    Path dir = own.resolve("target");
    make(row.target(), dir);
    Path fresh = own.resolve("new");
    List<String> args =
        row.args().stream()
            .map(
                a ->
                    a.replace("$DIR", dir.toString())
                        .replace("$NEW", fresh.toString())
                        .replace("$V3", v3Rocks.toString())
                        .replace("$ARCHIVE", archive.toString()))
            .toList();
    Map<String, String> v3Before = digest(v3Rocks);
    Store holder =
        row.target() == Target.LOCKED
            ? StoreProvider.named("rocksdb")
                .open(dir, StoreOptions.readOnlyExisting(), Format3.families())
            : null;
    Process elsewhere = row.target() == Target.LOCKED_ELSEWHERE ? holdInAnotherProcess(dir) : null;
    Map<String, String> before = digest(dir); // after the holders' opens
    CommandRun run;
    ReadOnlyDirectory denied =
        row.target().name().startsWith("IMMUTABLE") ? ReadOnlyDirectory.deny(dir) : null;
    try {
      run = CommandRun.run(args.toArray(String[]::new));
    } finally {
      if (elsewhere != null) {
        elsewhere.getOutputStream().close();
        assertThat(elsewhere.waitFor(30, TimeUnit.SECONDS)).as("the holder process ends").isTrue();
      }
      if (denied != null) {
        denied.restore();
      }
      if (holder != null) {
        holder.close();
      }
    }
    String what =
        String.join(" ", args)
            + "\nexit "
            + run.code()
            + "\nstdout: "
            + run.out()
            + "\nstderr: "
            + run.err();
    assertThat(run.code()).as(what).isEqualTo(row.exit());
    if (row.exit() != 0 && !row.err().isEmpty()) {
      assertThat(run.err().lines().toList()).as("stderr is exactly one line: " + what).hasSize(1);
      assertThat(run.err())
          .as(what)
          .startsWith("ankusa-store")
          .doesNotContain("\tat ")
          .doesNotContain("Exception:")
          .containsIgnoringCase(row.err());
    }
    if (row.exit() == 0) {
      assertThat(run.err()).as(what).isEmpty();
    }
    // no row asks for a write: refused input loses nothing, and the read-only commands change no
    // file
    assertThat(digest(dir))
        .as("the files under $DIR are byte-identical after: " + what)
        .isEqualTo(before);
    assertThat(digest(v3Rocks)).as("the shared fixture is untouched: " + what).isEqualTo(v3Before);
    if (row.exit() != 0) {
      assertThat(fresh).as("a refused command created nothing: " + what).doesNotExist();
    }
  }

  /** Opens the store in {@code dir} read-only in a child JVM and returns once it is open. */
  private static Process holdInAnotherProcess(Path dir) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ChildJvmLauncher.java());
    command.addAll(
        List.of(
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            StoreHolderChild.class.getName(),
            dir.toString(),
            "rocksdb",
            "read-only"));
    Process child =
        ChildJvmLauncher.start(
            new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
    String first =
        new java.io.BufferedReader(new java.io.InputStreamReader(child.getInputStream()))
            .readLine();
    assertThat(first).as("the holder process opened the store").isEqualTo("open");
    return child;
  }

  /** Makes {@code dir} what {@code target} says. */
  private static void make(Target target, Path dir) throws IOException {
    switch (target) {
      case NONE, MISSING -> {}
      case FILE -> Files.writeString(dir, "not a store\n");
      case EMPTY -> Files.createDirectories(dir);
      case GARBAGE -> {
        Files.createDirectories(dir);
        Random random = new Random(42);
        for (String name : List.of("CURRENT.bak", "notes.txt", "000001.dat")) {
          byte[] junk = new byte[1_000 + random.nextInt(3_000)];
          random.nextBytes(junk);
          Files.write(dir.resolve(name), junk);
        }
      }
      case V3_ROCKS, LOCKED, LOCKED_ELSEWHERE, IMMUTABLE_V3 -> copy(v3Rocks, dir);
      case V2_ROCKS, IMMUTABLE_V2 -> copy(v2Rocks, dir);
      case V3_LMDB -> copy(v3Lmdb, dir);
      case HALF_EXTRACTED -> {
        copy(v3Rocks, dir);
        try (Stream<Path> files = Files.list(dir)) {
          for (Path f : files.toList()) {
            String n = f.getFileName().toString();
            if (n.startsWith("MANIFEST") || n.endsWith(".log") || n.endsWith(".sst")) {
              Files.delete(f);
            }
          }
        }
      }
      case TRUNCATED_WAL -> {
        copy(v3Rocks, dir);
        try (Stream<Path> files = Files.list(dir)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
            byte[] all = Files.readAllBytes(f);
            Files.write(f, java.util.Arrays.copyOf(all, all.length / 2));
          }
        }
      }
      case MISSING_SST -> {
        copy(v3Flushed, dir);
        try (Stream<Path> files = Files.list(dir)) {
          Files.delete(
              files
                  .filter(p -> p.toString().endsWith(".sst"))
                  .max(Comparator.naturalOrder())
                  .orElseThrow());
        }
      }
      case ARCHIVE -> copy(archive, dir);
      case GARBAGE_ARCHIVE -> {
        copy(archive, dir);
        try (Stream<Path> files = Files.list(dir)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".cq4")).toList()) {
            byte[] junk = new byte[4_096];
            new Random(7).nextBytes(junk);
            Files.write(f, junk);
          }
        }
      }
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path q = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(q);
        } else {
          Files.copy(p, q);
        }
      }
    }
  }

  /**
   * Every file under {@code root} (or {@code root} itself) by relative path, with its SHA-256;
   * empty if missing.
   */
  static Map<String, String> digest(Path root) {
    Map<String, String> out = new TreeMap<>();
    if (!Files.exists(root)) {
      return out;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.naturalOrder()).toList()) {
        String name = root.relativize(p).toString();
        out.put(
            name.isEmpty() ? "." : name,
            Files.isDirectory(p)
                ? "dir"
                : HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  private static List<String> concat(String[] head, List<String> tail) {
    List<String> out = new ArrayList<>(List.of(head));
    out.addAll(tail);
    return out;
  }

  private static List<String> concat(String[] head, String dir, List<String> tail, String... more) {
    List<String> out = new ArrayList<>(List.of(head));
    out.add(dir);
    out.addAll(tail);
    out.addAll(List.of(more));
    return out;
  }
}
