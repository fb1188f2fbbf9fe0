package io.ankusa.store.rocksdb;

/**
 * A scan or snapshot that holds native RocksDB objects and must be released before its engine
 * handle is closed or replaced. Stores and snapshots track the open ones in a concurrent set.
 */
sealed interface OpenResource permits RocksDbScan, RocksDbSnapshot {

  /**
   * Releases the native objects now and makes every later call throw {@link
   * io.ankusa.store.spi.StoreClosedException} with {@code reason}. Idempotent. REQUIRES: the caller
   * holds the exclusive or the shared side of the store's gate (so the engine handle is open).
   */
  void invalidate(String reason);
}
