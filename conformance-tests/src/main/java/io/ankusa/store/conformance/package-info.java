/**
 * The conformance suite every ankusa-store backend runs (docs/testing.md, 'The conformance suite').
 *
 * <p>Layer 1, {@link io.ankusa.store.conformance.EngineConformance}: every promise of the engine
 * contract as a named jqwik property, plus {@code modelBasedRandomBatches}, which compares the backend
 * with the suite's own reference model after every batch of a random, shrinkable sequence. The engine
 * layer ships in the module {@code conformance-engine} (spi, jqwik and AssertJ only); the queue
 * layers (layout, transition, migration, durability), the launcher and the self-test ship in {@code
 * conformance-tests}, which depends on the queue. A backend runs it
 * by implementing {@link io.ankusa.store.conformance.BackendFixture} and extending the suite in one
 * test class; {@link io.ankusa.store.conformance.ConformanceRunner} runs it from the command line for
 * any backend on the classpath, through {@link io.ankusa.store.conformance.ProviderFixture}.
 *
 * <p>The suite checks itself: its tests run it against deliberately broken memory backends
 * (mutants) and require each to be rejected by the property written for it.
 */
package io.ankusa.store.conformance;
