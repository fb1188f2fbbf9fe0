package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DispatchConformance;

/** The dispatch layer of the conformance suite against LMDB: how ticks are shared among tenants. */
class LmdbDispatchConformanceTest extends DispatchConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
