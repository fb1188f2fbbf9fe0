package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.MigrationConformance;
import io.ankusa.store.conformance.queue.fixtures.StoreFixtures;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;

/**
 * The 2 → 3 migration layer against RocksDB, on the packed fixtures {@code store-v2.tar.zst} and
 * {@code store-v3.tar.zst} that ship in the conformance-tests jar (RocksDB stores).
 */
class RocksDbMigrationConformanceTest extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }

  @Override
  protected Store openV2Fixture(Path dir) {
    return openPackedFixture(StoreFixtures.V2_RESOURCE, dir);
  }

  @Override
  protected Store openV3Fixture(Path dir) {
    return openPackedFixture(StoreFixtures.V3_RESOURCE, dir);
  }
}
