package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.TransitionConformance;

/**
 * The transition layer of the conformance suite, run against the etcd backend on the shared test
 * cluster.
 */
class EtcdTransitionConformanceTest extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }
}
