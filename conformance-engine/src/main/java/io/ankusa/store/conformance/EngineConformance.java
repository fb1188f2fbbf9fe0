package io.ankusa.store.conformance;

import io.ankusa.store.spi.Capabilities;

/**
 * Layer 1 of the conformance suite: every guarantee of the engine contract (spi javadoc), as named
 * jqwik properties (and a few JUnit tests for capability-gated checks) run against the backend a
 * concrete subclass names:
 *
 * <pre>{@code
 * class RocksDbEngineConformanceTest extends EngineConformance {
 *   @Override protected BackendFixture fixture() { return new RocksDbFixture(); }
 * }
 * }</pre>
 *
 * <p>Each case opens its own store in a fresh temporary directory ({@link TempDirStore}) and closes
 * and deletes it, also on failure. Stores have two families: {@value #PLAIN} (plain) and {@value
 * #COUNTERS} (counters). Generated keys are 1..32 bytes (never above {@link
 * Capabilities#maxKeyBytes()}), drawn so that bytes {@code >= 0x80} and shared prefixes are common.
 * A case needing a capability the backend does not claim is skipped visibly with the reason ({@link
 * org.opentest4j.TestAbortedException}). The method names are the property names the SPI javadoc
 * refers to.
 *
 * <p>The cases live in one interface per promise, each a file of its own: {@link BatchCases},
 * {@link ReadOwnershipCases}, {@link MergeCases}, {@link ScanOrderCases}, {@link ConsistencyCases},
 * {@link LifecycleCases}, {@link CrashCases}, {@link ArgumentCases}, {@link DirectoryCases}, {@link
 * CorruptionCases}, {@link ModelCases}, {@link VisitCases} and {@link OpenStoreCases}; the
 * generators are {@link EngineGenerators}, the shared assertions {@link EngineAssertions}. This
 * class ties them to one backend, so a backend author still writes one class.
 *
 * <p>The keystone is {@code modelBasedRandomBatches}: random, shrinkable sequences of batches
 * applied to the backend and to the suite's {@link ReferenceModel}, with the whole state compared
 * after each batch. The other properties pin down one promise each, so a failure names the broken
 * promise.
 */
public abstract class EngineConformance extends EngineGenerators
    implements BatchCases,
        ReadOwnershipCases,
        MergeCases,
        ScanOrderCases,
        ConsistencyCases,
        LifecycleCases,
        ArgumentCases,
        DirectoryCases,
        CorruptionCases,
        ModelCases,
        CrashCases,
        VisitCases,
        OpenStoreCases {
  /**
   * A new store of the backend under test with {@link #FAMILIES}, in a fresh temporary directory.
   */
  @Override
  public final TempDirStore openFresh() {
    return TempDirStore.open(backend(), FAMILIES);
  }

  @Override
  public final Capabilities capabilities() {
    return backend().capabilities();
  }
}
