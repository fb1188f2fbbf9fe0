/**
 * The engine layer of the conformance suite every ankusa-store backend runs (docs/testing.md, 'The
 * conformance suite'): {@link io.ankusa.store.conformance.EngineConformance}, every promise of the
 * engine contract as a named jqwik property, plus {@code modelBasedRandomBatches}, which compares
 * the backend with the suite's own reference model after every batch of a random, shrinkable
 * sequence. A backend runs it by implementing {@link io.ankusa.store.conformance.BackendFixture}
 * and extending the layer in one test class. On spi, the backend kit, jqwik and AssertJ only.
 *
 * <p>This module (conformance-engine) owns this package. The queue layers, the launcher and the
 * self-test are in {@code io.ankusa.store.conformance.queue} (module conformance-tests), which
 * depends on the queue; no package is split across the two jars.
 */
package io.ankusa.store.conformance;
