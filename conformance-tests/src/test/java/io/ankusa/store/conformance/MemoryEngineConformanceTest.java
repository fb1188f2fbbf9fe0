package io.ankusa.store.conformance;

/** The engine layer of the suite against the {@code memory} backend, the model every backend is compared with. */
class MemoryEngineConformanceTest extends EngineConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
