package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DispatchConformance;

/**
 * The dispatch layer of the conformance suite against the postgres backend: how ticks are shared
 * among tenants.
 */
class PostgresDispatchConformanceTest extends DispatchConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }
}
