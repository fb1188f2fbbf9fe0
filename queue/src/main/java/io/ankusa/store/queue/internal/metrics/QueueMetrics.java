package io.ankusa.store.queue.internal.metrics;

import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The queue's metrics for Micrometer (an optional dependency: only this class needs it), under the
 * seed's names:
 *
 * <ul>
 *   <li>{@code ankusa_queue_state{state=pending|scheduled|inflight|dead}} — rows per state;
 *   <li>{@code ankusa_queue_bytes}, {@code ankusa_queue_archive_pending};
 *   <li>{@code ankusa_queue_oldest_due_age_seconds};
 *   <li>{@code ankusa_tenant_pending{tenant}} — pending rows (kind 0) of the top 100 tenants by
 *       pending among those with a marker due now ({@link QueueGauges#topTenantsByPending});
 *   <li>{@code ankusa_dispatch_active_tenants} — the tenants the last dispatch tick visited
 *       (scanned for due rows), from {@link #recordTick} or, on a runtime, its last tick;
 *   <li>with a writer: {@code ankusa_writer_fences} — failed writes or syncs that fenced the queue
 *       (Prometheus: {@code ankusa_writer_fences_total}), and {@code ankusa_writer_durable_lag} —
 *       hooks applied but not yet durable ({@code appliedSeq − durableSeq}); both read live,
 *       lock-free;
 *   <li>{@code ankusa_tenants} — tenants ever created;
 *   <li>{@code ankusa_ingest{outcome}} — ingest answers by outcome, from {@link #recordIngest}
 *       (Prometheus shows it as {@code ankusa_ingest_total}).
 * </ul>
 *
 * <p>Gauges show the numbers of the last {@link #refresh()}: a scrape never reads the store. Call
 * {@code refresh()} on a schedule (every 15 s is the seed's {@code admin.gauge_interval_ms}); each
 * call is one gauge tick ({@link QueueGauges#measure}: one multiGet and a marker seek) plus the top
 * tenants (one marker scan and one multiGet). Thread-safe.
 */
public final class QueueMetrics implements MeterBinder {
  /** How many tenants {@code ankusa_tenant_pending} exposes. */
  public static final int TOP_TENANTS = 100;

  private final QueueGauges gauges;
  private final LongSupplier clock;

  /** The writer whose fences and lag are exported; null for none. */
  private final QueueWriter writer;

  /**
   * The runtime whose last tick {@link #refresh()} records; null when ticks are recorded by hand.
   */
  private final QueueRuntime runtime;

  private volatile QueueGauges.Gauge last = new QueueGauges.Gauge(TenantCounts.ZERO, 0, 0);
  private volatile int activeTenants;
  private final Map<IngestResult.Outcome, Counter> ingest =
      new EnumMap<>(IngestResult.Outcome.class);
  private final Map<MeterRegistry, MultiGauge> tenantPending = new ConcurrentHashMap<>();
  private volatile List<QueueGauges.TenantPending> top = List.of();

  public QueueMetrics(DeliveryQueue queue) {
    this(queue, System::currentTimeMillis);
  }

  public QueueMetrics(DeliveryQueue queue, LongSupplier clock) {
    this(queue, clock, null, null);
  }

  /**
   * The metrics of {@code writer}'s queue, with the writer's fences and lag; ticks by {@link
   * #recordTick}.
   */
  public QueueMetrics(QueueWriter writer, DeliveryQueue queue, LongSupplier clock) {
    this(queue, clock, writer, null);
  }

  private QueueMetrics(
      DeliveryQueue queue, LongSupplier clock, QueueWriter writer, QueueRuntime runtime) {
    this.gauges = new QueueGauges(queue);
    this.clock = clock;
    this.writer = writer;
    this.runtime = runtime;
  }

  /**
   * The metrics of a running {@link QueueRuntime}: its queue, its writer's fences and lag, and its
   * dispatcher's last tick (recorded at each {@link #refresh()}), ages measured on the runtime's
   * own clock ({@link QueueRuntime#clock()}), so they agree with what its dispatcher sees as due.
   */
  public static QueueMetrics of(QueueRuntime runtime) {
    return new QueueMetrics(runtime.queue(), runtime.clock(), runtime.writer(), runtime);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    state(registry, "pending", g -> g.aggregate().pending());
    state(registry, "scheduled", g -> g.aggregate().scheduled());
    state(registry, "inflight", g -> g.aggregate().inflight());
    state(registry, "dead", g -> g.aggregate().dead());
    Gauge.builder("ankusa_queue_bytes", this, m -> m.last.aggregate().bytes())
        .description("bytes of every delivery row that is due, inflight or dead")
        .baseUnit("bytes")
        .register(registry);
    Gauge.builder("ankusa_queue_archive_pending", this, m -> m.last.aggregate().archivePending())
        .description("archive obligations not yet settled")
        .register(registry);
    Gauge.builder(
            "ankusa_queue_oldest_due_age_seconds", this, m -> m.last.oldestDueAgeMs() / 1000.0)
        .description("age of the oldest due row")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder("ankusa_tenants", this, m -> m.last.tenants())
        .description("tenants ever created")
        .register(registry);
    Gauge.builder("ankusa_dispatch_active_tenants", this, m -> m.activeTenants)
        .description("tenants the last dispatch tick visited")
        .register(registry);
    if (writer != null) {
      FunctionCounter.builder("ankusa_writer_fences", writer, w -> w.stats().fences())
          .description("failed writes or syncs that fenced the queue")
          .register(registry);
      Gauge.builder("ankusa_writer_durable_lag", writer, w -> w.appliedSeq() - w.durableSeq())
          .description("hooks applied but not yet durable (appliedSeq - durableSeq)")
          .register(registry);
    }
    synchronized (ingest) {
      for (IngestResult.Outcome o : IngestResult.Outcome.values()) {
        ingest.computeIfAbsent(
            o,
            x ->
                Counter.builder("ankusa_ingest")
                    .tag("outcome", x.name().toLowerCase())
                    .description("ingest answers by outcome")
                    .register(registry));
      }
    }
    MultiGauge perTenant =
        MultiGauge.builder("ankusa_tenant_pending")
            .description("pending rows of the top " + TOP_TENANTS + " tenants by pending")
            .register(registry);
    tenantPending.put(registry, perTenant);
    publishTop(perTenant, top);
  }

  /** Reads the queue's numbers once; the gauges show them until the next refresh. */
  public void refresh() {
    long now = clock.getAsLong();
    if (runtime != null) {
      recordTick(runtime.lastTick());
    }
    last = gauges.measure(now);
    List<QueueGauges.TenantPending> newTop = gauges.topTenantsByPending(TOP_TENANTS, now);
    top = newTop;
    tenantPending.values().forEach(g -> publishTop(g, newTop));
  }

  /**
   * Records a dispatch tick (for {@code ankusa_dispatch_active_tenants}: the tenants it visited).
   */
  public void recordTick(Dispatcher.TickReport tick) {
    activeTenants = tick.tenantsVisited();
  }

  /** Counts one ingest answer. Call it from the future's completion. */
  public void recordIngest(IngestResult result) {
    Counter c = ingest.get(result.outcome());
    if (c != null) {
      c.increment();
    }
  }

  private void state(
      MeterRegistry registry,
      String state,
      java.util.function.ToDoubleFunction<QueueGauges.Gauge> f) {
    Gauge.builder("ankusa_queue_state", this, m -> f.applyAsDouble(m.last))
        .tag("state", state)
        .description("delivery rows by state")
        .register(registry);
  }

  private static void publishTop(MultiGauge gauge, List<QueueGauges.TenantPending> top) {
    List<MultiGauge.Row<?>> rows = new ArrayList<>(top.size());
    for (QueueGauges.TenantPending t : top) {
      String name = t.tenant() == null ? "ord-" + t.ord() : t.tenant().value();
      rows.add(MultiGauge.Row.of(Tags.of("tenant", name), t.pending()));
    }
    gauge.register(rows, true);
  }
}
