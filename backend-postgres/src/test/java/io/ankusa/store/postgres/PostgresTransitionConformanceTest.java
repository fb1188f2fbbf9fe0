package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.TransitionConformance;

/** The transition layer of the conformance suite against the postgres backend. */
class PostgresTransitionConformanceTest extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }
}
