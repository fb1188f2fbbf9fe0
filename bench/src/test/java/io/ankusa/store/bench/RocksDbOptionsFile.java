package io.ankusa.store.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The options RocksDB wrote at the last open of a database: its newest {@code OPTIONS-NNNNNN} file,
 * read as {@code section/key -> value} (section {@code CFOptions "counters"}, key {@code
 * max_successive_merges}, and so on). Comparing two of them checks that a raw baseline opens
 * RocksDB as the backend does, whatever the backend's constants are now: the backend's settings are
 * not visible from the bench, RocksDB's own record of them is.
 */
public final class RocksDbOptionsFile {
  /**
   * The database options a raw baseline may leave at RocksDB's default: how many old info logs are
   * kept and how a damaged WAL is replayed, neither of which changes what a read or a write costs;
   * and whether the MANIFEST records each closed WAL's size, so that an open refuses a closed log
   * cut short. That one costs a MANIFEST record when a log is closed, never anything per write; the
   * baseline leaves it out so that the ratios show what it costs.
   */
  static final Set<String> BOOKKEEPING_ONLY =
      Set.of(
          "DBOptions/keep_log_file_num",
          "DBOptions/wal_recovery_mode",
          "DBOptions/track_and_verify_wals_in_manifest");

  private RocksDbOptionsFile() {}

  /** The newest options file of the database in {@code dir}, by file number. */
  static Map<String, String> read(Path dir) throws IOException {
    Path newest;
    try (Stream<Path> files = Files.list(dir)) {
      newest =
          files
              .filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
              .max(
                  Comparator.comparingLong(
                      p ->
                          Long.parseLong(
                              p.getFileName().toString().substring("OPTIONS-".length()))))
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "no OPTIONS file in " + dir + ": was a RocksDB database opened there?"));
    }
    return parse(Files.readAllLines(newest));
  }

  /** {@code section/key -> value} of an options file's lines; comments and blank lines skipped. */
  static Map<String, String> parse(List<String> lines) {
    Map<String, String> options = new TreeMap<>();
    String section = "";
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        section = line.substring(1, line.length() - 1);
        continue;
      }
      int eq = line.indexOf('=');
      if (eq > 0) {
        options.put(section + "/" + line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return options;
  }

  /**
   * {@code a} and {@code b} without the keys in {@code ignored}: where they differ, as {@code key:
   * a | b}.
   */
  static Map<String, String> differences(
      Map<String, String> a, Map<String, String> b, Set<String> ignored) {
    Map<String, String> out = new TreeMap<>();
    Set<String> keys = new TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    for (String key : keys) {
      if (!ignored.contains(key) && !Objects.equals(a.get(key), b.get(key))) {
        out.put(key, a.get(key) + " | " + b.get(key));
      }
    }
    return out;
  }

  /**
   * Asserts that the databases last opened in {@code backendDir} (by the backend) and {@code
   * rawDir} (by a raw baseline) were opened with the same options but {@link #BOOKKEEPING_ONLY};
   * {@code countersFamily} names a counters family both hold, to show the files were read at all.
   */
  public static void assertOpenedAlike(Path backendDir, Path rawDir, String countersFamily)
      throws IOException {
    Map<String, String> backend = read(backendDir);
    Map<String, String> raw = read(rawDir);
    assertThat(backend)
        .as("the backend's options file, read")
        .containsKey("CFOptions \"" + countersFamily + "\"/merge_operator");
    assertThat(differences(backend, raw, BOOKKEEPING_ONLY))
        .as("options where the backend (left) and the raw baseline (right) differ")
        .isEmpty();
  }
}
