package io.ankusa.store.bench.damage;

import io.ankusa.store.conformance.ChildJvmLauncher;
import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TableProperties;

/**
 * Measures which damage each persistent backend detects: for each backend and kind of damage,
 * {@code --trials} copies of a pristine store are damaged at random (seeded) and read in a child
 * JVM ({@link DamageTrial}), so that a crash inside a native engine is counted, not fatal. Prints a
 * table of outcomes per cell — refused at open, detected on a read (both {@code
 * StoreCorruptionException}), another error, wrong data returned silently, process crash, every
 * read right — and writes it with every trial's line under {@code --out} (default {@code
 * bench-results/damage}). Not part of {@code mvn verify}; run it from the benchmarks jar:
 *
 * <pre>{@code
 * java --enable-native-access=ALL-UNNAMED -cp bench/target/benchmarks.jar \
 *   io.ankusa.store.bench.damage.DamageTable --trials 30 [--subjects lmdb,lmdb-nochecksums] [--kinds KIND,...]
 * }</pre>
 *
 * <p>Kinds: a truncated data file (LMDB's {@code data.mdb}, RocksDB's SST file); one flipped bit in
 * a stored value, in a stored key (one stored exactly once), in a page header (LMDB: the 16-byte
 * header of a random page past the meta pages; RocksDB: a random byte of the SST's index, filter,
 * properties and footer, after the data blocks); in the middle of the write-ahead log of an
 * unflushed store (RocksDB only), and a log tail cut short inside its last record (RocksDB only;
 * the right answer is to open with every complete batch, counted as "read right"). LMDB only: 8
 * bytes flipped (each XORed with a random non-zero mask) anywhere in {@code data.mdb}, or in one
 * random branch page, or in one random leaf page; 256 zeroed bytes anywhere in it, or in one branch
 * page, or in one leaf page (a page is picked by its header flags in the pristine file).
 */
public final class DamageTable {
  /** A backend as measured: its id (for {@code --subjects}), a label, its name and options. */
  record Subject(String id, String label, String backend, String options) {
    boolean rocksdb() {
      return backend.equals("rocksdb");
    }
  }

  enum Kind {
    TRUNCATION("truncated data file"),
    VALUE_FLIP("value bit flip"),
    KEY_FLIP("key bit flip"),
    PAGE_HEADER_FLIP("page-header / SST index bit flip"),
    WAL_MID_FLIP("WAL mid-log bit flip"),
    WAL_TORN_TAIL("WAL torn tail"),
    SCATTERED_FLIPS("8 bytes flipped anywhere in the file"),
    BRANCH_FLIPS("8 bytes flipped in one branch page"),
    LEAF_FLIPS("8 bytes flipped in one leaf page"),
    ZEROED_RUN("256 zeroed bytes anywhere in the file"),
    BRANCH_ZEROED_RUN("256 zeroed bytes in one branch page"),
    LEAF_ZEROED_RUN("256 zeroed bytes in one leaf page");

    final String label;

    Kind(String label) {
      this.label = label;
    }

    boolean logKind() {
      return this == WAL_MID_FLIP || this == WAL_TORN_TAIL;
    }

    /** Damage placed by LMDB's page structure (branch and leaf pages), or measured on LMDB only. */
    boolean lmdbKind() {
      return ordinal() >= SCATTERED_FLIPS.ordinal();
    }
  }

  /**
   * A trial's outcome: refused at open or detected by a read (both {@code
   * StoreCorruptionException}), another error, wrong data returned silently, the process crashed,
   * every read right.
   */
  enum Outcome {
    REFUSED,
    DETECTED,
    OTHER_ERROR,
    SILENT_WRONG,
    CRASH,
    CLEAN
  }

  private static final List<Subject> SUBJECTS =
      List.of(
          new Subject("rocksdb", "rocksdb", "rocksdb", "-"),
          new Subject("lmdb", "lmdb", "lmdb", "-"),
          new Subject(
              "lmdb-nochecksums", "lmdb, lmdb.checksums=false", "lmdb", "lmdb.checksums=false"));
  private static final int LMDB_PAGE = 4096;
  private static final int P_BRANCH = 0x01;
  private static final int P_LEAF = 0x02;

  private final int trials;
  private final Path work;
  private final Random random;
  private final List<String> trialLines = new ArrayList<>();

  private final List<Kind> kinds;

  private DamageTable(int trials, Path work, long seed, List<Kind> kinds) {
    this.trials = trials;
    this.work = work;
    this.random = new Random(seed);
    this.kinds = kinds;
  }

