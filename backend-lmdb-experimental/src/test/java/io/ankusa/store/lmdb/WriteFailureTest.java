package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reportWriteFailure} reopens the environment: what was written before is readable after,
 * open scans and snapshots are closed with a message saying why, and the store keeps working.
 */
class WriteFailureTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.counters("counters", 0));

  @TempDir Path dir;

  @Test
  void reportWriteFailureReopensAndKeepsEverythingCommitted() {
    try (Store store = new LmdbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES)) {
      store.write(
          new Batch()
              .put("rows", new byte[] {1}, new byte[] {10})
              .merge("counters", new byte[] {1}, 5),
          Durability.SYNC);
      store.write(new Batch().put("rows", new byte[] {2}, new byte[] {20}), Durability.NO_SYNC);
      Scan scan = store.scan("rows", new byte[0], null, Direction.FORWARD);
      assertThat(scan.hasNext()).isTrue();
      Snapshot snapshot = store.snapshot();
      Scan snapshotScan = snapshot.scan("rows", new byte[0], null, Direction.REVERSE);

      store.reportWriteFailure(new IllegalStateException("test: a sync failed"));

      assertThatThrownBy(scan::hasNext)
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reportWriteFailure");
      assertThatThrownBy(snapshotScan::hasNext).isInstanceOf(StoreClosedException.class);
      assertThatThrownBy(() -> snapshot.get("rows", new byte[] {1}))
          .isInstanceOf(StoreClosedException.class)
          .hasMessageContaining("reportWriteFailure");
      scan.close();
      snapshot.close();
      assertThat(((LmdbStore) store).readers().openCount()).isZero();

      assertThat(store.get("rows", new byte[] {1})).containsExactly(10);
      assertThat(store.get("rows", new byte[] {2}))
          .containsExactly(20); // committed, unsynced: LMDB keeps it
      assertThat(store.counter("counters", new byte[] {1})).isEqualTo(5);
      store.write(
          new Batch()
              .merge("counters", new byte[] {1}, 2)
              .put("rows", new byte[] {3}, new byte[] {30}),
          Durability.SYNC);
      assertThat(store.counter("counters", new byte[] {1})).isEqualTo(7);
      try (Scan after = store.scan("rows", new byte[0], null, Direction.FORWARD)) {
        int n = 0;
        while (after.hasNext()) {
          after.next();
          n++;
        }
        assertThat(n).isEqualTo(3);
      }
    }
  }
}
