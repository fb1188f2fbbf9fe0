package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.AggregateShardsValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;

/**
 * What a store's layout is, read from its stamps: the format stamp {@code m:format} and the
 * aggregate layout {@code m:aggregate_shards}. Reads only; the bootstrap and the migration that
 * write them are {@code QueueFormat} and {@code Migrate}.
 */
public final class FormatStamp {
  private FormatStamp() {}

  /** The store's format stamp, or -1 when it has none. */
  public static int stamp(ReadView view) {
    byte[] key = Keys.formatStamp();
    byte[] v = view.get(Format3.DEFAULT, key);
    return v == null ? -1 : FormatStampValue.decodeAt(key, v).format();
  }

  /**
   * Whether the store's node aggregate is sharded, as recorded in {@code m:aggregate_shards} when
   * it was created; a store without the key was created unsharded (before the setting was
   * recorded).
   */
  public static boolean shardedAggregate(ReadView view) {
    byte[] key = Keys.aggregateShards();
    byte[] v = view.get(Format3.DEFAULT, key);
    return v != null && AggregateShardsValue.decodeAt(key, v).sharded();
  }

  /** Whether {@code range} holds any key. */
  public static boolean any(ReadView view, KeyRange range) {
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      return scan.hasNext();
    }
  }
}
