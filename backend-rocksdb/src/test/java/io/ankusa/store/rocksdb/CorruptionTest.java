package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged SST data is reported, never read as absence or as a short scan (property {@code
 * scanNeverEndsEarlyOnCorruption} at the backend level): enough rows for hundreds of data blocks
 * are written and compacted, bytes in the middle of the data blocks are flipped, and after
 * reopening every read that touches the damaged block throws {@link StoreCorruptionException}.
 */
class CorruptionTest {
  private static final String ROWS = "rows";
  private static final String COUNTS = "counts";
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain(ROWS), FamilySpec.counters(COUNTS, 0));
  private static final int N = 20_000;

  @TempDir Path dir;
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();

  static byte[] key(int i) {
    return ByteBuffer.allocate(5).put((byte) 'k').putInt(i).array();
  }

  /** Incompressible values, so the data blocks are many and the damage lands inside one. */
  static byte[] value(int i) {
    byte[] v = new byte[100];
    new SplittableRandom(i).nextBytes(v);
    return v;
  }

  @BeforeEach
  void writeCompactAndDamage() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      for (int start = 0; start < N; start += 1000) {
        Batch b = new Batch();
        for (int i = start; i < start + 1000; i++) {
          b.put(ROWS, key(i), value(i));
          b.merge(COUNTS, key(i), i);
        }
        s.write(b, Durability.NO_SYNC);
      }
      s.syncWal();
    }
    RocksDbFixture.damage(dir, FAMILIES, ROWS);
    RocksDbFixture.damage(dir, FAMILIES, COUNTS);
  }

  @Test
  void fullScanThrowsInsteadOfEndingEarly() {
    for (Direction d : Direction.values()) {
      try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
        List<byte[]> seen = new ArrayList<>();
        assertThatThrownBy(
                () -> {
                  try (Scan scan = s.scan(ROWS, new byte[0], null, d)) {
                    while (scan.hasNext()) {
                      seen.add(scan.next().key());
                    }
                  }
                })
            .as(
                "a %s scan over a damaged block must throw, it returned %d of %d rows quietly",
                d, seen.size(), N)
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining("family '" + ROWS + "'")
            .hasMessageContaining(
                seen.isEmpty()
                    ? "stopped before its first entry"
                    : "stopped after key " + Bytes.hex(seen.get(seen.size() - 1)));
        assertThat(seen.size()).as("rows before the damage, %s", d).isLessThan(N);
        assertThat(EngineProbe.read((RocksDbStore) s, e -> e.keptIterators.idle()))
            .as("an iterator that stopped on an error is freed, not kept for the next scan")
            .isZero();
      }
    }
  }

  @Test
  void boundedScanOverTheDamageThrows() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      int bad = firstDamagedKey(s);
      assertThatThrownBy(
              () -> {
                try (Scan scan =
                    s.scan(
                        ROWS,
                        key(Math.max(0, bad - 50)),
                        key(Math.min(N, bad + 50)),
                        Direction.FORWARD)) {
                  while (scan.hasNext()) {
                    scan.next();
                  }
                }
              })
          .isInstanceOf(StoreCorruptionException.class);
    }
  }

  @Test
  void pointReadsOfDamagedKeysThrowAndOthersAreExact() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      int damaged = 0;
      for (int i = 0; i < N; i++) {
        try {
          byte[] v = s.get(ROWS, key(i));
          assertThat(v)
              .as("row %d is either read exactly or reported damaged, never absent or wrong", i)
              .isEqualTo(value(i));
        } catch (StoreCorruptionException e) {
          assertThat(e).hasMessageContaining("family '" + ROWS + "'").hasMessageContaining("6b");
          damaged++;
        }
      }
      assertThat(damaged).as("keys in the damaged block").isPositive();
    }
  }

  @Test
  void multiGetOfADamagedKeyThrows() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      int bad = firstDamagedKey(s);
      assertThatThrownBy(() -> s.multiGet(ROWS, List.of(key(0), key(bad), key(N + 5))))
          .isInstanceOf(StoreCorruptionException.class);
      try (var snap = s.snapshot()) {
        assertThatThrownBy(() -> snap.multiGet(ROWS, List.of(key(bad))))
            .isInstanceOf(StoreCorruptionException.class);
      }
    }
  }

  @Test
  void damagedCountersAreReportedNotReadAsZero() {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      int damaged = 0;
      for (int i = 0; i < N; i++) {
        try {
          assertThat(s.counter(COUNTS, key(i))).as("counter %d", i).isEqualTo(i);
        } catch (StoreCorruptionException e) {
          damaged++;
        }
      }
      assertThat(damaged).as("counters in the damaged block").isPositive();
    }
  }

  /** The first row whose get reports corruption. */
  private static int firstDamagedKey(Store s) {
    for (int i = 0; i < N; i++) {
      try {
        byte[] v = s.get(ROWS, key(i));
        if (!Arrays.equals(v, value(i))) {
          throw new AssertionError("row " + i + " read wrong without an error");
        }
      } catch (StoreCorruptionException e) {
        return i;
      }
    }
    throw new AssertionError("no damaged row found");
  }
}
