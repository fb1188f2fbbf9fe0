package io.ankusa.store.queue.internal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.index.DeadLetters;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One walk through every transition on the memory backend, checking the verifier after each. */
public class QueueLifecycleTest {
  private Path dir;
  private Store store;
  private DeliveryQueue queue;

  @BeforeEach
  void open() {
    dir = Path.of("/memory", UUID.randomUUID().toString());
    store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    queue = DeliveryQueue.open(store, QueueConfig.defaults().withArchive(true));
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  public static HookEnvelope hook(String tenant, long at, int... sinks) {
    List<Integer> s = new ArrayList<>();
    for (int sink : sinks) {
      s.add(sink);
    }
    return new HookEnvelope(
        0, tenant, "src", UUID.randomUUID().toString(), null, at, s, new byte[10]);
  }

  @Test
  void everyTransitionKeepsTheLayoutClean() {
    assertThat(QueueVerifier.verify(store)).isEmpty();
    DirectIngest ingest = new DirectIngest(queue);
    ingest.ingest(
        List.of(hook("acme", 1_000, 1, 2), hook(null, 1_500, 1), hook("globex", 2_000, 3)));
    assertThat(QueueVerifier.verify(store)).isEmpty();
    assertThat(queue.counters().aggregate(store)).isEqualTo(new TenantCounts(4, 0, 0, 0, 40, 3));

    Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1 << 20);
    Dispatcher.TickReport tick = dispatcher.tick(5_000);
    assertThat(tick.rowsClaimed()).isEqualTo(4);
    assertThat(tick.tenantsVisited()).isEqualTo(3);
    assertThat(QueueVerifier.verify(store)).isEmpty();
    assertThat(ActiveIndex.all(store)).isEmpty();

    List<InflightRow> claimed = tick.claimed();
    Transition t = new Transition();
    Deliveries.delivered(t, claimed.get(0));
    Deliveries.retry(t, claimed.get(1), DeliveryRow.first(1_000, 10), 9_000, "503");
    Deliveries.deadLetter(
        t, claimed.get(2), DeliveryRow.first(1_500, 10), 6_000, "src", "h", "410");
    queue.write(t, Durability.SYNC);
    assertThat(QueueVerifier.verify(store)).isEmpty();

    DeadLetters.DeadPage page = DeadLetters.deadPage(store, null, 10, null);
    assertThat(page.rows()).hasSize(1);
    Transition revive = new Transition();
    Deliveries.revive(revive, page.rows().get(0), DeliveryRow.first(1_500, 10), 7_000);
    queue.write(revive, Durability.SYNC);
    assertThat(QueueVerifier.verify(store)).isEmpty();

    InflightRecovery.Result r = InflightRecovery.recoverInflight(queue, 8_000);
    assertThat(r.recovered()).isEqualTo(1);
    assertThat(QueueVerifier.verify(store)).isEmpty();

    assertThat(Purge.purgeTenant(queue, TenantId.of("acme"), EnumSet.allOf(Purge.Kind.class)))
        .isEqualTo(1);
    assertThat(QueueVerifier.verify(store)).isEmpty();
    assertThat(new QueueGauges(queue).measure(10_000).tenants()).isEqualTo(3);
  }

  @Test
  void verifierNamesAMissingMarker() {
    new DirectIngest(queue).ingest(hook("acme", 1_000, 1));
    store.write(
        new io.ankusa.store.spi.Batch()
            .deleteRange(Format3.INDEX, new byte[] {'A', 0}, new byte[] {'A', (byte) 0xFF}),
        Durability.SYNC);
    assertThat(QueueVerifier.verify(store))
        .extracting(QueueVerifier.Breach::invariant)
        .contains("due-row-has-marker");
  }
}
