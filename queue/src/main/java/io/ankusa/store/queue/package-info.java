/**
 * The webhook queue, for a service that embeds it: {@link io.ankusa.store.queue.WebhookQueue} is
 * the one way in. Open a store with the queue's families, open the queue on it with a handler,
 * ingest hooks; the handler gets each hook's deliveries — one per sink, due now, fairly shared
 * among tenants — with everything a sink needs, and answers each: delivered, retry later, or
 * dead-letter.
 *
 * <pre>{@code
 * Store store = StoreProvider.named("rocksdb").open(dir, StoreOptions.defaults(), WebhookQueue.families());
 * try (WebhookQueue queue = WebhookQueue.open(store, QueueOptions.defaults(), deliveries -> {
 *   for (Delivery d : deliveries) {
 *     if (sink.post(d.sink(), d.payload())) d.delivered();
 *     else d.retry(System.currentTimeMillis() + 5_000, "sink busy");
 *   }
 * })) {
 *   queue.ingest(new IngestRequest("acme", "github", "evt-1", "evt-1",
 *       System.currentTimeMillis(), List.of(1), "{}".getBytes(UTF_8))).join(); // CREATED, once durable
 *   // ... serve until the service stops
 * }
 * store.close();
 * }</pre>
 *
 * ({@code sink} is your code; the build runs this example as it is written here, in {@code
 * FrontDoorExampleTest}.)
 *
 * <ul>
 *   <li>{@link io.ankusa.store.queue.DeliveryHandler} answers on the dispatcher's thread, and its
 *       answers are written with the claims in one batch; {@link
 *       io.ankusa.store.queue.AsyncDeliveryHandler} answers later, from any thread ({@link
 *       io.ankusa.store.queue.WebhookQueue#openAsync}).
 *   <li>{@link io.ankusa.store.queue.Delivery}: tenant, source, hook id, idempotency key, sink,
 *       attempt, received-at and payload, and the three answers.
 *   <li>{@link io.ankusa.store.queue.WebhookQueue#stats()}, {@link
 *       io.ankusa.store.queue.WebhookQueue#deadLetters()} (browse, revive, purge) and {@link
 *       io.ankusa.store.queue.WebhookQueue#tenants()} (limits, counts, purge, erase).
 *   <li>{@link io.ankusa.store.queue.QueueOptions}: tenants, archive, the writer, the tick's
 *       budget.
 * </ul>
 *
 * <p>Beside this package, a service may use {@code io.ankusa.store.queue.config} (the writer's
 * settings) and {@code io.ankusa.store.queue.archive} (the interface an archive of hooks
 * implements). Everything under {@code io.ankusa.store.queue.internal} is the queue's internals:
 * public only because the queue's own tools (the CLI, the benches, the conformance suite) use them,
 * and changed in any release.
 */
package io.ankusa.store.queue;
