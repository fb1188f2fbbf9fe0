package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage to the write-ahead log of a store whose memtables were never flushed (every batch lives
 * only in the WAL): damage in the middle of the log is reported at open, never recovered as a
 * silently shorter prefix; a record cut short at the very end (a crash mid-append) opens with every
 * batch before it.
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
    assertThat(WalFiles.newest(dir).size()).as("the batches are in the WAL, not flushed").isGreaterThan(BATCHES * 64L);
  }

  @Test
  void aFlippedBitInTheMiddleOfTheWalIsReportedAtOpen() {
    writeUnflushed();
    WalFiles.Wal wal = WalFiles.newest(dir);
    wal.flipBit(wal.size() / 2);
    assertThatThrownBy(() -> new RocksDbStoreProvider().open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining(wal.path().getFileName().toString())
        .hasMessageContaining("write-ahead log")
        .hasMessageContaining("backup");
  }

  @Test
  void aRecordCutShortAtTheEndOpensWithEveryBatchBeforeIt() {
    writeUnflushed();
    WalFiles.Wal wal = WalFiles.newest(dir);
    wal.truncate(wal.size() - 20); // inside the last batch's record
    try (Store store = new RocksDbStoreProvider().open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)) {
      for (int i = 0; i < BATCHES - 1; i++) {
        assertThat(store.get("rows", key(i))).as("acknowledged batch %d before the torn record", i).isEqualTo(value(i));
      }
      assertThat(store.get("rows", key(BATCHES - 1))).as("the torn last batch").isNull();
    }
  }
}
