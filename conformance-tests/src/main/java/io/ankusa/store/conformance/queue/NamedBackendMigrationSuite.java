package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;

/**
 * The migration layer against the backend named by the system property {@value
 * NamedBackendEngineSuite#BACKEND_PROPERTY}, for {@link ConformanceRunner}. Not a test class of
 * this module (its name does not match surefire's patterns).
 */
public class NamedBackendMigrationSuite extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return NamedBackendEngineSuite.fromProperty(getClass());
  }
}
