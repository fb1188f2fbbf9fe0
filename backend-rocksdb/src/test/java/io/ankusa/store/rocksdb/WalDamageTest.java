package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Damage to the write-ahead log of a store whose memtables were never flushed (every batch lives
 * only in the WAL): damage in the middle of the log is reported at open, never recovered as a
 * silently shorter prefix; a record cut short at the very end (a crash mid-append) opens with every
 * batch before it. And a log RocksDB closed when one family was flushed alone, cut short: refused
 * at open, never opened with that family's files ahead of the others (the conformance suite's
 * {@code cutLogNeverSplitsABatchAcrossFamilies} cuts it everywhere).
 */
class WalDamageTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));
  private static final int BATCHES = 150;

  @TempDir Path dir;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  private static byte[] value(int i) {
    byte[] v = new byte[64];
    ByteBuffer.wrap(v).putInt(i).putInt(~i);
    return v;
  }

  /** Writes {@link #BATCHES} acknowledged SYNC batches, one key each, and closes (no flush). */
  private void writeUnflushed() {
    try (Store store = new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES)) {
      for (int i = 0; i < BATCHES; i++) {
        store.write(new Batch().put("rows", key(i), value(i)), Durability.SYNC);
      }
    }
    assertThat(WalFiles.newest(dir).size())
        .as("the batches are in the WAL, not flushed")
        .isGreaterThan(BATCHES * 64L);
  }

  @Test
  void aFlippedBitInTheMiddleOfTheWalIsReportedAtOpen() {
    writeUnflushed();
    WalFiles.Wal wal = WalFiles.newest(dir);
    wal.flipBit(wal.size() / 2);
    assertThatThrownBy(
            () ->
                new RocksDbStoreProvider()
                    .open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining(wal.path().getFileName().toString())
        .hasMessageContaining("write-ahead log")
        .hasMessageContaining("backup");
  }

  /**
   * Batches that put a row and merge a counter, the rows family flushed alone two thirds of the
   * way: the flush closes the log the earlier batches are in, and the rows' SST file holds those
   * batches' rows while their merges exist only in that log. Cut short in its middle, it must
   * refuse the open; opened, the store would hold rows whose merges are gone.
   */
  @Test
  void aClosedLogCutShortAfterOneFamilyWasFlushedAloneIsRefusedAtOpen() {
    List<FamilySpec> families = List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));
    byte[] n = {'n'};
    try (Store store = new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), families)) {
      for (int i = 0; i < BATCHES; i++) {
        store.write(
            new Batch().put("rows", key(i), value(i)).merge("counts", n, 1), Durability.SYNC);
        if (i == BATCHES * 2 / 3) {
          ((RocksDbStore) store).flushFamily("rows");
        }
      }
    }
    List<WalFiles.Wal> wals = WalFiles.all(dir);
    assertThat(wals)
        .as("the flush of rows closed the log of the batches before it")
        .hasSizeGreaterThan(1);
    WalFiles.Wal closed = wals.get(0);
    closed.truncate(closed.size() / 2);
    assertThatThrownBy(() -> reopen(families))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("shorter than its MANIFEST records")
        .hasMessageContaining("split")
        .hasMessageContaining("backup");
  }

  /**
   * A store opened in turn by this backend (the closed logs' sizes recorded), by plain RocksDB
   * without the recording (as a release before it would; RocksDB then drops what was recorded) and
   * by this backend again opens each time with every batch; and a closed log of the last open cut
   * short is refused again.
   */
  @Test
  void anOpenThatRecordsNoLogSizesInBetweenChangesNothing() throws Exception {
    List<FamilySpec> families = List.of(FamilySpec.plain("rows"), FamilySpec.counters("counts", 0));
    byte[] n = {'n'};
    int third = BATCHES / 3;
    writeAndFlushRowsHalfWay(families, 0, third);
    try (RawRocksDb raw = new RawRocksDb(dir, families);
        WriteOptions sync = new WriteOptions().setSync(true)) {
      for (int i = third; i < 2 * third; i++) {
        try (WriteBatch b = new WriteBatch()) {
          b.put(raw.handle("rows"), key(i), value(i));
          b.merge(raw.handle("counts"), n, Int64Add.encode(1));
          raw.db().write(sync, b);
        }
        if (i == third + third / 2) {
          raw.flush("rows");
        }
      }
    }
    writeAndFlushRowsHalfWay(families, 2 * third, BATCHES);
    try (Store store = reopen(families)) {
      for (int i = 0; i < BATCHES; i++) {
        assertThat(store.get("rows", key(i))).as("batch %d", i).isEqualTo(value(i));
      }
      assertThat(store.counter("counts", n)).isEqualTo(BATCHES);
    }
    writeAndFlushRowsHalfWay(families, BATCHES, BATCHES + third);
    WalFiles.Wal closed = WalFiles.all(dir).get(0);
    closed.truncate(closed.size() / 2);
    assertThatThrownBy(() -> reopen(families))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("shorter than its MANIFEST records");
  }

  private Store reopen(List<FamilySpec> families) {
    return new RocksDbStoreProvider()
        .open(dir, StoreOptions.defaults().createIfMissing(false), families);
  }

  /**
   * Batches {@code from..to-1} through the backend, each a row and a merge; the rows flushed alone
   * half-way.
   */
  private void writeAndFlushRowsHalfWay(List<FamilySpec> families, int from, int to) {
    try (Store store = new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), families)) {
      for (int i = from; i < to; i++) {
        Batch b = new Batch().put("rows", key(i), value(i)).merge("counts", new byte[] {'n'}, 1);
        store.write(b, Durability.SYNC);
        if (i == (from + to) / 2) {
          ((RocksDbStore) store).flushFamily("rows");
        }
      }
    }
  }

  @Test
  void aRecordCutShortAtTheEndOpensWithEveryBatchBeforeIt() {
    writeUnflushed();
    WalFiles.Wal wal = WalFiles.newest(dir);
    wal.truncate(wal.size() - 20); // inside the last batch's record
    try (Store store =
        new RocksDbStoreProvider()
            .open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)) {
      for (int i = 0; i < BATCHES - 1; i++) {
        assertThat(store.get("rows", key(i)))
            .as("acknowledged batch %d before the torn record", i)
            .isEqualTo(value(i));
      }
      assertThat(store.get("rows", key(BATCHES - 1))).as("the torn last batch").isNull();
    }
  }
}
