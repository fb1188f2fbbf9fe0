package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** multiGet reads per-key statuses into fixed slots; values that do not fit are read again. */
class MultiGetTest {
  @TempDir Path dir;

  private static byte[] filled(int n, int b) {
    byte[] v = new byte[n];
    Arrays.fill(v, (byte) b);
    return v;
  }

  @Test
  void valuesOfEverySizeAroundTheSlotComeBackWholeAndInOrder() {
    int slot = RocksDbReadView.MULTI_GET_VALUE_BYTES;
    try (Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("p")))) {
      byte[][] values = {new byte[0], filled(slot - 1, 1), filled(slot, 2), filled(slot + 1, 3), filled(10_000, 4)};
      Batch b = new Batch();
      for (int i = 0; i < values.length; i++) {
        b.put("p", new byte[] {(byte) i}, values[i]);
      }
      store.write(b, Durability.SYNC);
      List<byte[]> keys = List.of(new byte[] {4}, new byte[] {9}, new byte[] {0}, new byte[] {3}, new byte[] {2},
          new byte[] {1}, new byte[] {4});
      List<byte[]> got = store.multiGet("p", keys);
      assertThat(got).hasSize(7);
      assertThat(got.get(0)).isEqualTo(values[4]);
      assertThat(got.get(1)).isNull();
      assertThat(got.get(2)).isEqualTo(values[0]);
      assertThat(got.get(3)).isEqualTo(values[3]);
      assertThat(got.get(4)).isEqualTo(values[2]);
      assertThat(got.get(5)).isEqualTo(values[1]);
      assertThat(got.get(6)).isEqualTo(values[4]);
    }
  }
}
