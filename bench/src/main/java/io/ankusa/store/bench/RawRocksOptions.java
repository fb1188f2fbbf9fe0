package io.ankusa.store.bench;

import java.util.Objects;
import java.util.Properties;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.Options;
import org.rocksdb.TablePropertiesCollectorFactory;

/**
 * The rocksdb backend's family options that RocksJava's setters alone do not make obvious, for the
 * raw RocksJava baselines: so a raw baseline merges as the backend does (merge operands of one key
 * folded in the memtable once 16 pile up, reading the key's base value wherever it is: {@code
 * max_successive_merges} 16 with {@code strict_max_successive_merges}, which RocksJava can set only
 * through RocksDB's options parser), and reads as the backend does: Bloom filters over every
 * family's keys in SST files and in the memtable; and compacts as the backend does: every family
 * but the counters has its files full of deletions compacted ({@link #newDeletionCollector}). The
 * constants repeat the backend's defaults, which the bench cannot see; the bench's tests compare
 * the options file RocksDB writes for a raw baseline with the backend's, so a default changed on
 * one side only fails there.
 */
public final class RawRocksOptions {
  private RawRocksOptions() {}

  /** The backend's default fold: see {@code RocksDbSettings.maxSuccessiveMerges}. */
  public static final int MAX_SUCCESSIVE_MERGES = 16;

  /**
   * The backend's default SST filters: see {@code RocksDbSettings.countersBloomBitsPerKey} and
   * {@code bloomBitsPerKey}.
   */
  public static final double BLOOM_BITS_PER_KEY = 10;

  /**
   * The backend's memtable filter size, a share of the write buffer ({@code
   * RocksDbEngine.MEMTABLE_BLOOM_RATIO}).
   */
  public static final double MEMTABLE_BLOOM_RATIO = 0.05;

  /** A new filter for {@link #filter}; the caller owns (and closes) it, after the database. */
  public static BloomFilter newFilter() {
    return new BloomFilter(BLOOM_BITS_PER_KEY);
  }

  /**
   * Sets the backend's counters filters: {@code filter} into {@code table}, which the caller then
   * sets on {@code options}, and the memtable's whole-key filter on {@code options}.
   */
  public static void filter(
      ColumnFamilyOptions options, BlockBasedTableConfig table, BloomFilter filter) {
    table.setFilterPolicy(filter);
    options
        .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO)
        .setMemtableWholeKeyFiltering(true);
  }

  /**
   * The backend's compact-on-deletion collector (see {@code DeletionTriggeredCompaction}: a window
   * of 32 768 entries, 16 384 deletions in it, or half the file); the caller owns (and closes) it,
   * after the database.
   */
  public static TablePropertiesCollectorFactory newDeletionCollector() {
    return TablePropertiesCollectorFactory.NewCompactOnDeletionCollectorFactory(
        32_768, 16_384, 0.5);
  }

  /**
   * New column family options, RocksDB's defaults plus {@code collector}; the caller owns (and
   * closes) them.
   */
  public static ColumnFamilyOptions deletionCompacted(TablePropertiesCollectorFactory collector) {
    try (Options template = new Options()) {
      template.setTablePropertiesCollectorFactory(java.util.List.of(collector));
      return new ColumnFamilyOptions(template);
    }
  }

  /** New column family options with the fold set; the caller owns (and closes) them. */
  public static ColumnFamilyOptions foldingOptions() {
    Properties fold = new Properties();
    fold.setProperty("max_successive_merges", Integer.toString(MAX_SUCCESSIVE_MERGES));
    fold.setProperty("strict_max_successive_merges", "true");
    return Objects.requireNonNull(
        ColumnFamilyOptions.getColumnFamilyOptionsFromProps(fold),
        "this RocksDB build does not know strict_max_successive_merges");
  }
}
