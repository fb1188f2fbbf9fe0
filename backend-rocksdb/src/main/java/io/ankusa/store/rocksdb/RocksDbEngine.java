package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.StatsLevel;
import org.rocksdb.TickerType;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB handle with every native object that belongs to it: the DB, its options, one
 * column family handle and options per family, the merge operator, and reusable write and read
 * options. {@link RocksDbStore} keeps exactly one at a time and replaces it on {@code
 * reportWriteFailure}; {@link #close()} frees all of it (no native leak, checked by {@code
 * NativeResourceTest}).
 *
 * <p>Not thread-safe to close: the store closes it under its exclusive lock, when no read or write
 * is using it.
 */
final class RocksDbEngine implements AutoCloseable {
  static final String DEFAULT_FAMILY = "default";
  private static final long KEPT_INFO_LOGS = 10;

  /**
   * Size of a counters family's memtable Bloom filter, as a share of its write buffer: for a buffer
   * of small counter entries (about 40 bytes each with RocksDB's own), some 16 bits per entry.
   */
  static final double MEMTABLE_BLOOM_RATIO = 0.05;

  private static final Pattern CF_SECTION = Pattern.compile("^\\s*\\[CFOptions \"(.*)\"\\]\\s*$");
  private static final Pattern MERGE_OPERATOR =
      Pattern.compile("^\\s*merge_operator\\s*=\\s*(.*)$");

  final Path dir;
  final RocksDB db;

  /** Handles of the caller's families, by name; the unlisted default family is not here. */
  final Map<String, ColumnFamilyHandle> handles;

  /** RocksDB's id of each of the caller's families, by name (for {@link BatchEncoding}). */
  private final Map<String, Integer> familyIds;

  final WriteOptions syncWrite;
  final WriteOptions noSyncWrite;

  /** Live reads: checksums verified (always: without them, corrupt data reads as good). */
  final ReadOptions liveRead;

  private final DBOptions dbOptions;
  private final List<ColumnFamilyOptions> familyOptions;
  private final List<ColumnFamilyHandle> allHandles;
  private final UInt64AddOperator mergeOperator;

  /** Iterators of closed scans, for the next scan of the same range; none on a read-only engine. */
  final KeptIterators keptIterators;

  /** The writes begun and ended on this engine, for reads that check no write overlapped them. */
  final WriteTally writes = new WriteTally();

  /** The counters families' SST filter; null when {@code rocksdb.countersBloomBitsPerKey} is 0. */
  private final BloomFilter countersFilter;

  /** The other families' SST filter; null when {@code rocksdb.bloomBitsPerKey} is 0. */
  private final BloomFilter keysFilter;

  /** The other families' compaction of files full of deletions. */
  private final DeletionTriggeredCompaction deletions;

  /** RocksDB's tickers, kept when {@code rocksdb.statistics} is 1; null otherwise. */
  private final Statistics statistics;

  private RocksDbEngine(
      Path dir,
      RocksDB db,
      Map<String, ColumnFamilyHandle> handles,
      DBOptions dbOptions,
      List<ColumnFamilyOptions> familyOptions,
      List<ColumnFamilyHandle> allHandles,
      UInt64AddOperator mergeOperator,
      BloomFilter countersFilter,
      BloomFilter keysFilter,
      DeletionTriggeredCompaction deletions,
      Statistics statistics,
      boolean readOnly) {
    this.dir = dir;
    this.db = db;
    this.handles = handles;
    Map<String, Integer> ids = new HashMap<>();
    handles.forEach((name, handle) -> ids.put(name, handle.getID()));
    this.familyIds = Map.copyOf(ids);
    this.dbOptions = dbOptions;
    this.familyOptions = familyOptions;
    this.allHandles = allHandles;
    this.mergeOperator = mergeOperator;
    this.countersFilter = countersFilter;
    this.keysFilter = keysFilter;
    this.deletions = deletions;
    this.statistics = statistics;
    this.syncWrite = new WriteOptions().setSync(true);
    this.noSyncWrite = new WriteOptions().setSync(false);
    this.liveRead = new ReadOptions().setVerifyChecksums(true);
    this.keptIterators = new KeptIterators(!readOnly);
  }

