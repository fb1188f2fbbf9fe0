package io.ankusa.store.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class QueueMetricsTest {

  @Test
  void theSeedsMetricsReadTheQueueAfterARefresh() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (Store store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      new DirectIngest(queue).ingest(List.of(
          QueueLifecycleTest.hook("acme", 1_000, 1, 2),
          QueueLifecycleTest.hook("acme", 1_000, 3),
          QueueLifecycleTest.hook("globex", 2_000, 1)));
      QueueMetrics metrics = new QueueMetrics(queue, () -> 11_000);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      metrics.bindTo(registry);
      assertThat(registry.get("ankusa_queue_state").tag("state", "pending").gauge().value()).isZero();

      metrics.refresh();
      Dispatcher.TickReport tick = new Dispatcher(queue, () -> Long.MAX_VALUE, 1, 1 << 20).tick(11_000);
      metrics.recordTick(tick);
      metrics.recordIngest(IngestResult.created(1));
      metrics.recordIngest(IngestResult.duplicate(1));
      metrics.recordIngest(IngestResult.created(2));

      assertThat(registry.get("ankusa_queue_state").tag("state", "pending").gauge().value()).isEqualTo(4);
      assertThat(registry.get("ankusa_queue_state").tag("state", "inflight").gauge().value()).isZero();
      assertThat(registry.get("ankusa_queue_bytes").gauge().value()).isEqualTo(40);
      assertThat(registry.get("ankusa_queue_oldest_due_age_seconds").gauge().value()).isEqualTo(10.0);
      assertThat(registry.get("ankusa_tenants").gauge().value()).isEqualTo(2);
      assertThat(registry.get("ankusa_dispatch_active_tenants").gauge().value()).isEqualTo(2);
      assertThat(registry.get("ankusa_tenant_pending").tag("tenant", "acme").gauge().value()).isEqualTo(3);
      assertThat(registry.get("ankusa_tenant_pending").tag("tenant", "globex").gauge().value()).isEqualTo(1);
      assertThat(registry.get("ankusa_ingest").tag("outcome", "created").counter().count()).isEqualTo(2);
      assertThat(registry.get("ankusa_ingest").tag("outcome", "duplicate").counter().count()).isEqualTo(1);

      metrics.refresh(); // the claimed row is now inflight
      assertThat(registry.get("ankusa_queue_state").tag("state", "inflight").gauge().value()).isEqualTo(1);
      assertThat(registry.get("ankusa_queue_state").tag("state", "pending").gauge().value()).isEqualTo(3);
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }
}
