package io.ankusa.store.conformance;

/** The layout layer of the suite (the queue's key-layout promises) against the {@code memory} backend. */
class MemoryLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
