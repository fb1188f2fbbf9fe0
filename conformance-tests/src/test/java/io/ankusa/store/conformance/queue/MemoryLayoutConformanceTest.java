package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;

/**
 * The layout layer of the suite (the queue's key-layout promises) against the {@code memory}
 * backend.
 */
class MemoryLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
