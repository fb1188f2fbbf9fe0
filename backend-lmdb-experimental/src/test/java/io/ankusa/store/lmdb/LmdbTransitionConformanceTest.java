package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.TransitionConformance;

/** The transition layer of the conformance suite against LMDB: conflicting transitions at once. */
class LmdbTransitionConformanceTest extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
