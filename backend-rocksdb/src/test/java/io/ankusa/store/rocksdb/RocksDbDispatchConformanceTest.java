package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DispatchConformance;

/**
 * The dispatch layer of the conformance suite against RocksDB: how ticks are shared among tenants.
 */
class RocksDbDispatchConformanceTest extends DispatchConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }
}
