package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.DurabilityConformance;

/**
 * The durability layer of the conformance suite, run against the etcd backend on the shared test
 * cluster.
 */
class EtcdDurabilityConformanceTest extends DurabilityConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }
}