  public static void main(String[] args) throws Exception {
    int trials = 30;
    Path out = Path.of("bench-results", "damage");
    long seed = System.nanoTime();
    List<Kind> kinds = List.of(Kind.values());
    List<String> subjects = SUBJECTS.stream().map(Subject::id).toList();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--trials" -> trials = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--kinds" -> kinds = Stream.of(args[++i].split(",")).map(Kind::valueOf).toList();
        case "--subjects" -> subjects = List.of(args[++i].split(","));
        default ->
            throw new IllegalArgumentException(
                "unknown argument "
                    + args[i]
                    + "; use --trials N --out DIR"
                    + " --seed S --kinds KIND,... ("
                    + List.of(Kind.values())
                    + ") --subjects ID,... ("
                    + SUBJECTS.stream().map(Subject::id).toList()
                    + ")");
      }
    }
    Files.createDirectories(out);
    Path work = Files.createTempDirectory(out, "work-");
    DamageTable table = new DamageTable(trials, work, seed, kinds);
    Map<Subject, Map<Kind, EnumMap<Outcome, Integer>>> results = new LinkedHashMap<>();
    try {
      for (Subject s : SUBJECTS) {
        if (subjects.contains(s.id())) {
          results.put(s, table.measure(s));
        }
      }
    } finally {
      FileTrees.deleteRecursively(work);
    }
    String text = render(results, trials, seed);
    System.out.print(text);
    Files.writeString(out.resolve("damage-table.md"), text, StandardCharsets.UTF_8);
    Files.write(out.resolve("trials.txt"), table.trialLines, StandardCharsets.UTF_8);
  }

  private Map<Kind, EnumMap<Outcome, Integer>> measure(Subject s) throws Exception {
    Path dataStore = work.resolve(s.label().replaceAll("[^a-z0-9]+", "-") + "-data");
    Path logStore = work.resolve(s.label().replaceAll("[^a-z0-9]+", "-") + "-log");
    try (Store store =
        StoreProvider.named(s.backend())
            .open(dataStore, DamageTrial.options(s.options(), true), DamageTrial.FAMILIES)) {
      DamageTrial.write(store, true);
    }
    if (s.rocksdb()) {
      flushAndCompact(dataStore);
      try (Store store =
          StoreProvider.named(s.backend())
              .open(logStore, DamageTrial.options(s.options(), true), DamageTrial.FAMILIES)) {
        DamageTrial.write(store, false);
      }
    }
    Map<Kind, EnumMap<Outcome, Integer>> byKind = new LinkedHashMap<>();
    for (Kind kind : kinds) {
      if (kind.logKind() && !s.rocksdb() || kind.lmdbKind() && s.rocksdb()) {
        continue;
      }
      EnumMap<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
      for (Outcome o : Outcome.values()) {
        counts.put(o, 0);
      }
      for (int t = 0; t < trials; t++) {
        Path trial = work.resolve("trial");
        FileTrees.deleteRecursively(trial);
        copy(kind.logKind() ? logStore : dataStore, trial);
        String what = damage(s, kind, trial);
        int required = kind == Kind.WAL_TORN_TAIL ? DamageTrial.BATCHES - 1 : DamageTrial.BATCHES;
        String line = runChild(s, trial, required);
        Outcome o = Outcome.valueOf(line.split(" ", 2)[0]);
        counts.merge(o, 1, Integer::sum);
        trialLines.add(s.label() + " | " + kind.label + " | " + what + " | " + line);
      }
      byKind.put(kind, counts);
      System.err.println(s.label() + " / " + kind.label + ": " + counts);
    }
    return byKind;
  }

  /** Damages the copy in {@code dir}; returns what was done. */
  private String damage(Subject s, Kind kind, Path dir) throws Exception {
    Path file;
    long dataEnd;
    if (kind.logKind()) {
      file = newest(dir, ".log");
      dataEnd = Files.size(file);
    } else if (s.rocksdb()) {
      file = newest(dir, ".sst");
      dataEnd = sstDataBytes(dir);
    } else {
      file = dir.resolve("data.mdb");
      dataEnd = Files.size(file);
    }
    long size = Files.size(file);
    byte[] bytes = Files.readAllBytes(file);
    switch (kind) {
      case TRUNCATION -> {
        long min = s.rocksdb() ? 0 : 2L * LMDB_PAGE;
        long to = min + (long) (random.nextDouble() * (size - min));
        truncate(file, to);
        return "truncated " + file.getFileName() + " from " + size + " to " + to;
      }
      case VALUE_FLIP -> {
        int i = random.nextInt(DamageTrial.KEYS);
        List<Integer> at = find(bytes, DamageTrial.value(i));
        if (at.isEmpty()) {
          throw new IllegalStateException("value " + i + " not found in " + file);
        }
        long offset =
            at.get(random.nextInt(at.size())) + random.nextInt(DamageTrial.value(i).length);
        return flipRandomBit(file, offset) + " in value " + i + " (" + at.size() + " copies)";
      }
      case KEY_FLIP -> {
        for (int attempt = 0; attempt < 200; attempt++) {
          int i = random.nextInt(DamageTrial.KEYS);
          List<Integer> at = find(bytes, DamageTrial.key(i));
          if (at.size() == 1) {
            return flipRandomBit(file, at.get(0) + random.nextInt(8)) + " in key " + i;
          }
        }
        throw new IllegalStateException("no key stored exactly once found in " + file);
      }
      case PAGE_HEADER_FLIP -> {
        long offset =
            s.rocksdb()
                ? dataEnd + (long) (random.nextDouble() * (size - dataEnd))
                : (2 + random.nextInt((int) (size / LMDB_PAGE) - 2)) * (long) LMDB_PAGE
                    + random.nextInt(16);
        return flipRandomBit(file, offset);
      }
      case WAL_MID_FLIP -> {
        long offset = size / 10 + (long) (random.nextDouble() * (size * 8 / 10));
        return flipRandomBit(file, offset);
      }
      case WAL_TORN_TAIL -> {
        long to = size - 1 - random.nextInt(400);
        truncate(file, to);
        return "truncated " + file.getFileName() + " from " + size + " to " + to;
      }
      case SCATTERED_FLIPS -> {
        long[] at = new long[8];
        for (int i = 0; i < at.length; i++) {
          at[i] = (long) (random.nextDouble() * size);
        }
        return flipBytes(file, at);
      }
      case BRANCH_FLIPS, LEAF_FLIPS -> {
        long page = pageOf(bytes, kind == Kind.BRANCH_FLIPS ? P_BRANCH : P_LEAF);
        long[] at = new long[8];
        for (int i = 0; i < at.length; i++) {
          at[i] = page * LMDB_PAGE + random.nextInt(LMDB_PAGE);
        }
        return flipBytes(file, at) + " (page " + page + ")";
      }
      case ZEROED_RUN -> {
        return zero(file, (long) (random.nextDouble() * (size - 256)));
      }
      case BRANCH_ZEROED_RUN, LEAF_ZEROED_RUN -> {
        long page = pageOf(bytes, kind == Kind.BRANCH_ZEROED_RUN ? P_BRANCH : P_LEAF);
        return zero(file, page * LMDB_PAGE + random.nextInt(LMDB_PAGE - 256 + 1))
            + " (page "
            + page
            + ")";
      }
      default -> throw new IllegalStateException(kind.toString());
    }
  }

  private String runChild(Subject s, Path dir, int requiredBatches) throws Exception {
    Process child =
        ChildJvmLauncher.start(
            new ProcessBuilder(
                    ChildJvmLauncher.java(),
                    "-XX:+IgnoreUnrecognizedVMOptions",
                    "--enable-native-access=ALL-UNNAMED",
                    "-Xmx256m",
                    "-XX:-CreateCoredumpOnCrash",
                    "-XX:ErrorFile=" + work.resolve("hs_err_%p.log"),
                    "-cp",
                    System.getProperty("java.class.path"),
                    DamageTrial.class.getName(),
                    s.backend(),
                    dir.toString(),
                    s.options(),
                    Integer.toString(requiredBatches))
                .redirectErrorStream(true));
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!child.waitFor(120, TimeUnit.SECONDS)) {
      child.destroyForcibly();
      return "CRASH hung for 120 s";
    }
    for (String l : output.split("\n")) {
      if (l.startsWith("OUTCOME ")) {
        return l.substring("OUTCOME ".length());
      }
    }
    String last = output.strip();
    int nl = last.lastIndexOf('\n');
    return "CRASH exit code "
        + child.exitValue()
        + signal(child.exitValue())
        + ": "
        + (nl < 0 ? last : last.substring(nl + 1)).replace('\n', ' ');
  }

  private static String signal(int exit) {
    return switch (exit) {
      case 134 -> " (SIGABRT)";
      case 135 -> " (SIGBUS)";
      case 139 -> " (SIGSEGV)";
      default -> "";
    };
  }

  private String flipRandomBit(Path file, long offset) throws IOException {
    int mask = 1 << random.nextInt(8);
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ mask)).rewind();
      ch.write(b, offset);
    }
    return "flipped bit "
        + Integer.numberOfTrailingZeros(mask)
        + " at "
        + file.getFileName()
        + ":"
        + offset;
  }

  /** XORs each byte at {@code offsets} with a random non-zero mask. */
  private String flipBytes(Path file, long[] offsets) throws IOException {
    StringBuilder what = new StringBuilder("flipped bytes at");
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      for (long offset : offsets) {
        ByteBuffer b = ByteBuffer.allocate(1);
        ch.read(b, offset);
        b.put(0, (byte) (b.get(0) ^ (1 + random.nextInt(255)))).rewind();
        ch.write(b, offset);
        what.append(' ').append(offset);
      }
    }
    return what + " of " + file.getFileName();
  }

  private static String zero(Path file, long offset) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate(256), offset);
    }
    return "zeroed bytes " + offset + " to " + (offset + 256) + " of " + file.getFileName();
  }

  /**
   * A random page of {@code data.mdb} whose header flags are exactly {@code flags} (a branch or a
   * leaf page); the pristine store holds few stale pages, so nearly all are pages its trees reach.
   */
  private long pageOf(byte[] file, int flags) {
    List<Long> pages = new ArrayList<>();
    for (long p = 2; (p + 1) * LMDB_PAGE <= file.length; p++) {
      int at = (int) (p * LMDB_PAGE) + 10;
      if (((file[at] & 0xff) | (file[at + 1] & 0xff) << 8) == flags) {
        pages.add(p);
      }
    }
    if (pages.isEmpty()) {
      throw new IllegalStateException(
          "no page with flags " + flags + " in the pristine LMDB store");
    }
    return pages.get(random.nextInt(pages.size()));
  }

  private static void truncate(Path file, long length) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(length);
    }
  }

  private static List<Integer> find(byte[] file, byte[] pattern) {
    List<Integer> at = new ArrayList<>();
    outer:
    for (int i = 0; i + pattern.length <= file.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (file[i + j] != pattern[j]) {
          continue outer;
        }
      }
      at.add(i);
    }
    return at;
  }

  private static Path newest(Path dir, String suffix) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().matches("[0-9]+\\" + suffix))
          .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
          .orElseThrow(() -> new IllegalStateException("no *" + suffix + " file in " + dir));
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p)) {
          Files.copy(p, to.resolve(p.getFileName()));
        }
      }
    }
  }

  // ---------------------------------------------------------------- RocksDB, behind the backend

  private static List<ColumnFamilyDescriptor> descriptors() {
    return List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
        new ColumnFamilyDescriptor(DamageTrial.FAMILY.getBytes(StandardCharsets.UTF_8)));
  }

  /** Moves the family's data from the WAL into one SST file. */
  private static void flushAndCompact(Path dir) throws RocksDBException {
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions o = new DBOptions();
        RocksDB db = RocksDB.open(o, dir.toString(), descriptors(), handles);
        FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo, handles.get(1));
      db.compactRange(handles.get(1));
      handles.forEach(ColumnFamilyHandle::close);
    }
  }

  /**
   * Bytes of data blocks at the start of the family's SST file (the rest is index, filter, footer).
   */
  private static long sstDataBytes(Path dir) throws RocksDBException {
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions o = new DBOptions();
        RocksDB db = RocksDB.openReadOnly(o, dir.toString(), descriptors(), handles)) {
      try {
        Map<String, TableProperties> props = db.getPropertiesOfAllTables(handles.get(1));
        long data = 0;
        for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
          if (f.columnFamilyName() != null
              && new String(f.columnFamilyName(), StandardCharsets.UTF_8)
                  .equals(DamageTrial.FAMILY)) {
            for (Map.Entry<String, TableProperties> e : props.entrySet()) {
              if (e.getKey().endsWith(f.fileName())) {
                data = e.getValue().getDataSize();
              }
            }
          }
        }
        return data;
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
      }
    }
  }

  // ---------------------------------------------------------------- the table

  private static String render(
      Map<Subject, Map<Kind, EnumMap<Outcome, Integer>>> results, int trials, long seed) {
    StringBuilder b = new StringBuilder();
    b.append("Damage detection, ")
        .append(trials)
        .append(" trials per cell (seed ")
        .append(seed)
        .append(")\n\n");
    b.append(
        "| backend | damage | refused at open | detected on a read | other error | wrong data, silently |"
            + " process crash | read right |\n");
    b.append("|---|---|---|---|---|---|---|---|\n");
    results.forEach(
        (s, byKind) ->
            byKind.forEach(
                (kind, c) -> {
                  b.append("| ").append(s.label()).append(" | ").append(kind.label);
                  for (Outcome o : Outcome.values()) {
                    b.append(" | ").append(c.get(o));
                  }
                  b.append(" |\n");
                }));
    return b.toString();
  }
}
