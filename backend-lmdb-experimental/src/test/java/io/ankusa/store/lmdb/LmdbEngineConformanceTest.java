package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;

/** The engine layer of the conformance suite, run against the lmdb backend. */
class LmdbEngineConformanceTest extends EngineConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
