package io.ankusa.store.queue.internal.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.AggregateShardsValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.queue.internal.runtime.QueueLifecycleTest;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code counters.sharded_aggregate} is recorded when a store is created, and a reopen with the
 * other setting is refused.
 */
class AggregateLayoutTest {
  private static final QueueConfig SHARDED = QueueConfig.defaults().withShardedAggregate(true);

  @Test
  void aShardedStoreIsRecordedAndRefusesAnUnshardedQueue() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (Store store =
        StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, SHARDED);
      new DirectIngest(queue).ingest(QueueLifecycleTest.hook("acme", 1_000, 1, 2));
      assertThat(store.get(Format3.DEFAULT, Keys.aggregateShards()))
          .isEqualTo(AggregateShardsValue.SHARDED.encode());
      assertThat(FormatStamp.shardedAggregate(store)).isTrue();
      assertThat(DeliveryQueue.open(store, SHARDED).counters().aggregate(store).pending())
          .as("a sharded reopen reads the shards")
          .isEqualTo(2);
      assertThatThrownBy(() -> DeliveryQueue.open(store, QueueConfig.defaults()))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("created with counters.sharded_aggregate = true")
          .hasMessageContaining("configured with counters.sharded_aggregate = false")
          .hasMessageContaining("open it with counters.sharded_aggregate = true");
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }

  @Test
  void anUnshardedStoreRefusesAShardedQueueAndAStoreWithoutTheKeyIsUnsharded() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (Store store =
        StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue.open(store, QueueConfig.defaults());
      assertThat(store.get(Format3.DEFAULT, Keys.aggregateShards()))
          .isEqualTo(AggregateShardsValue.UNSHARDED.encode());
      assertThatThrownBy(() -> DeliveryQueue.open(store, SHARDED))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("created with counters.sharded_aggregate = false");

      // A store created before the setting was recorded has no key: it was created unsharded.
      store.write(new Batch().delete(Format3.DEFAULT, Keys.aggregateShards()), Durability.SYNC);
      assertThat(FormatStamp.shardedAggregate(store)).isFalse();
      DeliveryQueue.open(store, QueueConfig.defaults());
      assertThatThrownBy(() -> DeliveryQueue.open(store, SHARDED))
          .isInstanceOf(StoreFormatException.class);
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }
}
