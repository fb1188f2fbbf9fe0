package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;

/**
 * The 2 → 3 migration layer against the {@code memory} backend (format-2 input written in place).
 */
class MemoryMigrationConformanceTest extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }
}
