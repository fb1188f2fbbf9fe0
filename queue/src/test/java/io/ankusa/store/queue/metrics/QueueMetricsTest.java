package io.ankusa.store.queue.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.ingest.IngestResult;
import io.ankusa.store.queue.ingest.QueueWriter;
import io.ankusa.store.queue.ingest.WriterFixture;
import io.ankusa.store.queue.record.DeliveryRow;
import io.ankusa.store.queue.record.InflightRow;
import io.ankusa.store.queue.runtime.QueueLifecycleTest;
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
      assertThat(registry.get("ankusa_dispatch_active_tenants").gauge().value())
          .as("the tick (one row at most) visited acme only, though globex has a marker too").isEqualTo(1);
      assertThat(registry.get("ankusa_tenant_pending").tag("tenant", "acme").gauge().value()).isEqualTo(3);
      assertThat(registry.get("ankusa_tenant_pending").tag("tenant", "globex").gauge().value()).isEqualTo(1);
      assertThat(registry.get("ankusa_ingest").tag("outcome", "created").counter().count()).isEqualTo(2);
      assertThat(registry.get("ankusa_ingest").tag("outcome", "duplicate").counter().count()).isEqualTo(1);

      metrics.refresh(); // the claimed row is now inflight
      assertThat(registry.get("ankusa_queue_state").tag("state", "inflight").gauge().value()).isEqualTo(1);
      assertThat(registry.get("ankusa_queue_state").tag("state", "pending").gauge().value()).isEqualTo(3);
      assertThat(registry.find("ankusa_writer_fences").meter()).as("no writer, no writer metrics").isNull();
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }

  @Test
  void tenantPendingCountsPendingRowsOfTenantsDueNowOnly() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (Store store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      new DirectIngest(queue).ingest(List.of(
          QueueLifecycleTest.hook("acme", 1_000, 1, 2, 3),
          QueueLifecycleTest.hook("globex", 2_000, 1),
          QueueLifecycleTest.hook("later", 50_000, 1, 2)));
      // one of acme's rows is retried at 30 s: scheduled, not pending, in a future bucket
      InflightRow claimed = new Dispatcher(queue, () -> Long.MAX_VALUE, 1, 1 << 20).tick(11_000).claimed().get(0);
      Transition retry = new Transition();
      Deliveries.retry(retry, claimed, DeliveryRow.decode(store.get(Format3.DELIVERIES,
          io.ankusa.store.layout.Keys.delivery(claimed.key().seq(), claimed.key().sink()))), 30_000, "503");
      queue.write(retry, io.ankusa.store.spi.Durability.SYNC);
      QueueMetrics metrics = new QueueMetrics(queue, () -> 11_000);
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      metrics.bindTo(registry);
      metrics.refresh();
      assertThat(registry.get("ankusa_tenant_pending").tag("tenant", "acme").gauge().value())
          .as("acme: 2 pending, its scheduled row not counted").isEqualTo(2);
      assertThat(registry.get("ankusa_tenant_pending").tag("tenant", "globex").gauge().value()).isEqualTo(1);
      assertThat(registry.find("ankusa_tenant_pending").tag("tenant", "later").gauge())
          .as("a tenant whose rows are due at 50 s is not due at 11 s: its future bucket is not read").isNull();
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }

  @Test
  void theWritersFencesAndDurableLagAreExported() throws Exception {
    try (WriterFixture f = new WriterFixture(QueueConfig.defaults());
        QueueWriter writer = QueueWriter.start(f.queue, WriterConfig.defaults())) {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      new QueueMetrics(writer, f.queue, () -> 11_000).bindTo(registry);
      assertThat(registry.get("ankusa_writer_fences").functionCounter().count()).isZero();
      assertThat(registry.get("ankusa_writer_durable_lag").gauge().value()).isZero();

      f.store.holdSyncs();
      var held = writer.ingest(WriterFixture.request("acme", null, 1));
      try {
        f.store.awaitHeldSync();
        WriterFixture.eventually("the hook applied", () -> writer.appliedSeq() == 1);
        assertThat(registry.get("ankusa_writer_durable_lag").gauge().value())
            .as("one hook applied, its sync held").isEqualTo(1);
        f.store.failNextSync();
      } finally {
        f.store.openSyncGate();
      }
      assertThat(WriterFixture.await(held).outcome()).isEqualTo(IngestResult.Outcome.UNAVAILABLE);
      // the syncer answers the held request before the writer takes the fence report: wait for the count
      WriterFixture.eventually("the writer counted its fence",
          () -> registry.get("ankusa_writer_fences").functionCounter().count() == 1);
      WriterFixture.eventually("the writer resumed after its fence", () -> !writer.isFenced());
      assertThat(registry.get("ankusa_writer_fences").functionCounter().count()).isEqualTo(1);
      WriterFixture.eventually("the lag is 0 again once the syncer took the resume",
          () -> registry.get("ankusa_writer_durable_lag").gauge().value() == 0);
    }
  }
}
