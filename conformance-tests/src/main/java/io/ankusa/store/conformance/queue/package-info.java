/**
 * The queue layers of the conformance suite every ankusa-store backend runs (docs/testing.md, 'The
 * conformance suite'), on top of its engine layer ({@code io.ankusa.store.conformance}, module
 * {@code conformance-engine}): {@link io.ankusa.store.conformance.queue.LayoutConformance}, {@link
 * io.ankusa.store.conformance.queue.TransitionConformance}, {@link
 * io.ankusa.store.conformance.queue.DispatchConformance}, {@link
 * io.ankusa.store.conformance.queue.MigrationConformance} and {@link
 * io.ankusa.store.conformance.queue.DurabilityConformance}, which run the queue on the backend;
 * {@link io.ankusa.store.conformance.queue.AllLayersConformance}, every layer in one test class;
 * and {@link io.ankusa.store.conformance.queue.ConformanceRunner}, which runs them from the command
 * line for any backend on the classpath, through {@link
 * io.ankusa.store.conformance.queue.ProviderFixture}. A backend runs them by implementing {@link
 * io.ankusa.store.conformance.BackendFixture} (engine module) and extending a layer in one test
 * class.
 *
 * <p>This module (conformance-tests) owns this package and its {@code fixtures} subpackage; the
 * engine module owns {@code io.ankusa.store.conformance}. No package is split across the two jars.
 *
 * <p>The suite checks itself: its tests run it against deliberately broken memory backends
 * (mutants) and require each to be rejected by the property written for it.
 */
package io.ankusa.store.conformance.queue;
