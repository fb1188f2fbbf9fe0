package io.ankusa.store.queue.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.TransitionGuard;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.maintenance.QueueVerifier;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.queue.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A round of a tick writes the claims of all the tenants it visited as one batch, holding their
 * stripes until then; when a later tenant's stripe is busy it writes what it has and lets go before
 * it waits, so it never waits while holding a stripe.
 */
class DispatcherClaimBatchTest {
  private Path dir;
  private Store store;
  private final AtomicInteger claimWrites = new AtomicInteger();
  private DeliveryQueue queue;

  @BeforeEach
  void open() {
    dir = Path.of("/memory", UUID.randomUUID().toString());
    Store memory = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    store = new ForwardingStore(memory) {
      @Override
      public void write(Batch batch, Durability durability) {
        if (batch.ops().stream().anyMatch(op -> op instanceof Op.Put p && op.family().equals(Format3.INDEX) && p.key()[0] == 'F')) {
          claimWrites.incrementAndGet();
        }
        delegate.write(batch, durability);
      }
    };
    queue = DeliveryQueue.open(store, QueueConfig.defaults());
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  /** Two hooks each of acme (ord 1) and bolt (ord 2), one sink, 10 bytes. */
  private void twoTenants() {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (String tenant : List.of("acme", "bolt")) {
      for (int i = 0; i < 2; i++) {
        hooks.add(new HookEnvelope(0, tenant, "src", tenant + "-" + i, null, 1_000 + i, List.of(1), new byte[10]));
      }
    }
    new DirectIngest(queue).ingest(hooks);
    claimWrites.set(0);
  }

  private long ord(String tenant) {
    return Tenants.ord(store, TenantId.of(tenant)).getAsLong();
  }

  @Test
  void oneRoundOfTwoTenantsIsOneClaimBatch() {
    twoTenants();
    Dispatcher.TickReport report = new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1L << 20).tick(5_000);

    assertThat(report.rowsClaimed()).isEqualTo(4);
    assertThat(claimWrites.get()).as("batches that wrote inflight rows").isEqualTo(1);
    assertThat(queue.counters().read(store, ord("acme")).inflight()).isEqualTo(2);
    assertThat(queue.counters().read(store, ord("bolt")).inflight()).isEqualTo(2);
    assertThat(QueueVerifier.verify(store)).isEmpty();
  }

  /**
   * bolt's stripe is held by another transition while the tick visits it after acme: the tick writes
   * acme's claims and lets acme's stripe go before it waits (so it holds nothing while it waits); once
   * bolt's stripe is free it claims bolt's rows too.
   */
  @Test
  void aBusyStripeMakesTheRoundWriteWhatItHasAndLetGoBeforeWaiting() throws Exception {
    twoTenants();
    long acme = ord("acme");
    long bolt = ord("bolt");
    assertThat(acme).isLessThan(bolt); // the first round visits acme, then bolt
    AtomicReference<Dispatcher.TickReport> report = new AtomicReference<>();
    Thread tick;
    try (TransitionGuard.Held boltHeld = queue.guard().lockTenant(bolt)) {
      tick = new Thread(() -> report.set(new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1L << 20).tick(5_000)),
          "tick");
      tick.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (tick.getState() != Thread.State.WAITING && tick.isAlive() && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(tick.getState()).as("the tick waits for bolt's stripe").isEqualTo(Thread.State.WAITING);
      assertThat(queue.counters().read(store, acme).inflight()).as("acme's claims, written before the wait").isEqualTo(2);
      AtomicReference<Boolean> acmeFree = new AtomicReference<>();
      Thread probe = new Thread(() -> {
        TransitionGuard.Held h = queue.guard().tryLockTenant(acme);
        acmeFree.set(h != null);
        if (h != null) {
          h.close();
        }
      });
      probe.start();
      probe.join();
      assertThat(acmeFree.get()).as("acme's stripe is let go while the tick waits").isTrue();
    }
    tick.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(report.get().rowsClaimed()).isEqualTo(4);
    assertThat(queue.counters().read(store, bolt).inflight()).isEqualTo(2);
    assertThat(claimWrites.get()).as("batches that wrote inflight rows").isEqualTo(2);
    assertThat(QueueVerifier.verify(store)).isEmpty();
  }
}
