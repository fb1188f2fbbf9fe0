package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reverse scan with no upper bound of an empty family ends at once, on the store and in a
 * snapshot.
 */
class EmptyFamilyScanTest {
  @TempDir Path dir;

  @Test
  void anUnboundedReverseScanOfAnEmptyFamilyEndsAtOnce() {
    try (Store store =
        new LmdbStoreProvider()
            .open(
                dir,
                StoreOptions.defaults(),
                List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0)))) {
      store.write(
          new Batch().merge("counters", new byte[] {1}, 1),
          Durability.SYNC); // another family is not empty
      for (byte[] lo : List.of(new byte[0], new byte[] {1})) {
        try (Scan scan = store.scan("rows", lo, null, Direction.REVERSE)) {
          assertThat(scan.hasNext()).isFalse();
        }
      }
      try (Snapshot snapshot = store.snapshot();
          Scan scan = snapshot.scan("rows", new byte[0], null, Direction.REVERSE)) {
        assertThat(scan.hasNext()).isFalse();
      }
    }
  }
}
