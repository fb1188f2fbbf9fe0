package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;

/**
 * The transition layer of the suite (conflicting transitions at once) against the {@code memory}
 * backend.
 */
class MemoryTransitionConformanceTest extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
