package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.LiveFileMetaData;

/**
 * A flushed file full of deletions does not stay: RocksDB compacts it with the file of the puts it
 * deletes, and both leave, although two files in level 0 are fewer than start a compaction on their
 * own. (That counters families do not get the collector is checked by the bench's comparison of the
 * backend's options file with the raw baselines', whose counters families have none.)
 */
class DeletionTriggeredCompactionTest {
  private static final int KEYS = 40_000;
  @TempDir Path dir;

  private static byte[] key(int i) {
    return new byte[] {(byte) (i >> 16), (byte) (i >> 8), (byte) i, 1};
  }

  /** The deletions in the live files of {@code family}, and how many files hold them. */
  private static long[] deletionsInFiles(RocksDbStore store, String family) {
    long[] out = new long[2];
    EngineProbe.read(
        store,
        e -> {
          for (LiveFileMetaData f : e.db.getLiveFilesMetaData()) {
            if (new String(f.columnFamilyName(), java.nio.charset.StandardCharsets.UTF_8)
                .equals(family)) {
              out[0] += f.numDeletions();
              out[1]++;
            }
          }
          return 0;
        });
    return out;
  }

  @Test
  void aFlushedFileOfDeletionsIsCompactedAway() throws InterruptedException {
    try (Store store =
        StoreProvider.named("rocksdb")
            .open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      RocksDbStore rocks = (RocksDbStore) store;
      for (int from = 0; from < KEYS; from += 1000) {
        Batch b = new Batch();
        for (int i = from; i < from + 1000; i++) {
          b.put("p", key(i), new byte[] {7});
        }
        store.write(b, Durability.NO_SYNC);
      }
      rocks.flush(false);
      for (int from = 0; from < KEYS; from += 1000) {
        Batch b = new Batch();
        for (int i = from; i < from + 1000; i++) {
          b.delete("p", key(i));
        }
        store.write(b, Durability.NO_SYNC);
      }
      rocks.flush(false);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      long[] left = deletionsInFiles(rocks, "p");
      while (left[0] > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
        left = deletionsInFiles(rocks, "p");
      }
      assertThat(left[0])
          .as("deletions left in %d files of 'p' 30 s after the flush", left[1])
          .isZero();
      assertThat(store.get("p", key(123))).isNull();
    }
  }
}
