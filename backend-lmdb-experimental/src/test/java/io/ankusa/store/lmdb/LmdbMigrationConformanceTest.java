package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.MigrationConformance;

/**
 * The 2 → 3 migration layer against LMDB (format-2 input written in place; the packed fixtures are
 * RocksDB stores).
 */
class LmdbMigrationConformanceTest extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return new LmdbFixture();
  }
}
