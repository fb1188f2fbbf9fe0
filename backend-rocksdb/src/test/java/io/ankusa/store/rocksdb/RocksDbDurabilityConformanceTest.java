package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DurabilityConformance;

/** Layer 3 of the conformance suite against RocksDB: acknowledged hooks survive SIGKILL. */
class RocksDbDurabilityConformanceTest extends DurabilityConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }
}
