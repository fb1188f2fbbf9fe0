package io.ankusa.store.rocksdb;

import java.util.List;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.Options;
import org.rocksdb.TablePropertiesCollectorFactory;

/**
 * RocksDB's compact-on-deletion collector, for the families that are not counters: a file written
 * with at least {@value #TRIGGER_DELETIONS} deletions among any {@value #WINDOW_ENTRIES}
 * consecutive entries, or with half its entries deletions, is marked for compaction when it is
 * written (flush or compaction), and RocksDB compacts it soon after, so the deletions meet what
 * they cover and leave.
 *
 * <p>Why: the queue deletes as much as it writes (every claim deletes a due row, every settle its
 * inflight row), and its scans walk the deletions they meet. Without this, a file full of them
 * stays until enough files pile up in its level to start a compaction. In a young store that is a
 * long time, and the dispatch tick's scans walk those deletions meanwhile
 * (docs/measurements/gate.md has the gate's first cell with and without the collector).
 *
 * <p>Ownership: the collector factory is native; {@link #close} frees it after the database that
 * uses it is closed. Options made by {@link #newFamilyOptions} are the caller's to close.
 */
final class DeletionTriggeredCompaction implements AutoCloseable {
  /** Entries in the sliding window the collector counts deletions over. */
  static final long WINDOW_ENTRIES = 32_768;

  /** Deletions within one window that mark the file. */
  static final long TRIGGER_DELETIONS = 16_384;

  /** Share of a file's entries that are deletions that marks the file, whatever the window. */
  static final double DELETION_RATIO = 0.5;

  private final TablePropertiesCollectorFactory factory =
      TablePropertiesCollectorFactory.NewCompactOnDeletionCollectorFactory(
          WINDOW_ENTRIES, TRIGGER_DELETIONS, DELETION_RATIO);

  /**
   * New family options, RocksDB's defaults plus this collector (RocksJava sets collectors only on
   * an {@link Options}, whose family part is copied here).
   */
  ColumnFamilyOptions newFamilyOptions() {
    try (Options template = new Options()) {
      template.setTablePropertiesCollectorFactory(List.of(factory));
      return new ColumnFamilyOptions(template);
    }
  }

  @Override
  public void close() {
    factory.close();
  }
}
