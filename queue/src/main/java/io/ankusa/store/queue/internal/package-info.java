/**
 * The queue's internals: its transitions and their guard, the writer, the dispatcher, the indexes,
 * the counters, maintenance, migration and the runtime that owns their threads. Their types are
 * public because the queue's own tools use them (the CLI's offline commands, the benches, the
 * conformance suite and its deliberately broken variants); they are not the queue's API and change
 * in any release. A service uses {@link io.ankusa.store.queue.WebhookQueue} and the rest of {@code
 * io.ankusa.store.queue}. docs/architecture.md explains how the pieces fit.
 */
package io.ankusa.store.queue.internal;
