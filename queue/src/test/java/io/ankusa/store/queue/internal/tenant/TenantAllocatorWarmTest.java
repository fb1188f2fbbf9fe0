package io.ankusa.store.queue.internal.tenant;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TenantAllocator#warm} reads the stored ordinals in key order into the room the cache has
 * left, never past it: a full cache would otherwise clear itself and drop what it held.
 */
class TenantAllocatorWarmTest {
  private final Path dir = Path.of("/memory", UUID.randomUUID().toString());
  private Store store;

  @BeforeEach
  void open() {
    store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    DeliveryQueue.open(store, QueueConfig.defaults()); // lays out format 3, sentinels included
    Batch b = new Batch();
    List<String> names = List.of("acme", "globex", "hooli", "initech", "umbrella");
    for (int i = 0; i < names.size(); i++) {
      b.put(
          Format3.TENANTS,
          Keys.ordByTenant(TenantId.of(names.get(i))),
          new OrdinalValue(i + 1).encode());
    }
    store.write(b, Durability.SYNC);
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  @Test
  void warmFillsTheRoomLeftInKeyOrderAndNoMore() {
    OrdinalCache cache = new OrdinalCache(3);
    cache.put(TenantId.of("zeta"), 40);
    TenantAllocator allocator = new TenantAllocator(cache, 100);
    assertThat(allocator.warm(store)).as("ordinals read into a cache of 3 holding 1").isEqualTo(2);
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.get(TenantId.of("zeta"))).as("what the cache held stays").isEqualTo(40L);
    assertThat(cache.get(TenantId.of("acme"))).isEqualTo(1L);
    assertThat(cache.get(TenantId.of("globex"))).isEqualTo(2L);
    assertThat(cache.get(TenantId.of("hooli"))).as("past the room").isNull();
  }

  @Test
  void warmReadsEveryStoredOrdinalWhenThereIsRoomAndNoSentinel() {
    OrdinalCache cache = new OrdinalCache();
    assertThat(new TenantAllocator(cache, 100).warm(store)).isEqualTo(5);
    assertThat(cache.size()).as("the five tenants, no sentinel key").isEqualTo(5);
    assertThat(cache.get(TenantId.of("umbrella"))).isEqualTo(5L);
  }
}
