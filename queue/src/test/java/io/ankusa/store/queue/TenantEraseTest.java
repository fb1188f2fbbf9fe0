package io.ankusa.store.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.UUID;
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

      Purge.purgeTenant(queue, acme, EnumSet.allOf(Purge.Kind.class));
      assertThat(TenantErase.erase(queue, acme)).isTrue();
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
}
