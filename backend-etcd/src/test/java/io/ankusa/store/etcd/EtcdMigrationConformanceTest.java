package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.MigrationConformance;

/**
 * The migration layer of the conformance suite, run against the etcd backend on the shared test
 * cluster.
 */
class EtcdMigrationConformanceTest extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }
}
