package io.ankusa.store.queue;

import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.queue.internal.runtime.AnswerCounts;
import io.ankusa.store.queue.internal.runtime.AsyncHandOff;
import io.ankusa.store.queue.internal.runtime.LoopPacer;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.queue.internal.runtime.SyncSettler;
import io.ankusa.store.spi.Store;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A multi-tenant webhook queue on one open {@link Store}: the one way in. It ingests hooks (each
 * durable before it is acknowledged), hands your handler each hook's deliveries — one per sink, due
 * now, shared fairly among tenants — with their payloads, and records each answer: delivered, retry
 * later, or dead-letter. Everything else — group commit, the write-ahead log's sync, the claim and
 * settle batches, recovery after a crash, reclaiming delivered hooks, the archive — runs inside.
 *
 * <p>The package documentation shows the whole life of one, in ten lines.
 *
 * <p>Opening recovers the store first: deliveries a crashed process left in flight are due again.
 * Then it starts its threads (a writer, a WAL syncer, a dispatcher, a reclaimer, and an archiver
 * with an archive); {@link #close()} stops and joins them all. It does not own the store: close the
 * store after the queue. One queue per store (a second is refused while the first runs).
 *
 * <p>Delivery is at least once: a crash between a sink's acceptance and the write of its answer
 * hands the delivery out again; {@link Delivery#hookId()} lets a sink tell. Thread-safe.
 */
public final class WebhookQueue implements AutoCloseable {
  private final DeliveryQueue queue;
  private final QueueRuntime runtime;
  private final AnswerCounts counts;
  private final QueueGauges gauges;
  private final DeadLetterQueue deadLetters;
  private final TenantAdmin tenants;

  private WebhookQueue(QueueRuntime runtime, AnswerCounts counts, QueueOptions options) {
    this.queue = runtime.queue();
    this.runtime = runtime;
    this.counts = counts;
    this.gauges = new QueueGauges(queue);
    this.deadLetters = new DeadLetterQueue(queue, options.clock());
    this.tenants = new TenantAdmin(queue, runtime.writer());
  }

  /** The families a store must be opened with to hold a queue. */
  public static java.util.List<io.ankusa.store.spi.FamilySpec> families() {
    return io.ankusa.store.layout.Format3.families();
  }

  /**
   * Opens the queue on {@code store} with a synchronous {@code handler}: it answers each tick's
   * deliveries before returning, and its answers are written with their claims in one batch (see
   * {@link DeliveryHandler}).
   */
  public static WebhookQueue open(Store store, QueueOptions options, DeliveryHandler handler) {
    Objects.requireNonNull(handler, "handler");
    AnswerCounts counts = new AnswerCounts();
    return start(
        store,
        options,
        counts,
        queue -> new SyncSettler(queue, handler, counts),
        (q, tick, now) -> {});
  }

  /**
   * Opens the queue on {@code store} with an asynchronous {@code handler}: it takes each tick's
   * deliveries, in flight in the store, and answers them later from any thread (see {@link
   * AsyncDeliveryHandler}).
   */
  public static WebhookQueue openAsync(
      Store store, QueueOptions options, AsyncDeliveryHandler handler) {
    Objects.requireNonNull(handler, "handler");
    AnswerCounts counts = new AnswerCounts();
    AsyncHandOff handOff = new AsyncHandOff(handler, counts);
    return start(store, options, counts, queue -> Dispatcher.CLAIM_ALL, handOff);
  }

  private static WebhookQueue start(
      Store store,
      QueueOptions options,
      AnswerCounts counts,
      java.util.function.Function<DeliveryQueue, Dispatcher.ClaimSettler> settler,
      TickHandler handler) {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(options, "options");
    QueueRuntime runtime =
        QueueRuntime.start(
            store,
            options.queue(),
            options.runtime(),
            settler,
            handler,
            options.archive(),
            options.clock(),
            LoopPacer.PARK);
    return new WebhookQueue(runtime, counts, options);
  }

  /**
   * Ingests one hook. The future completes once the hook is durable ({@code CREATED}, with its
   * seq), or is a retry of an idempotency key seen within the dedupe window ({@code DUPLICATE},
   * with the first one's seq, also once durable), or at once when it is refused ({@code REJECTED}:
   * the rule it broke; {@code TENANT_LIMIT}; {@code UNAVAILABLE}: overloaded, or the store failed —
   * retry later). A refused hook is never stored.
   */
  public CompletableFuture<IngestResult> ingest(IngestRequest request) {
    return runtime.writer().ingest(request);
  }

  /**
   * The queue's counts and what its handler answered since open. Cheap: a few point reads, no scan.
   */
  public QueueStats stats() {
    QueueGauges.Gauge g = gauges.measure(runtime.clock().getAsLong());
    TenantCounts c = g.aggregate();
    return new QueueStats(
        c.pending(),
        c.scheduled(),
        c.inflight(),
        c.dead(),
        c.bytes(),
        c.archivePending(),
        g.oldestDueAgeMs(),
        g.tenants(),
        counts.delivered(),
        counts.retried(),
        counts.deadLettered(),
        counts.handlerFailures(),
        runtime.reclaimedHooks());
  }

  /** The dead-letter queue: browse, revive, purge. */
  public DeadLetterQueue deadLetters() {
    return deadLetters;
  }

  /** The runtime that runs this queue, for {@link QueueMeters}. */
  QueueRuntime runtime() {
    return runtime;
  }

  /** Tenant administration: limits, counts, purge, erase. */
  public TenantAdmin tenants() {
    return tenants;
  }

  /**
   * Stops every thread of the queue and waits for them: the dispatcher finishes its tick (an
   * asynchronous handler's answers queued so far are written; later ones are refused), the writer
   * answers and syncs everything it took. Idempotent. Does not close the store.
   *
   * @throws RuntimeException the first failure of a component of the queue, if one failed
   */
  @Override
  public void close() {
    runtime.close();
  }
}
