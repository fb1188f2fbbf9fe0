package io.ankusa.store.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.bench.RocksDbOptionsFile;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every engine target — the SPI backends and the raw baselines — does the same thing for the same
 * call, so a ratio between two of them compares equal work.
 */
class EngineTargetTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"memory", "rocksdb", "lmdb", "raw-rocksdb", "raw-lmdb"})
  void everyTargetGetsPutsScansAndMergesAlike(String name) {
    byte[][] keys = BenchKeys.keys(1_000);
    try (EngineTarget t = EngineTarget.open(name, dir.resolve(name))) {
      BenchKeys.load(t, keys);
      assertThat(t.get(keys[7])).isEqualTo(BenchKeys.value(7));
      assertThat(t.get(BenchKeys.key(5_000))).isNull();

      byte[] v = BenchKeys.value(-3);
      t.put(keys[7], v);
      assertThat(t.get(keys[7])).isEqualTo(v);

      assertThat(t.scan(keys[100], keys[200], 100)).isEqualTo(100L * BenchKeys.VALUE_BYTES);
      assertThat(t.scan(keys[100], keys[150], 100)).isEqualTo(50L * BenchKeys.VALUE_BYTES);
      assertThat(t.scan(keys[100], keys[900], 10)).isEqualTo(10L * BenchKeys.VALUE_BYTES);
      assertThat(t.visit(keys[100], keys[200], 100)).isEqualTo(100L * BenchKeys.VALUE_BYTES);
      assertThat(t.visit(keys[100], keys[150], 100)).isEqualTo(50L * BenchKeys.VALUE_BYTES);
      assertThat(t.visit(keys[100], keys[900], 10)).isEqualTo(10L * BenchKeys.VALUE_BYTES);

      byte[][] batch = {keys[1], keys[2]};
      t.putAll(batch, new byte[][] {v, v}, true);
      assertThat(t.get(keys[2])).isEqualTo(v);

      assertThat(t.counter(keys[3])).isZero();
      t.merge(keys[3], 5);
      t.merge(keys[3], -2);
      t.merge(keys[4], 1);
      assertThat(t.counter(keys[3])).isEqualTo(3);
      assertThat(t.counter(keys[4])).isEqualTo(1);
    }
  }

  /**
   * With {@value RawLmdbTarget#VALUE_PAD_PROPERTY}, raw-lmdb stores every value it is given (loaded
   * or put) with that many zero bytes more, and reads return the padded bytes.
   */
  /**
   * The raw RocksDB baseline opens its families with the options the backend gives them: RocksDB's
   * own record of each open (its options file) is the same on both sides but for two settings that
   * change no read or write cost. A backend default changed without the baseline (a filter, the
   * counters' fold, a block size) fails here, not silently in a ratio.
   */
  @Test
  void rawRocksOpensRocksDbWithTheBackendsOptions() throws Exception {
    EngineTarget.open("rocksdb", dir.resolve("spi")).close();
    EngineTarget.open("raw-rocksdb", dir.resolve("raw")).close();
    RocksDbOptionsFile.assertOpenedAlike(
        dir.resolve("spi"), dir.resolve("raw"), EngineTarget.COUNTERS);
  }

  @Test
  void rawLmdbPadsTheValuesItStoresWhenAsked() {
    byte[][] keys = BenchKeys.keys(100);
    String previous = System.setProperty(RawLmdbTarget.VALUE_PAD_PROPERTY, "4");
    try (EngineTarget t = EngineTarget.open("raw-lmdb", dir.resolve("padded"))) {
      BenchKeys.load(t, keys);
      assertThat(t.get(keys[7]))
          .isEqualTo(Arrays.copyOf(BenchKeys.value(7), BenchKeys.VALUE_BYTES + 4));
      t.put(keys[8], BenchKeys.value(-1));
      assertThat(t.get(keys[8]))
          .isEqualTo(Arrays.copyOf(BenchKeys.value(-1), BenchKeys.VALUE_BYTES + 4));
      assertThat(t.scan(keys[10], keys[20], 10)).isEqualTo(10L * (BenchKeys.VALUE_BYTES + 4));
    } finally {
      if (previous == null) {
        System.clearProperty(RawLmdbTarget.VALUE_PAD_PROPERTY);
      } else {
        System.setProperty(RawLmdbTarget.VALUE_PAD_PROPERTY, previous);
      }
    }
  }
}
