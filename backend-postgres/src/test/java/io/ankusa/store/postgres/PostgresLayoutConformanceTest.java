package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;

/** The layout layer of the conformance suite against the postgres backend. */
class PostgresLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }
}
