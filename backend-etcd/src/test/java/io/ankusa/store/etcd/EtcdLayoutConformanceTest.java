package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;

/**
 * The layout layer of the conformance suite, run against the etcd backend on the shared test
 * cluster.
 */
class EtcdLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }
}
