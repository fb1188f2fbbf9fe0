package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;

/** The engine layer of the conformance suite, run against the RocksDB backend. */
class RocksDbEngineConformanceTest extends EngineConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }
}
