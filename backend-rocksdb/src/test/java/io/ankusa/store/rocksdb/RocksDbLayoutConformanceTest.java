package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;

/** Layer 2 of the conformance suite against RocksDB: the key layout's properties. */
class RocksDbLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }
}
