package io.ankusa.store.sample;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.AllLayersConformance;


/** Every layer of the conformance suite against the sample backend. */
class LogStoreConformanceTest extends AllLayersConformance {
  @Override
  protected BackendFixture fixture() {
    return new LogStoreFixture();
  }
}
