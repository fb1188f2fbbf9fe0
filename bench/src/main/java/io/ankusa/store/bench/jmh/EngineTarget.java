package io.ankusa.store.bench.jmh;

import io.ankusa.store.bench.BenchStores;
import java.nio.file.Path;

/**
 * What the engine benches drive: a store through the SPI, or a hand-written raw baseline on the
 * same engine with the same settings, so {@code SPI / raw} is the SPI's overhead measured in one
 * JMH run. Keys and values handed in are owned by the caller and not changed; returned arrays
 * belong to the caller.
 */
public sealed interface EngineTarget extends AutoCloseable
    permits SpiTarget, RawRocksTarget, RawLmdbTarget {

  /** The family (or column family / named DBI) holding the plain keys. */
  String PLAIN = "bench";

  /** The family holding counters (int64-add merge, 8-byte little-endian values). */
  String COUNTERS = "counters";

  /** Every {@code @Param engine} value: the three SPI backends, then the two raw baselines. */
  String[] NAMES = {"memory", "rocksdb", "lmdb", "raw-rocksdb", "raw-lmdb"};

  /**
   * Opens target {@code name} in the empty directory {@code dir}: {@code memory}, {@code rocksdb},
   * {@code lmdb} through the SPI, or {@code raw-rocksdb}, {@code raw-lmdb}.
   */
  static EngineTarget open(String name, Path dir) {
    if (name.equals("raw-rocksdb")) {
      return RawRocksTarget.open(dir);
    }
    if (name.equals("raw-lmdb")) {
      return RawLmdbTarget.open(dir);
    }
    return SpiTarget.open(BenchStores.requireBackend(name), dir);
  }

  /** The name of the raw baseline to divide an SPI backend's time by, or null (memory has none). */
  static String baselineOf(String name) {
    if (name.equals("rocksdb")) {
      return "raw-rocksdb";
    }
    if (name.equals("lmdb")) {
      return "raw-lmdb";
    }
    return null;
  }

  /** The value at {@code key} in {@link #PLAIN}, or null. */
  byte[] get(byte[] key);

  /**
   * Puts {@code key -> value} in {@link #PLAIN}, not synced (RocksDB WAL without fsync; LMDB under
   * MDB_NOSYNC).
   */
  void put(byte[] key, byte[] value);

  /** Puts every pair in one atomic write, synced ({@code sync}) or not. */
  void putAll(byte[][] keys, byte[][] values, boolean sync);

  /**
   * Reads up to {@code n} entries of {@link #PLAIN} from {@code lo} (inclusive) to {@code hi}
   * (exclusive), forward; returns the sum of the value lengths.
   */
  long scan(byte[] lo, byte[] hi, int n);

  /**
   * The same reading as {@link #scan}, through the SPI's visitor read path ({@code
   * ReadView.visit}); a raw baseline has no other path and reads as in {@link #scan}.
   */
  default long visit(byte[] lo, byte[] hi, int n) {
    return scan(lo, hi, n);
  }

  /** Adds {@code delta} to the counter at {@code key} in {@link #COUNTERS}, not synced. */
  void merge(byte[] key, long delta);

  /** The counter at {@code key} in {@link #COUNTERS}; 0 when absent. */
  long counter(byte[] key);

  @Override
  void close();
}
