package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;

/**
 * A SYNC write fsyncs RocksDB's write-ahead log; a NO_SYNC write does not. Neither a reopen after
 * close nor a SIGKILL can tell (the operating system keeps what a killed process wrote), so this
 * reads RocksDB's own count of log syncs ({@code rocksdb.dbstats}, "Cumulative WAL: … syncs"),
 * which it keeps for every database. RocksDB leaves {@code syncWal()} out of that count, and
 * counting it would take a statistics object on every write; a {@code syncWal()} that does nothing
 * is seen by no test in this process (see the equivalent and unobservable mutants in
 * docs/mutation-testing.md).
 */
class WalSyncTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));
  private static final Pattern WAL_SYNCS =
      Pattern.compile("Cumulative WAL: \\d+ writes, (\\d+) syncs");

  @TempDir Path dir;

  @Test
  void syncWritesSyncTheLogAndNoSyncWritesDoNot() {
    try (RocksDbStore s =
        (RocksDbStore) new RocksDbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES)) {
      long start = walSyncs(s);
      s.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.NO_SYNC);
      assertThat(walSyncs(s)).as("log syncs after a NO_SYNC write").isEqualTo(start);
      s.write(new Batch().put("rows", new byte[] {2}, new byte[] {2}), Durability.SYNC);
      assertThat(walSyncs(s)).as("log syncs after a one-put SYNC write").isEqualTo(start + 1);
      s.write(
          new Batch()
              .put("rows", new byte[] {3}, new byte[] {3})
              .put("rows", new byte[] {4}, new byte[] {4}),
          Durability.SYNC);
      assertThat(walSyncs(s)).as("log syncs after a SYNC batch of two puts").isEqualTo(start + 2);
      s.write(new Batch().put("rows", new byte[] {5}, new byte[] {5}), Durability.NO_SYNC);
      assertThat(walSyncs(s)).as("log syncs after another NO_SYNC write").isEqualTo(start + 2);
    }
  }

  private static long walSyncs(RocksDbStore s) {
    RocksDbEngine e = s.enter();
    try {
      String stats = e.db.getProperty("rocksdb.dbstats");
      Matcher m = WAL_SYNCS.matcher(stats);
      assertThat(m.find()).as("RocksDB's dbstats name the WAL syncs:\n%s", stats).isTrue();
      return Long.parseLong(m.group(1));
    } catch (RocksDBException ex) {
      throw new AssertionError(ex);
    } finally {
      s.exit();
    }
  }
}
