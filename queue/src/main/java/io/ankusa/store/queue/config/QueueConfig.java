package io.ankusa.store.queue.config;

import io.ankusa.store.layout.Fields;
import io.ankusa.store.spi.StoreArgumentException;

/**
 * The queue's settings. Every option, its default and range, is in docs/configuration.md.
 *
 * @param tenantsMax {@code tenants.max}: the most tenants the queue will create (default 1 000 000,
 *     range 1..4 294 967 294); a request that would create one more is refused with {@link
 *     io.ankusa.store.queue.internal.tenant.TenantLimitException}, an existing tenant never is
 * @param archiveEnabled {@code archive.enabled}: ingest also writes an archive obligation {@code
 *     'a'} per hook and counts it in {@code archive_pending}
 * @param shardedAggregate {@code counters.sharded_aggregate}: node-aggregate deltas go to one of 16
 *     shards instead of one key, summed on read — the pre-approved remedy when the aggregate read
 *     is slow under merge load
 */
public record QueueConfig(long tenantsMax, boolean archiveEnabled, boolean shardedAggregate) {
  public static final long DEFAULT_TENANTS_MAX = 1_000_000;

  public QueueConfig {
    if (tenantsMax < 1 || tenantsMax > Fields.MAX_ORDINAL) {
      throw new StoreArgumentException(
          "tenants.max = " + tenantsMax + " is outside 1.." + Fields.MAX_ORDINAL);
    }
  }

  public static QueueConfig defaults() {
    return new QueueConfig(DEFAULT_TENANTS_MAX, false, false);
  }

  public QueueConfig withTenantsMax(long max) {
    return new QueueConfig(max, archiveEnabled, shardedAggregate);
  }

  public QueueConfig withArchive(boolean enabled) {
    return new QueueConfig(tenantsMax, enabled, shardedAggregate);
  }

  public QueueConfig withShardedAggregate(boolean sharded) {
    return new QueueConfig(tenantsMax, archiveEnabled, sharded);
  }
}
