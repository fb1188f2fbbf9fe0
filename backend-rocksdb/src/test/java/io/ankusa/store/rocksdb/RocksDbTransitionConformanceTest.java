package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.TransitionConformance;

/**
 * The transition layer of the conformance suite against RocksDB: conflicting transitions at once.
 */
class RocksDbTransitionConformanceTest extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }
}
