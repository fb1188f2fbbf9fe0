package io.ankusa.store.etcd;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;
import io.ankusa.store.queue.config.QueueConfig;
import net.jqwik.api.PropertyDefaults;

/**
 * The layout properties against etcd with {@code counters.sharded_aggregate} on (the node aggregate
 * in 16 merged shard keys, so concurrent merges meet on 16 counters rather than one), cheap at 3
 * tries each as for RocksDB.
 */
@PropertyDefaults(tries = 3)
class EtcdShardedLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new EtcdFixture();
  }

  @Override
  public QueueConfig queueConfig() {
    return QueueConfig.defaults().withShardedAggregate(true);
  }
}
