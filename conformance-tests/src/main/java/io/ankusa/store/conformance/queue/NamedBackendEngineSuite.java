package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import io.ankusa.store.spi.StoreArgumentException;

/**
 * The engine suite against the backend named by the system property {@value #BACKEND_PROPERTY},
 * through a {@link ProviderFixture}: what {@link ConformanceRunner} runs for {@code --backend
 * NAME}. Not a test class of this module (its name does not match surefire's patterns).
 */
public class NamedBackendEngineSuite extends EngineConformance {
  /** The system property holding the backend's name. */
  public static final String BACKEND_PROPERTY = "ankusa.conformance.backend";

  /**
   * The system property holding a fixture's class name (created with its no-arg constructor, as
   * {@link ChildJvm} does), used instead of the generic fixture of {@value #BACKEND_PROPERTY}.
   */
  public static final String FIXTURE_PROPERTY = "ankusa.conformance.fixture";

  @Override
  protected BackendFixture fixture() {
    return fromProperty(getClass());
  }

  /**
   * The fixture of the class named by {@value #FIXTURE_PROPERTY} if set, else the generic fixture
   * of the backend named by {@value #BACKEND_PROPERTY}, for any layer's named suite.
   */
  static BackendFixture fromProperty(Class<?> suite) {
    String fixture = System.getProperty(FIXTURE_PROPERTY, "");
    if (!fixture.isBlank()) {
      return ChildJvm.recreate(fixture);
    }
    String name = System.getProperty(BACKEND_PROPERTY);
    if (name == null || name.isBlank()) {
      throw new StoreArgumentException(
          "set the system property "
              + BACKEND_PROPERTY
              + " to a backend name (memory, rocksdb, lmdb) before running "
              + suite.getSimpleName());
    }
    return new ProviderFixture(name);
  }
}
