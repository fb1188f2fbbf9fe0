package io.ankusa.store.bench;

import java.util.Objects;
import java.util.Properties;
import org.rocksdb.ColumnFamilyOptions;

/**
 * The rocksdb backend's counter-family fold for the raw RocksJava baselines, so a raw baseline merges
 * as the backend does: merge operands of one key folded in the memtable once 16 pile up, reading the
 * key's base value wherever it is ({@code max_successive_merges} 16 with {@code
 * strict_max_successive_merges}, which RocksJava can set only through RocksDB's options parser).
 */
public final class RawRocksCounters {
  private RawRocksCounters() {}

  /** The backend's default fold: see {@code RocksDbSettings.maxSuccessiveMerges}. */
  public static final int MAX_SUCCESSIVE_MERGES = 16;

  /** New column family options with the fold set; the caller owns (and closes) them. */
  public static ColumnFamilyOptions foldingOptions() {
    Properties fold = new Properties();
    fold.setProperty("max_successive_merges", Integer.toString(MAX_SUCCESSIVE_MERGES));
    fold.setProperty("strict_max_successive_merges", "true");
    return Objects.requireNonNull(ColumnFamilyOptions.getColumnFamilyOptionsFromProps(fold),
        "this RocksDB build does not know strict_max_successive_merges");
  }
}
