package io.ankusa.store.queue.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.counter.TenantCounts;
import io.ankusa.store.queue.dispatch.TenantLimits;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.ingest.IngestResult;
import io.ankusa.store.queue.ingest.QueueWriter;
import io.ankusa.store.queue.ingest.WriterFixture;
import io.ankusa.store.queue.runtime.QueueLifecycleTest;
import io.ankusa.store.queue.tenant.Tenants;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TenantEraseTest {

  @Test
  void anErasedTenantLeavesATombstoneAndComesBackUnderANewOrdinal() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (Store store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      DirectIngest ingest = new DirectIngest(queue);
      ingest.ingest(QueueLifecycleTest.hook("acme", 1_000, 1));
      ingest.ingest(QueueLifecycleTest.hook("globex", 1_000, 1));
      TenantId acme = TenantId.of("acme");
      long ord = Tenants.ord(store, acme).getAsLong();

      assertThatThrownBy(() -> TenantErase.erase(queue, acme))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("still has 1 rows")
          .hasMessageContaining("purge");

      TenantLimits.set(queue, acme, new TenantLimitsValue(4, 10, 0));
      Purge.purgeTenant(queue, acme, EnumSet.allOf(Purge.Kind.class));
      assertThat(TenantErase.erase(queue, acme)).isTrue();
      assertThat(store.get(Format3.DEFAULT, Keys.tenantLimits(ord))).as("acme's dispatch limits after the erase").isNull();
      assertThatThrownBy(() -> TenantLimits.set(queue, acme, TenantLimitsValue.DEFAULTS))
          .as("limits of a tenant without an ordinal").isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("has no ordinal");
      assertThat(Tenants.ord(store, acme)).isEmpty();
      assertThat(Tenants.name(store, ord)).isEmpty();
      assertThat(queue.counters().read(store, ord)).isEqualTo(TenantCounts.ZERO);
      assertThat(QueueVerifier.verify(store)).isEmpty();
      assertThat(TenantErase.erase(queue, acme)).isFalse();

      new DirectIngest(queue).ingest(QueueLifecycleTest.hook("acme", 2_000, 1));
      long again = Tenants.ord(store, acme).getAsLong();
      assertThat(again).as("an erased ordinal is never reused").isNotEqualTo(ord).isEqualTo(3);
      assertThat(QueueVerifier.verify(store)).isEmpty();
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }

  /**
   * An erase removes all the tenant's dedupe state ('u' and 'e' keys): when the tenant comes back
   * within the TTL with the same idempotency key, the erased tenant's old expiry key cannot sweep the
   * new dedupe key, so a retry is still answered DUPLICATE.
   */
  @Test
  void aReturningTenantDedupesWithinTheTtlAfterAnErase() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    long ttl = 60_000;
    AtomicLong clock = new AtomicLong(1_000_000);
    WriterConfig config = WriterConfig.defaults().withDedupeTtlMs(ttl);
    TenantId acme = TenantId.of("acme");
    try (Store store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long oldExpiry = clock.get() + ttl;
      try (QueueWriter writer = QueueWriter.start(queue, config, clock::get)) {
        assertThat(WriterFixture.await(writer.ingest(WriterFixture.request("acme", "k1", 1))).outcome())
            .isEqualTo(IngestResult.Outcome.CREATED);
      }
      Purge.purgeTenant(queue, acme, EnumSet.allOf(Purge.Kind.class));
      assertThat(TenantErase.erase(queue, acme)).isTrue();
      assertThat(keysOf(store, Keys.dedupeOf(acme))).as("acme's 'u' keys after the erase").isZero();
      assertThat(keysOf(store, Keys.expiryUpTo(Long.MAX_VALUE))).as("'e' keys after the erase").isZero();

      clock.addAndGet(ttl / 2);
      try (QueueWriter writer = QueueWriter.start(queue, config, clock::get)) {
        IngestResult back = WriterFixture.await(writer.ingest(WriterFixture.request("acme", "k1", 1)));
        assertThat(back.outcome()).as("acme back with k1 after its erase").isEqualTo(IngestResult.Outcome.CREATED);
        assertThat(DedupeExpiry.sweep(queue, oldExpiry, 1000)).as("keys expired at the erased tenant's old expiry").isZero();
        assertThat(WriterFixture.await(writer.ingest(WriterFixture.request("acme", "k1", 1))))
            .as("a retry of k1 within the TTL of its new key").isEqualTo(IngestResult.duplicate(back.seq()));
      }
      assertThat(QueueVerifier.verify(store)).isEmpty();
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }

  private static int keysOf(ReadView view, KeyRange range) {
    int n = 0;
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        scan.next();
        n++;
      }
    }
    return n;
  }
}
