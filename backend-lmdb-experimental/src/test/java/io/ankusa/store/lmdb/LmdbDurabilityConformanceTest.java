package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DurabilityConformance;

/** Layer 3 of the conformance suite against LMDB: acknowledged hooks survive SIGKILL. */
class LmdbDurabilityConformanceTest extends DurabilityConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