  /**
   * Opens (or creates) the RocksDB database in {@code dir} with exactly {@code families}; with
   * {@code readOnly}, RocksDB's read-only instance ({@code openReadOnly}: the WAL is replayed into
   * memory, no file is written). REQUIRES: the caller holds the directory's claim.
   *
   * @throws StoreFormatException if the directory holds a column family not listed (other than
   *     {@code default}), a listed family with the other counters setting, or no store while {@code
   *     create} is false, or lacks a listed family while {@code create} is false
   * @throws StoreException if the directory is locked by another open store or cannot be opened
   */
  static RocksDbEngine open(
      Path dir,
      List<FamilySpec> families,
      boolean create,
      boolean readOnly,
      RocksDbSettings settings) {
    List<String> existing = existingFamilies(dir);
    if (existing.isEmpty()) {
      if (!create) {
        throw new StoreFormatException(
            "no RocksDB store in "
                + dir
                + (readOnly
                    ? " to open read-only"
                    : " and createIfMissing is false;"
                        + " open it with createIfMissing to create one")
                + "; check the path");
      }
      try {
        Files.createDirectories(dir);
      } catch (IOException e) {
        throw new StoreException("cannot create the store directory " + dir + ": " + e, e);
      }
    } else {
      checkFamilies(dir, existing, families, create);
    }

    // First, so that nothing is left to free when this RocksDB build does not know the option.
    DBOptions dbOptions = walTrackingOptions();
    UInt64AddOperator merge = new UInt64AddOperator();
    BloomFilter countersFilter =
        settings.countersBloomBitsPerKey() > 0
            ? new BloomFilter(settings.countersBloomBitsPerKey())
            : null;
    BloomFilter keysFilter =
        settings.bloomBitsPerKey() > 0 ? new BloomFilter(settings.bloomBitsPerKey()) : null;
    DeletionTriggeredCompaction deletions = new DeletionTriggeredCompaction();
    Statistics statistics = settings.statistics() ? new Statistics() : null;
    List<ColumnFamilyOptions> cfOptions = new ArrayList<>();
    List<ColumnFamilyHandle> all = new ArrayList<>();
    List<String> names = new ArrayList<>();
    RocksDB db;
    try {
      dbOptions
          .setCreateIfMissing(create)
          .setCreateMissingColumnFamilies(create)
          .setBytesPerSync(settings.bytesPerSync())
          .setMaxBackgroundJobs(settings.maxBackgroundJobs())
          .setMaxTotalWalSize(settings.maxTotalWalBytes())
          // Every open starts a new info LOG; keep a few old ones, not RocksDB's default thousand.
          .setKeepLogFileNum(KEPT_INFO_LOGS)
          // A record cut short at the end of the WAL (a crash mid-append) is dropped; damage
          // anywhere
          // else in the WAL fails the open. RocksDB's default (point-in-time recovery) would stop
          // replaying at the damage and silently drop every acknowledged batch after it. A closed
          // log
          // cut short fails the open too: its recorded size (walTrackingOptions).
          .setWalRecoveryMode(WALRecoveryMode.TolerateCorruptedTailRecords);
      if (statistics != null) {
        statistics.setStatsLevel(StatsLevel.EXCEPT_DETAILED_TIMERS);
        dbOptions.setStatistics(statistics);
      }
      List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
      boolean defaultListed = families.stream().anyMatch(f -> f.name().equals(DEFAULT_FAMILY));
      if (!defaultListed) {
        ColumnFamilyOptions o = new ColumnFamilyOptions();
        cfOptions.add(o);
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, o));
        names.add(null);
      }
      for (FamilySpec f : families) {
        ColumnFamilyOptions o =
            familyOptions(
                f, merge, f.counters() ? countersFilter : keysFilter, deletions, settings);
        cfOptions.add(o);
        descriptors.add(new ColumnFamilyDescriptor(f.name().getBytes(StandardCharsets.UTF_8), o));
        names.add(f.name());
      }
      db =
          readOnly
              ? RocksDB.openReadOnly(dbOptions, dir.toString(), descriptors, all)
              : RocksDB.open(dbOptions, dir.toString(), descriptors, all);
    } catch (RocksDBException e) {
      closeAfterFailedOpen(
          all, cfOptions, dbOptions, merge, countersFilter, keysFilter, deletions, statistics);
      throw RocksDbFailures.open(e, dir);
    } catch (RuntimeException | Error e) {
      // Nothing of a failed open outlives it, whichever step failed.
      closeAfterFailedOpen(
          all, cfOptions, dbOptions, merge, countersFilter, keysFilter, deletions, statistics);
      throw e;
    }
    Map<String, ColumnFamilyHandle> byName = new LinkedHashMap<>();
    for (int i = 0; i < names.size(); i++) {
      if (names.get(i) != null) {
        byName.put(names.get(i), all.get(i));
      }
    }
    return new RocksDbEngine(
        dir,
        db,
        Map.copyOf(byName),
        dbOptions,
        cfOptions,
        all,
        merge,
        countersFilter,
        keysFilter,
        deletions,
        statistics,
        readOnly);
  }

  /**
   * Frees what an open made before it failed: the handles it got, every options object, the
   * operator and filter.
   */
  private static void closeAfterFailedOpen(
      List<ColumnFamilyHandle> handles,
      List<ColumnFamilyOptions> cfOptions,
      DBOptions dbOptions,
      UInt64AddOperator merge,
      BloomFilter countersFilter,
      BloomFilter keysFilter,
      DeletionTriggeredCompaction deletions,
      Statistics statistics) {
    handles.forEach(ColumnFamilyHandle::close);
    cfOptions.forEach(ColumnFamilyOptions::close);
    dbOptions.close();
    merge.close();
    if (countersFilter != null) {
      countersFilter.close();
    }
    if (keysFilter != null) {
      keysFilter.close();
    }
    deletions.close();
    if (statistics != null) {
      statistics.close();
    }
  }

  /**
   * Database options whose MANIFEST records each write-ahead log RocksDB has closed and synced,
   * with its size, and whose open refuses a store in which such a log is shorter than recorded or
   * missing ({@code track_and_verify_wals_in_manifest}; RocksJava has no setter for it, RocksDB's
   * own options parser sets it).
   *
   * <p>Why: a family is flushed on its own when its write buffer fills, and its SST files then hold
   * batches whose writes to the other families exist only in the log. RocksDB syncs the closed logs
   * before it commits such a flush, so no crash cuts them; but a log cut short by damage (a bad
   * copy, a restore cut short) was replayed up to the cut, with {@code
   * TolerateCorruptedTailRecords} silently, and the store opened with those batches split: the
   * flushed family holding their writes, the others not (a delivery row without its counter merge).
   * Recorded sizes turn every such cut into a refusal at open. The log being written is not
   * recorded, so a record torn at its end by a crash mid-append (writes never synced) still opens
   * with every batch before it. Tried and not taken, in a sweep that cut the closed log at every
   * record boundary and inside every record: atomic flush (a family flushed alone by a manual flush
   * split batches just the same, and every automatic flush would write every family); point-in-time
   * recovery (it refused the cuts inside a record but opened every cut at a record boundary split,
   * and it drops every batch after damage in the middle of the log without a word); RocksDB's WAL
   * chain check ({@code track_and_verify_wals}, which misses a cut log whose successors are gone).
   * docs/storage.md, "Damaged files".
   *
   * @throws StoreException when this RocksDB build does not know the option
   */
  private static DBOptions walTrackingOptions() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("track_and_verify_wals_in_manifest", "true");
    DBOptions o = DBOptions.getDBOptionsFromProps(p);
    if (o == null) {
      throw new StoreException(
          "this RocksDB build does not know the option track_and_verify_wals_in_manifest");
    }
    return o;
  }

  /**
   * {@code filter}: the family's SST filter ({@code rocksdb.countersBloomBitsPerKey} or {@code
   * rocksdb.bloomBitsPerKey}), or null for none. A family that is not counters has its files full
   * of deletions compacted ({@link DeletionTriggeredCompaction}).
   */
  private static ColumnFamilyOptions familyOptions(
      FamilySpec f,
      UInt64AddOperator merge,
      BloomFilter filter,
      DeletionTriggeredCompaction deletions,
      RocksDbSettings settings) {
    ColumnFamilyOptions o =
        !f.counters()
            ? deletions.newFamilyOptions()
            : settings.maxSuccessiveMerges() > 0 ? strictFolding() : new ColumnFamilyOptions();
    // A table config is a plain Java holder; RocksJava copies it into the native options.
    BlockBasedTableConfig table =
        new BlockBasedTableConfig().setBlockSize(settings.blockSizeBytes());
    if (filter != null) {
      // A point read (a counter, an idempotency key) skips the memtables and files that do not hold
      // its key.
      table.setFilterPolicy(filter);
      o.setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO);
      o.setMemtableWholeKeyFiltering(true);
    }
    o.setTableFormatConfig(table);
    if (f.counters()) {
      o.setMergeOperator(merge);
      o.setCompressionType(CompressionType.NO_COMPRESSION);
      o.setMaxSuccessiveMerges(settings.maxSuccessiveMerges());
    } else {
      o.setCompressionType(
          f.compress() ? CompressionType.LZ4_COMPRESSION : CompressionType.NO_COMPRESSION);
    }
    if (settings.writeBufferBytes() > 0) {
      o.setWriteBufferSize(settings.writeBufferBytes());
    } else if (f.writeBufferHint() > 0) {
      o.setWriteBufferSize(f.writeBufferHint());
    }
    return o;
  }

  /**
   * Options whose memtable fold of successive merge operands reads the key's base value wherever it
   * is ({@code strict_max_successive_merges}; see {@link RocksDbSettings#maxSuccessiveMerges()} for
   * why). RocksJava has no setter for it; RocksDB's own options parser sets it.
   *
   * @throws StoreException when the RocksDB library does not know the option
   */
  private static ColumnFamilyOptions strictFolding() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("strict_max_successive_merges", "true");
    ColumnFamilyOptions o = ColumnFamilyOptions.getColumnFamilyOptionsFromProps(p);
    if (o == null) {
      throw new StoreException(
          "this RocksDB build does not know the option strict_max_successive_merges");
    }
    return o;
  }

  /**
   * Whether {@code dir} holds a RocksDB store, recognised by RocksDB's own files: a {@code CURRENT}
   * file naming a {@code MANIFEST-*} file that exists. How a store made before store markers is
   * told from any other non-empty directory. Reads only.
   */
  static boolean holdsStore(Path dir) {
    Path current = dir.resolve("CURRENT");
    try {
      if (!Files.isRegularFile(current) || Files.size(current) > 256) {
        return false;
      }
      String manifest = Files.readString(current, StandardCharsets.UTF_8).strip();
      return manifest.matches("MANIFEST-[0-9]+") && Files.isRegularFile(dir.resolve(manifest));
    } catch (IOException | java.io.UncheckedIOException e) {
      return false;
    }
  }

  /** The column families in {@code dir}, or an empty list when it holds no RocksDB store. */
  private static List<String> existingFamilies(Path dir) {
    if (!Files.isRegularFile(dir.resolve("CURRENT"))) {
      return List.of();
    }
    try (Options options = new Options()) {
      List<String> names = new ArrayList<>();
      for (byte[] name : RocksDB.listColumnFamilies(options, dir.toString())) {
        names.add(new String(name, StandardCharsets.UTF_8));
      }
      return names;
    } catch (RocksDBException e) {
      throw RocksDbFailures.open(e, dir);
    }
  }

  /** The older-release refusal, and the counters setting each family was created with. */
  private static void checkFamilies(
      Path dir, List<String> existing, List<FamilySpec> asked, boolean create) {
    TreeSet<String> unlisted = new TreeSet<>();
    for (String name : existing) {
      if (!name.equals(DEFAULT_FAMILY) && asked.stream().noneMatch(f -> f.name().equals(name))) {
        unlisted.add(name);
      }
    }
    if (!unlisted.isEmpty()) {
      throw new StoreFormatException(
          "RocksDB store "
              + dir
              + " holds families "
              + unlisted
              + " that the caller did not list "
              + asked.stream().map(FamilySpec::name).toList()
              + ": they were written by a newer release; open the store with that release");
    }
    Map<String, Boolean> recorded = recordedCounters(dir);
    for (FamilySpec f : asked) {
      if (!existing.contains(f.name())) {
        if (!create) {
          throw new StoreFormatException(
              "RocksDB store "
                  + dir
                  + " has no family '"
                  + f.name()
                  + "' and createIfMissing is false");
        }
        continue;
      }
      Boolean had = recorded.get(f.name());
      if (had != null && had != f.counters()) {
        throw new StoreFormatException(
            "RocksDB store "
                + dir
                + ": family '"
                + f.name()
                + "' was created with counters="
                + had
                + " but is opened with counters="
                + f.counters()
                + "; open it as it was created");
      }
    }
  }

  /**
   * Whether each column family was last opened with the int64-add merge operator, read from the
   * newest {@code OPTIONS-*} file RocksDB keeps in the directory. Best effort: a missing or
   * unreadable file yields an empty map, and the counters check is then skipped.
   */
  static Map<String, Boolean> recordedCounters(Path dir) {
    Path newest = null;
    long newestNumber = -1;
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String name = p.getFileName().toString();
        if (name.startsWith("OPTIONS-") && !name.endsWith(".dbtmp")) {
          try {
            long n = Long.parseLong(name.substring("OPTIONS-".length()));
            if (n > newestNumber) {
              newestNumber = n;
              newest = p;
            }
          } catch (NumberFormatException ignored) {
            // not one of RocksDB's option files
          }
        }
      }
      if (newest == null) {
        return Map.of();
      }
      Map<String, Boolean> out = new HashMap<>();
      String family = null;
      for (String line : Files.readAllLines(newest, StandardCharsets.UTF_8)) {
        Matcher section = CF_SECTION.matcher(line);
        if (section.matches()) {
          family = section.group(1);
          out.put(family, false);
        } else if (line.trim().startsWith("[")) {
          family = null;
        } else if (family != null) {
          Matcher m = MERGE_OPERATOR.matcher(line);
          if (m.matches()) {
            out.put(family, m.group(1).toLowerCase(Locale.ROOT).contains("uint64add"));
          }
        }
      }
      return out;
    } catch (IOException e) {
      return Map.of();
    }
  }

  /** The handle of a listed family. REQUIRES: the family was validated by the catalog. */
  ColumnFamilyHandle handle(String family) {
    return handles.get(family);
  }

  /** RocksDB's id of a listed family. REQUIRES: the family was validated by the catalog. */
  int familyId(String family) {
    return familyIds.get(family);
  }

  /**
   * Frees every native object: kept iterators, handles, then the DB, then the options. Idempotent
   * per instance.
   */
  @Override
  public void close() {
    keptIterators.close();
    syncWrite.close();
    noSyncWrite.close();
    liveRead.close();
    for (ColumnFamilyHandle h : allHandles) {
      h.close();
    }
    db.close();
    dbOptions.close();
    familyOptions.forEach(ColumnFamilyOptions::close);
    mergeOperator.close();
    if (countersFilter != null) {
      countersFilter.close();
    }
    if (keysFilter != null) {
      keysFilter.close();
    }
    deletions.close();
    if (statistics != null) {
      statistics.close();
    }
  }

  /**
   * The figures of {@link RocksDbStore#engineStatistics()}: over every family, the bytes in
   * memtables (active and immutable), the deletions in the active memtables, the level-0 files, and
   * the compaction debt (RocksDB's estimate of the bytes compaction must rewrite to bring every
   * level back under its target); with {@code rocksdb.statistics}, also RocksDB's running totals of
   * iterator seeks, steps, and internal keys those skipped (deletions and overwritten versions),
   * and the bytes compaction read and wrote.
   */
  Map<String, Long> statistics() {
    Map<String, Long> out = new LinkedHashMap<>();
    long memtableBytes = 0;
    long memtableDeletes = 0;
    long level0Files = 0;
    long compactionDebt = 0;
    try {
      for (ColumnFamilyHandle h : handles.values()) {
        memtableBytes += db.getLongProperty(h, "rocksdb.cur-size-all-mem-tables");
        memtableDeletes += db.getLongProperty(h, "rocksdb.num-deletes-active-mem-table");
        level0Files += Long.parseLong(db.getProperty(h, "rocksdb.num-files-at-level0").strip());
        compactionDebt += db.getLongProperty(h, "rocksdb.estimate-pending-compaction-bytes");
      }
    } catch (RocksDBException e) {
      throw new StoreException(
          "reading the engine properties of RocksDB store " + dir + " failed: " + e.getMessage(),
          e);
    }
    out.put("memtableBytes", memtableBytes);
    out.put("memtableDeletes", memtableDeletes);
    out.put("level0Files", level0Files);
    out.put("compactionDebtBytes", compactionDebt);
    if (statistics != null) {
      out.put("iteratorSeeks", statistics.getTickerCount(TickerType.NUMBER_DB_SEEK));
      out.put("iteratorSteps", statistics.getTickerCount(TickerType.NUMBER_DB_NEXT));
      out.put("iteratorKeysSkipped", statistics.getTickerCount(TickerType.NUMBER_ITER_SKIP));
      out.put("compactionReadBytes", statistics.getTickerCount(TickerType.COMPACT_READ_BYTES));
      out.put("compactionWriteBytes", statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES));
    }
    return out;
  }
}
