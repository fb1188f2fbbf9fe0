package io.ankusa.store.queue.internal.counter;

import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.CounterKey;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The six per-tenant counters: blind merges, never read-modify-write (docs/storage.md, 'Counters').
 *
 * <p>Every transition adds its deltas to a {@link CounterDeltas}; {@link #ops} turns them into one
 * merge per (ord, field) and adds the same deltas to the node aggregate (ord 0), in the batch that
 * moves the rows, so a crash leaves rows and counts together. Counter rows are never deleted by a
 * sweep: a delete racing a merge would drop the merge.
 *
 * <p>With {@link QueueConfig#shardedAggregate()} the aggregate's deltas go to one of {@value
 * Keys#AGGREGATE_SHARDS} shard keys (chosen at random per batch) and reads sum the shards with the
 * unsharded key, so the same gauge code reads either layout.
 */
public final class Counters {
  private static final CounterField[] FIELDS = CounterField.values();
  private final boolean sharded;

  public Counters(QueueConfig config) {
    this.sharded = config.shardedAggregate();
  }

  /** Appends the merges for {@code deltas} to {@code batch}: tenants', then ord 0's. */
  public void ops(CounterDeltas deltas, Batch batch) {
    long[] aggregate = new long[FIELDS.length];
    deltas.forEach(
        (ord, field, delta) -> {
          batch.merge(Format3.COUNTERS, Keys.counter(ord, field), delta);
          if (ord != Fields.NODE_AGGREGATE_ORD) {
            aggregate[field.code() - 1] += delta;
          }
        });
    int shard = sharded ? ThreadLocalRandom.current().nextInt(Keys.AGGREGATE_SHARDS) : -1;
    for (CounterField field : FIELDS) {
      long delta = aggregate[field.code() - 1];
      if (delta != 0) {
        byte[] key =
            sharded
                ? Keys.aggregateShard(field, shard)
                : Keys.counter(Fields.NODE_AGGREGATE_ORD, field);
        batch.merge(Format3.COUNTERS, key, delta);
      }
    }
  }

  /** The counters of tenant {@code ord}: one multiGet of six keys. */
  public TenantCounts read(ReadView view, long ord) {
    List<byte[]> keys = new ArrayList<>(FIELDS.length);
    for (CounterField f : FIELDS) {
      keys.add(Keys.counter(ord, f));
    }
    long[] values = new long[FIELDS.length];
    addValues(view, keys, values, 1);
    return TenantCounts.of(values);
  }

  /** The node aggregate: one multiGet of ord 0's six keys (and the 96 shard keys when sharded). */
  public TenantCounts aggregate(ReadView view) {
    if (!sharded) {
      return read(view, Fields.NODE_AGGREGATE_ORD);
    }
    List<byte[]> keys = new ArrayList<>(FIELDS.length * (Keys.AGGREGATE_SHARDS + 1));
    for (CounterField f : FIELDS) {
      keys.add(Keys.counter(Fields.NODE_AGGREGATE_ORD, f));
      for (int s = 0; s < Keys.AGGREGATE_SHARDS; s++) {
        keys.add(Keys.aggregateShard(f, s));
      }
    }
    long[] values = new long[FIELDS.length];
    addValues(view, keys, values, Keys.AGGREGATE_SHARDS + 1);
    return TenantCounts.of(values);
  }

  /**
   * Every counter row in the store, by ord (shards summed into ord 0): what {@link
   * CounterFold#fold} must equal. A scan of the counters family — for verify and tests.
   */
  public static Map<Long, TenantCounts> readAll(ReadView view) {
    Map<Long, long[]> acc = new TreeMap<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.COUNTERS,
        e -> {
          CounterKey key =
              e.key().length == 6
                  ? CounterKey.decode(Arrays.copyOf(e.key(), 5))
                  : CounterKey.decode(e.key());
          acc.computeIfAbsent(key.ord(), o -> new long[FIELDS.length])[key.field().code() - 1] +=
              Int64Add.decode(Format3.COUNTERS, e.key(), e.value());
        });
    Map<Long, TenantCounts> out = new TreeMap<>();
    acc.forEach((ord, v) -> out.put(ord, TenantCounts.of(v)));
    return out;
  }

  /**
   * Reads {@code keys} (grouped by field, {@code perField} each) and sums them into {@code values}.
   */
  private static void addValues(ReadView view, List<byte[]> keys, long[] values, int perField) {
    List<byte[]> got = view.multiGet(Format3.COUNTERS, keys);
    for (int i = 0; i < got.size(); i++) {
      byte[] v = got.get(i);
      if (v != null) {
        values[i / perField] += Int64Add.decode(Format3.COUNTERS, keys.get(i), v);
      }
    }
  }
}
