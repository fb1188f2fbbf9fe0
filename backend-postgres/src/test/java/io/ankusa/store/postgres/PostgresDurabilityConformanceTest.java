package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DurabilityConformance;

/**
 * The durability layer against the postgres backend: the child JVM the suite SIGKILLs finds the
 * test server through the URL its store directory records, so the server outlives every kill.
 */
class PostgresDurabilityConformanceTest extends DurabilityConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }
}
