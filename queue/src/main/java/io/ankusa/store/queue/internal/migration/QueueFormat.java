package io.ankusa.store.queue.internal.migration;

import io.ankusa.store.layout.AggregateShardsValue;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;

/**
 * Opening a queue store: the bootstrap of a new format-3 store, or the migration of an older one
 * ({@link Migrate}). Forward-only: this release reads format 3, refuses a newer one, and sends an
 * older one to the migration. Reading the stamp is {@link FormatStamp}'s, which the migration uses
 * too.
 */
public final class QueueFormat {
  private QueueFormat() {}

  /**
   * {@link #openOrCreate(Store, QueueConfig)} with the default settings (tenants.max 1 000 000 for
   * the migration's overage warning).
   */
  public static void openOrCreate(Store store) {
    openOrCreate(store, QueueConfig.defaults());
  }

  /**
   * Makes sure {@code store} is a format-3 queue store, creating the layout in a new, empty store:
   * every family's sentinels, {@code m:format = 3}, {@code m:next_ord = 1}, {@code m:last_seq = 0},
   * {@code m:aggregate_shards} (0, or 16 with {@code counters.sharded_aggregate}), in one SYNC
   * batch. A format-2 store, or one whose migration was interrupted ({@code m:migrating:3}), is
   * migrated first by {@link Migrate} (logged at INFO with rows/s), so a restored format-2 backup
   * opens as format 3 (property {@code aRestoredFormat2BackupMigratesOnOpen}).
   *
   * <p>REQUIRES: the store was opened with {@link Format3#families()}; nothing else writes to it
   * yet.
   *
   * @throws StoreFormatException if the store is newer than format 3, of a format no migration
   *     leaves, holds data without a stamp, or was created with the other {@code
   *     counters.sharded_aggregate} setting
   */
  public static void openOrCreate(Store store, QueueConfig config) {
    int format = FormatStamp.stamp(store);
    if (format == Format3.FORMAT
        && store.get(Format3.DEFAULT, Keys.migrating(Format3.FORMAT)) == null) {
      requireAggregateLayout(store, config);
      return;
    }
    if (format >= 0) {
      new Migrate(config).run(store); // refuses a newer store: "store format 4 is newer than 3"
      requireAggregateLayout(store, config);
      return;
    }
    if (hasAnyKey(store, Format3.HOOKS) || hasAnyKey(store, Format3.INDEX)) {
      throw new StoreFormatException(
          "store "
              + store.directory()
              + " holds hooks or index rows but no format stamp (m:format): it was not written by ankusa-store;"
              + " refusing to guess its layout");
    }
    store.write(bootstrap(config), Durability.SYNC);
  }

  /**
   * Refuses a queue whose {@code counters.sharded_aggregate} differs from the store's recorded
   * layout: readers sum only the keys their setting names, so a queue reading a sharded store
   * unsharded would miss every delta in the shards.
   *
   * @throws StoreFormatException naming both settings and what to do
   */
  static void requireAggregateLayout(Store store, QueueConfig config) {
    boolean recorded = FormatStamp.shardedAggregate(store);
    if (recorded != config.shardedAggregate()) {
      throw new StoreFormatException(
          "store "
              + store.directory()
              + " was created with counters.sharded_aggregate = "
              + recorded
              + " ("
              + Bytes.hex(Keys.aggregateShards())
              + " = "
              + AggregateShardsValue.of(recorded).shards()
              + " shards), but the queue is configured with counters.sharded_aggregate = "
              + config.shardedAggregate()
              + "; the setting is fixed when a store is created, so that every reader sums the keys every writer"
              + " merged into: open it with counters.sharded_aggregate = "
              + recorded);
    }
  }

  /** The batch that lays out a new format-3 store, recording {@code config}'s aggregate layout. */
  static Batch bootstrap(QueueConfig config) {
    Batch b = new Batch();
    for (FamilySentinels s : Keys.sentinels()) {
      String cf = s.family().columnFamily();
      byte[] value = s.value();
      b.put(cf, s.lo(), value);
      b.put(cf, s.hi(), value);
    }
    b.put(Format3.DEFAULT, Keys.formatStamp(), FormatStampValue.FORMAT_3.encode());
    b.put(Format3.DEFAULT, Keys.nextOrd(), NextOrdinalValue.FIRST.encode());
    b.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(0).encode());
    b.put(
        Format3.DEFAULT,
        Keys.aggregateShards(),
        AggregateShardsValue.of(config.shardedAggregate()).encode());
    return b;
  }

  private static boolean hasAnyKey(ReadView view, String family) {
    try (Scan scan = view.scan(family, new byte[0], null, Direction.FORWARD)) {
      return scan.hasNext();
    }
  }
}
