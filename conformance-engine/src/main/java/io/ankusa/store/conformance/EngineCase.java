package io.ankusa.store.conformance;

import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import java.util.List;
import net.jqwik.api.Reporter;

/**
 * What every case of the engine layer needs from the suite that runs it: the backend under test, a
 * fresh store of it, its capabilities and the visible skip. Stores have two families: {@value
 * #PLAIN} (plain) and {@value #COUNTERS} (counters).
 */
public interface EngineCase {
  /** The plain family of every store the suite opens. */
  String PLAIN = "plain";

  /** The counters family of every store the suite opens. */
  String COUNTERS = "counters";

  /** The families of every store the suite opens. */
  List<FamilySpec> FAMILIES = List.of(FamilySpec.plain(PLAIN), FamilySpec.counters(COUNTERS, 0));

  /** The backend under test (its fixture, made once per suite instance). */
  BackendFixture backend();

  /**
   * A new store of the backend under test with {@link #FAMILIES}, in a fresh temporary directory.
   */
  TempDirStore openFresh();

  /** What the backend under test claims. */
  Capabilities capabilities();

  /** Skips the calling case, visibly, when the backend does not claim a capability. */
  void requireCapability(boolean claimed, String capability, String why);

  /** Prints what the case saw, under the backend's name (jqwik's report). */
  default void report(Reporter reporter, String property, String what) {
    reporter.publishValue(backend().name(), property + ": " + what);
  }
}
