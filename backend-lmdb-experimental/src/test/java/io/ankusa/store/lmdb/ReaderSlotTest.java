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
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every scan and snapshot gives its LMDB reader slot back: with a small reader table, 10 000 scans
 * and 10 000 snapshots opened and closed one after another never meet {@code MDB_READERS_FULL},
 * while holding every slot at once does (with a message naming {@code lmdb.maxReaders}).
 */
class ReaderSlotTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));
  private static final int ROUNDS = 10_000;

  @TempDir Path dir;

  private Store open() {
    return new LmdbStoreProvider()
        .open(dir, StoreOptions.defaults().with("lmdb.maxReaders", "8"), FAMILIES);
  }

  @Test
  void tenThousandScansAndSnapshotsNeverExhaustTheReaderTable() {
    try (Store store = open()) {
      int slots = ((LmdbStore) store).maxReaders();
      assertThat(slots)
          .as("LMDB rounds the reader table up to whole pages")
          .isLessThan(ROUNDS / 10);
      Batch batch = new Batch();
      for (int i = 0; i < 10; i++) {
        batch.put("rows", new byte[] {(byte) i}, new byte[] {(byte) i});
      }
      store.write(batch, Durability.SYNC);
      for (int i = 0; i < ROUNDS; i++) {
        Direction direction = i % 2 == 0 ? Direction.FORWARD : Direction.REVERSE;
        try (Scan scan = store.scan("rows", new byte[0], null, direction)) {
          if (i % 3 == 0) {
            while (scan
                .hasNext()) { // to the end: the slot is released there, close is then a no-op
              scan.next();
            }
          } else {
            assertThat(scan.hasNext()).isTrue(); // mid-range: released by close
          }
        }
      }
      for (int i = 0; i < ROUNDS; i++) {
        try (Snapshot snapshot = store.snapshot()) {
          assertThat(snapshot.get("rows", new byte[] {3})).containsExactly(3);
          if (i % 2 == 0) {
            Scan inSnapshot = snapshot.scan("rows", new byte[0], null, Direction.FORWARD);
            assertThat(inSnapshot.hasNext()).isTrue(); // left open: closed with its snapshot
          }
        }
      }
      assertThat(((LmdbStore) store).readers().openCount()).isZero();
      assertThat(holdAllSlots(store, slots)).hasSize(slots); // every slot is free again
    }
  }

  /** Opens scans until the reader table is full; returns them (still open). */
  private static List<Scan> holdAllSlots(Store store, int slots) {
    List<Scan> open = new ArrayList<>();
    for (int i = 0; i < slots; i++) {
      open.add(store.scan("rows", new byte[0], null, Direction.FORWARD));
    }
    assertThatThrownBy(() -> store.scan("rows", new byte[0], null, Direction.FORWARD))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("lmdb.maxReaders");
    assertThatThrownBy(() -> store.get("rows", new byte[] {1}))
        .hasMessageContaining("lmdb.maxReaders");
    return open;
  }

  @Test
  void closingTheStoreClosesOpenScansAndSnapshotsAndFreesTheirSlots() {
    Store store = open();
    store.write(new Batch().put("rows", new byte[] {1}, new byte[] {1}), Durability.SYNC);
    int slots = ((LmdbStore) store).maxReaders();
    Snapshot snapshot = store.snapshot();
    List<Scan> scans = new ArrayList<>();
    for (int i = 0; i < slots - 1; i++) {
      scans.add(store.scan("rows", new byte[0], null, Direction.FORWARD));
    }
    assertThat(((LmdbStore) store).readers().openCount()).isEqualTo(slots);
    store.close();
    assertThat(((LmdbStore) store).readers().openCount()).isZero();
    for (Scan scan : scans) {
      assertThatThrownBy(scan::hasNext).isInstanceOf(StoreClosedException.class);
      scan.close(); // idempotent, no native call on a closed environment
    }
    assertThatThrownBy(() -> snapshot.get("rows", new byte[] {1}))
        .isInstanceOf(StoreClosedException.class);
    snapshot.close();
    try (Store reopened = open()) {
      List<Scan> again = holdAllSlots(reopened, slots);
      again.forEach(Scan::close);
      assertThat(reopened.get("rows", new byte[] {1})).containsExactly(1);
    }
  }
}
