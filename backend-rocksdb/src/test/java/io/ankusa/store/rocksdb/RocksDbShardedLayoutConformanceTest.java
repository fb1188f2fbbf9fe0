package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;
import io.ankusa.store.queue.config.QueueConfig;
import net.jqwik.api.PropertyDefaults;

/**
 * The layout properties against RocksDB with {@code counters.sharded_aggregate} on (the node
 * aggregate in 16 merged shard keys). A second configuration of the same properties, kept cheap
 * with 3 tries each; {@link RocksDbLayoutConformanceTest} runs the default configuration at full
 * tries.
 */
@PropertyDefaults(tries = 3)
class RocksDbShardedLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new RocksDbFixture();
  }

  @Override
  public QueueConfig queueConfig() {
    return QueueConfig.defaults().withShardedAggregate(true);
  }
}
