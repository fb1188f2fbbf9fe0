package io.ankusa.store.bench.jmh;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.List;

/**
 * A store opened through {@code StoreProvider.named(...)}: one plain family and one counters
 * family.
 */
public final class SpiTarget implements EngineTarget {
  /**
   * The families the engine benches open: plain (LZ4 on RocksDB, as a queue family), and counters.
   */
  public static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain(PLAIN), FamilySpec.counters(COUNTERS, 1L << 20));

  private final Store store;

  private SpiTarget(Store store) {
    this.store = store;
  }

  static SpiTarget open(String backend, Path dir) {
    return new SpiTarget(BenchStores.open(backend, dir, FAMILIES));
  }

  /** The store, for benches that need more than this interface. */
  public Store store() {
    return store;
  }

  @Override
  public byte[] get(byte[] key) {
    return store.get(PLAIN, key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    store.write(new Batch().put(PLAIN, key, value), Durability.NO_SYNC);
  }

  @Override
  public void putAll(byte[][] keys, byte[][] values, boolean sync) {
    Batch b = new Batch();
    for (int i = 0; i < keys.length; i++) {
      b.put(PLAIN, keys[i], values[i]);
    }
    store.write(b, sync ? Durability.SYNC : Durability.NO_SYNC);
  }

  @Override
  public long scan(byte[] lo, byte[] hi, int n) {
    long sum = 0;
    try (Scan scan = store.scan(PLAIN, lo, hi, Direction.FORWARD)) {
      for (int i = 0; i < n && scan.hasNext(); i++) {
        sum += scan.next().value().length;
      }
    }
    return sum;
  }

  @Override
  public long visit(byte[] lo, byte[] hi, int n) {
    long[] sumAndCount = new long[2];
    store.visit(
        PLAIN,
        lo,
        hi,
        Direction.FORWARD,
        (key, value) -> {
          sumAndCount[0] += value.length;
          return ++sumAndCount[1] < n;
        });
    return sumAndCount[0];
  }

  @Override
  public void merge(byte[] key, long delta) {
    store.write(new Batch().merge(COUNTERS, key, delta), Durability.NO_SYNC);
  }

  @Override
  public long counter(byte[] key) {
    return store.counter(COUNTERS, key);
  }

  @Override
  public void close() {
    store.close();
  }
}
