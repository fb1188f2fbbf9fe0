package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.queue.LayoutConformance;
import io.ankusa.store.queue.config.QueueConfig;
import net.jqwik.api.PropertyDefaults;

/**
 * The layout properties against postgres with {@code counters.sharded_aggregate} on (the node
 * aggregate in 16 merged shard keys, so concurrent upserts meet on 16 rows rather than one), cheap
 * at 3 tries each as for RocksDB.
 */
@PropertyDefaults(tries = 3)
class PostgresShardedLayoutConformanceTest extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new PostgresFixture();
  }

  @Override
  public QueueConfig queueConfig() {
    return QueueConfig.defaults().withShardedAggregate(true);
  }
}
