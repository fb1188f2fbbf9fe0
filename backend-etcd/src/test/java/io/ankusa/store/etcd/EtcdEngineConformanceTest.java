package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;

/**
 * The engine layer of the conformance suite, run against the etcd backend on the shared test
 * cluster.
 */
class EtcdEngineConformanceTest extends EngineConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }
}
