package io.ankusa.store.rocksdb;

import java.util.function.ToIntFunction;

/** Reads a number off an open store's engine, with the store entered for the read, for tests. */
final class EngineProbe {
  private EngineProbe() {}

  /** {@code read} of {@code store}'s engine. REQUIRES: the store is open. */
  static int read(RocksDbStore store, ToIntFunction<RocksDbEngine> read) {
    RocksDbEngine e = store.enter();
    try {
      return read.applyAsInt(e);
    } finally {
      store.exit();
    }
  }
}
