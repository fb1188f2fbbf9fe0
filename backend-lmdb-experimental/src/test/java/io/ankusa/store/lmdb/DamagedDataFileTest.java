package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

/**
 * Damage to {@code data.mdb} the way a bad disk or a bad copy does it: a truncated file is refused
 * at open with {@link StoreCorruptionException} (never mapped, so never a SIGBUS); a flipped byte
 * in a stored value or key is reported by every read that meets it — get, multiGet, scans both
 * ways, snapshots — through the values' checksums, in a message naming the store or snapshot read;
 * a key flipped out of order is refused at open by the check of the trees ({@link DataFileCheck}),
 * and when it happens while the store is open, after that check, the scan that meets it reports it.
 * Stores written without checksums (metadata format 1, as every store was before checksums existed)
 * keep reading as they were written.
 */
class DamagedDataFileTest {
  private static final String FAMILY = "rows";
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain(FAMILY), FamilySpec.counters("n", 0));
  private static final int KEYS = 2000;
  private static final StoreOptions REOPEN = StoreOptions.defaults().createIfMissing(false);

  @TempDir Path dir;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(8).putInt(0x6b65793a).putInt(i * 7919).array();
  }

  private static byte[] value(int i) {
    byte[] v = new byte[48];
    new Random(i).nextBytes(v);
    return v;
  }

  /** Writes every key in one transaction, so each key and value sits in the file exactly once. */
  private void write(StoreOptions options) {
    try (Store store = new LmdbStoreProvider().open(dir, options, FAMILIES)) {
      Batch b = new Batch();
      for (int i = 0; i < KEYS; i++) {
        b.put(FAMILY, key(i), value(i));
      }
      b.merge("n", key(0), 5);
      store.write(b, Durability.SYNC);
    }
  }

  /** The index of a key in the middle of the family whose bytes occur exactly once in the file. */
  private int keyStoredOnce() {
    for (int i = KEYS / 2; i < KEYS; i++) {
      if (DataFileDamage.find(dir, key(i)).size() == 1) {
        return i;
      }
    }
    throw new IllegalStateException("no key is stored exactly once in " + dir);
  }

  @Test
  void aTruncatedDataFileIsRefusedAtOpenNamingTheFileAndTheSizes() {
    write(StoreOptions.defaults());
    long full = DataFileDamage.size(dir);
    long cut = full / 2 / 4096 * 4096;
    DataFileDamage.truncate(dir, cut);
    assertThatThrownBy(() -> new LmdbStoreProvider().open(dir, REOPEN, FAMILIES))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining(DataFileDamage.dataFile(dir).toString())
        .hasMessageContaining("it is " + cut + " bytes long")
        .hasMessageContaining("past its end")
        .hasMessageContaining("cut short")
        .hasMessageContaining("restore the store from a backup");
    assertThat(full).as("the file before the cut").isGreaterThan(cut);
    assertThat(DataFileDamage.size(dir)).as("the refused open changed nothing").isEqualTo(cut);
  }

  @Test
  void aFileCutInsideItsMetaPagesIsRefusedToo() {
    write(StoreOptions.defaults());
    DataFileDamage.truncate(dir, 4096 + 100);
    assertThatThrownBy(() -> new LmdbStoreProvider().open(dir, REOPEN, FAMILIES))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("second meta page");
  }

  @Test
  void aFlippedValueByteIsReportedByEveryRead() {
    write(StoreOptions.defaults());
    int damaged = KEYS / 2;
    List<Long> at = DataFileDamage.find(dir, value(damaged));
    assertThat(at).as("the value is stored once").hasSize(1);
    DataFileDamage.flip(dir, at.get(0) + 20, 0x10);
    assertEveryReadReports(damaged);
  }

  @Test
  void aFlippedKeyByteIsReportedByEveryRead() {
    write(StoreOptions.defaults());
    int damaged = keyStoredOnce();
    DataFileDamage.flip(dir, DataFileDamage.find(dir, key(damaged)).get(0) + 6, 0x01);
    assertEveryReadReports(damaged);
  }

  @Test
  void aKeyFlippedOutOfOrderIsRefusedAtOpen() {
    write(StoreOptions.defaults());
    int damaged = keyStoredOnce();
    // The top bit of the key's counter: the entry now sorts far above its neighbours.
    DataFileDamage.flip(dir, DataFileDamage.find(dir, key(damaged)).get(0) + 4, 0x80);
    assertThatThrownBy(() -> new LmdbStoreProvider().open(dir, REOPEN, FAMILIES))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("family '" + FAMILY + "'")
        .hasMessageContaining("does not sort after");
  }

  @Test
  void aKeyDamagedPastTheRangeEndWhileOpenIsReportedNotReadAsTheEndOfTheRange() {
    write(StoreOptions.defaults());
    int damaged = keyStoredOnce();
    try (Store store = new LmdbStoreProvider().open(dir, REOPEN, FAMILIES)) {
      // After the check at open: the entry now reads as a key far above the range below.
      DataFileDamage.flip(dir, DataFileDamage.find(dir, key(damaged)).get(0) + 4, 0x80);
      try (Scan scan = store.scan(FAMILY, key(0), key(damaged + 5), Direction.FORWARD)) {
        assertThat(catchThrowable(() -> scan.forEachRemaining(e -> {})))
            .as("a scan of a range holding the damaged key")
            .isInstanceOf(StoreCorruptionException.class);
      }
    }
  }

  /** Reads of the damaged entry throw naming the family; the others read right. */
  private void assertEveryReadReports(int damaged) {
    try (Store store = new LmdbStoreProvider().open(dir, REOPEN, FAMILIES)) {
      assertThat(catchThrowable(() -> store.get(FAMILY, key(damaged))))
          .as("get")
          .isInstanceOf(StoreCorruptionException.class)
          .hasMessageContaining("'" + FAMILY + "'")
          .hasMessageContaining("checksum mismatch")
          .hasMessageContaining("of lmdb store " + dir);
      assertThat(catchThrowable(() -> store.multiGet(FAMILY, List.of(key(0), key(damaged)))))
          .as("multiGet")
          .isInstanceOf(StoreCorruptionException.class);
      for (Direction direction : Direction.values()) {
        try (Scan scan = store.scan(FAMILY, new byte[0], null, direction)) {
          Throwable t = catchThrowable(() -> scan.forEachRemaining(e -> {}));
          assertThat(t)
              .as("%s scan", direction)
              .isInstanceOf(StoreCorruptionException.class)
              .hasMessageContaining("of lmdb store " + dir);
        }
      }
      try (Snapshot snap = store.snapshot()) {
        assertThat(catchThrowable(() -> snap.get(FAMILY, key(damaged))))
            .as("snapshot get")
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining("of snapshot of lmdb store " + dir);
        try (Scan scan = snap.scan(FAMILY, new byte[0], null, Direction.FORWARD)) {
          assertThat(catchThrowable(() -> scan.forEachRemaining(e -> {})))
              .as("snapshot scan")
              .isInstanceOf(StoreCorruptionException.class)
              .hasMessageContaining("of snapshot of lmdb store " + dir);
        }
      }
      assertThat(store.get(FAMILY, key(0))).isEqualTo(value(0));
      assertThat(store.get(FAMILY, key(KEYS - 1))).isEqualTo(value(KEYS - 1));
      assertThat(store.counter("n", key(0))).isEqualTo(5);
    }
  }

  @Test
  void aStoreWrittenWithoutChecksumsKeepsReadingAsWritten() {
    write(StoreOptions.defaults().with(LmdbSettings.CHECKSUMS, "false"));
    assertThat(rawValue(key(3))).as("format 1: values stored as given").isEqualTo(value(3));
    try (Store store = new LmdbStoreProvider().open(dir, REOPEN, FAMILIES)) {
      assertThat(store.get(FAMILY, key(3))).isEqualTo(value(3));
      store.write(
          new Batch().put(FAMILY, key(3), new byte[] {7}).merge("n", key(0), 1), Durability.SYNC);
      assertThat(store.get(FAMILY, key(3))).isEqualTo(new byte[] {7});
      assertThat(store.counter("n", key(0))).isEqualTo(6);
    }
    assertThat(rawValue(key(3)))
        .as("still no checksum after a reopen with checksums on")
        .isEqualTo(new byte[] {7});
  }

  @Test
  void aStoreWrittenWithChecksumsKeepsThemWhateverTheOptionSays() {
    write(StoreOptions.defaults());
    assertThat(rawValue(key(3))).as("format 2: value and checksum").hasSize(value(3).length + 4);
    try (Store store =
        new LmdbStoreProvider().open(dir, REOPEN.with(LmdbSettings.CHECKSUMS, "false"), FAMILIES)) {
      assertThat(store.get(FAMILY, key(3))).isEqualTo(value(3));
      assertThat(Bytes.hex(store.multiGet(FAMILY, List.of(key(3))).get(0)))
          .isEqualTo(Bytes.hex(value(3)));
    }
  }

  /** The bytes LMDB holds for {@code key} in the family, read past the backend. */
  private byte[] rawValue(byte[] key) {
    try (Env<byte[]> env =
        Env.create(ByteArrayProxy.PROXY_BA).setMaxDbs(8).open(dir.toFile(), EnvFlags.MDB_NOTLS)) {
      Dbi<byte[]> dbi = env.openDbi(FAMILY);
      try (Txn<byte[]> txn = env.txnRead()) {
        return dbi.get(txn, key);
      }
    }
  }
}
