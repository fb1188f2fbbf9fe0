package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DispatchConformance;

/**
 * The dispatch layer of the conformance suite, run against the etcd backend on the shared test
 * cluster.
 */
class EtcdDispatchConformanceTest extends DispatchConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }
}
