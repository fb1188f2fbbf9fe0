package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;

/** Layer 2 of the conformance suite against LMDB: the key layout's properties. */
class LmdbLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
