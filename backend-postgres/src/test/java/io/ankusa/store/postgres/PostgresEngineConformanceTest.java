package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;

/** The engine layer of the conformance suite, run against the postgres backend. */
class PostgresEngineConformanceTest extends EngineConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }
}
