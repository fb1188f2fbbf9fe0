package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.LayoutConformance;

/** Layer 2 of the conformance suite against LMDB: the TEN-1.a layout properties. */
class LmdbLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
