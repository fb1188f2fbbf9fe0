package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;

/**
 * The dispatch layer of the suite (how ticks are shared among tenants) against the {@code memory}
 * backend.
 */
class MemoryDispatchConformanceTest extends DispatchConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
