package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limits in {@link LmdbStore#CAPABILITIES} are real: LMDB stores and finds a key of exactly
 * {@code maxKeyBytes} (511, LMDB's compiled-in maximum) and a value of exactly {@code
 * maxValueBytes}; one byte more is refused up front with {@link StoreArgumentException}, before
 * LMDB sees it.
 */
class LimitsTest {
  @TempDir Path dir;

  @Test
  void theLargestKeyAndValueWorkAndOneByteMoreIsRefused() {
    int maxKey = LmdbStore.CAPABILITIES.maxKeyBytes();
    int maxValue = LmdbStore.CAPABILITIES.maxValueBytes();
    byte[] bigKey = new byte[maxKey];
    Arrays.fill(bigKey, (byte) 0xff);
    byte[] bigValue = new byte[maxValue];
    bigValue[maxValue - 1] = 9;
    try (Store store =
        new LmdbStoreProvider()
            .open(
                dir,
                StoreOptions.defaults().with("lmdb.mapSizeBytes", Integer.toString(1 << 20)),
                List.of(FamilySpec.plain("rows")))) {
      store.write(
          new Batch().put("rows", bigKey, bigValue).put("rows", new byte[] {1}, new byte[] {1}),
          Durability.SYNC);
      assertThat(store.get("rows", bigKey)).isEqualTo(bigValue);
      try (Scan scan = store.scan("rows", new byte[] {1}, bigKey, Direction.REVERSE)) {
        assertThat(scan.next().key()).containsExactly(1); // [1, bigKey) excludes bigKey itself
        assertThat(scan.hasNext()).isFalse();
      }
      try (Scan scan = store.scan("rows", new byte[] {(byte) 0x80}, null, Direction.FORWARD)) {
        Entry e = scan.next();
        assertThat(e.key()).isEqualTo(bigKey);
        assertThat(scan.hasNext()).isFalse();
      }
      assertThatThrownBy(
              () ->
                  store.write(
                      new Batch().put("rows", new byte[maxKey + 1], new byte[1]), Durability.SYNC))
          .isInstanceOf(StoreArgumentException.class);
      assertThatThrownBy(
              () ->
                  store.write(
                      new Batch().put("rows", new byte[] {2}, new byte[maxValue + 1]),
                      Durability.SYNC))
          .isInstanceOf(StoreArgumentException.class);
      assertThatThrownBy(() -> store.get("rows", new byte[maxKey + 1]))
          .isInstanceOf(StoreArgumentException.class);
    }
  }
}
