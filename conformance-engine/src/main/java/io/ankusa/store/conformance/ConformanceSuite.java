package io.ankusa.store.conformance;

import org.opentest4j.TestAbortedException;

/**
 * What every layer of the suite shares: the backend under test, created once per suite instance,
 * and the visible skip of a case whose capability the backend does not claim. A backend's test
 * class extends a layer (for example {@link EngineConformance}) and implements {@link #fixture()}.
 *
 * <p>Every case runs under {@link ReplayHook}: {@code -Dankusa.seed} pins its seed, and a failure
 * names the case and seed that replay it.
 */
public abstract class ConformanceSuite {
  private BackendFixture fixture;

  /** The backend under test. Called once per suite instance; the result is kept. */
  protected abstract BackendFixture fixture();

  /** The fixture, created once per suite instance. */
  public final synchronized BackendFixture backend() {
    if (fixture == null) {
      fixture = fixture();
    }
    return fixture;
  }

  /** Skips the calling case, visibly, when the backend does not claim a capability. */
  public final void requireCapability(boolean claimed, String capability, String why) {
    if (!claimed) {
      throw new TestAbortedException(
          backend().name() + " does not claim " + capability + ": " + why);
    }
  }
}
