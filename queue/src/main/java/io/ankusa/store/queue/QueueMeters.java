package io.ankusa.store.queue;

import io.ankusa.store.queue.internal.metrics.QueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The queue's metrics on a Micrometer registry (Micrometer is an optional dependency of the queue:
 * add {@code io.micrometer:micrometer-core} to use this class): the deliveries per state, bytes,
 * archive pending, the oldest due age, the top tenants by pending, the tenants the last tick
 * visited, the writer's fences and durable lag, and the tenants ever seen. The gauges read a
 * snapshot that {@link #refresh()} takes (a few point reads and one scan of the active markers):
 * call it on a schedule, for example every 15 seconds. docs/deployment.md lists every meter.
 */
public final class QueueMeters {
  private final QueueMetrics metrics;

  private QueueMeters(QueueMetrics metrics) {
    this.metrics = metrics;
  }

  /** The meters of {@code queue}, bound to {@code registry} and refreshed once. */
  public static QueueMeters bind(WebhookQueue queue, MeterRegistry registry) {
    QueueMeters meters = new QueueMeters(QueueMetrics.of(queue.runtime()));
    meters.metrics.bindTo(registry);
    meters.refresh();
    return meters;
  }

  /** Reads the queue's state again for the gauges. */
  public void refresh() {
    metrics.refresh();
  }
}
