package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;

/**
 * The engine layer of the suite against the {@code memory} backend, the model every backend is
 * compared with.
 */
class MemoryEngineConformanceTest extends EngineConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
