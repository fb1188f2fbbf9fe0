package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.MigrationConformance;

/**
 * The 2 → 3 migration layer against the postgres backend, on format-2 stores the suite writes
 * itself (the packed fixtures in the conformance-tests jar are RocksDB stores).
 */
class PostgresMigrationConformanceTest extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }
}
