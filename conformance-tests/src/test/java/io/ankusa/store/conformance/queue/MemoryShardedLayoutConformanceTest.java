package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.queue.config.QueueConfig;
import net.jqwik.api.PropertyDefaults;

/**
 * The layout layer against the {@code memory} backend with {@code counters.sharded_aggregate} on:
 * the node aggregate's deltas spread over 16 shard keys, so every counters-equal-a-fold check and
 * the gauges read the sharded layout. A second configuration of the same properties, kept cheap
 * with 15 tries each (the unsharded run has the default tries).
 */
@PropertyDefaults(tries = 15)
class MemoryShardedLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }

  @Override
  public QueueConfig queueConfig() {
    return QueueConfig.defaults().withShardedAggregate(true);
  }
}
