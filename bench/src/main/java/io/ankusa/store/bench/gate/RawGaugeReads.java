package io.ankusa.store.bench.gate;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Store;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * The reads of one gauge tick ({@code QueueGauges.measure}) written by hand against RocksJava, on
 * the database of an open rocksdb-backend {@link Store}: what a RocksJava user would write for the
 * same numbers, with nothing of the SPI between. The six aggregate counters (and the shards when
 * the aggregate is sharded) in one {@code multiGetAsList} with no snapshot (the native multiGet
 * reads one implicit state); the first marker up to now's second through an iterator with an upper
 * bound, verified against its tenant's first due row through a second such iterator (skipping at
 * most {@value ActiveIndex#STALE_MARKER_SKIP} stale markers, as the queue does); {@code
 * m:next_ord}.
 *
 * <p>Differences from the SPI tick, each one a thing the SPI must do and a hand-written read may
 * skip: no snapshot around the counter reads, and {@code multiGetAsList} returns null both for an
 * absent key and for a failed read (the backend tells them apart); no store lock, no argument
 * checks, no tracking of open iterators.
 *
 * <p>The database handle is taken from the store's fields by reflection: bench code only, the
 * backend does not hand it out. The store stays the owner; this reads while the store is open. Used
 * by one thread at a time.
 */
final class RawGaugeReads {
  /** One tick's numbers, as {@code QueueGauges.Gauge} has them. */
  record Reading(long[] aggregate, long oldestDueAgeMs, long tenants) {}

  private final RocksDB db;
  private final ColumnFamilyHandle counters;
  private final ColumnFamilyHandle active;
  private final ColumnFamilyHandle index;
  private final ColumnFamilyHandle meta;
  private final List<byte[]> aggregateKeys = new ArrayList<>();
  private final List<ColumnFamilyHandle> aggregateFamilies;
  private final int keysPerField;

  /**
   * @param store an open store of the rocksdb backend holding a queue
   * @param sharded whether the queue's aggregate is sharded ({@code counters.sharded_aggregate})
   */
  RawGaugeReads(Store store, boolean sharded) {
    try {
      Field engineField = store.getClass().getDeclaredField("engine");
      engineField.setAccessible(true);
      Object engine = engineField.get(store);
      Field dbField = engine.getClass().getDeclaredField("db");
      dbField.setAccessible(true);
      this.db = (RocksDB) dbField.get(engine);
      Method handle = engine.getClass().getDeclaredMethod("handle", String.class);
      handle.setAccessible(true);
      this.counters = (ColumnFamilyHandle) handle.invoke(engine, Format3.COUNTERS);
      this.active = (ColumnFamilyHandle) handle.invoke(engine, Keys.activeUpTo(0).columnFamily());
      this.index = (ColumnFamilyHandle) handle.invoke(engine, Keys.dueOf(1).columnFamily());
      this.meta = (ColumnFamilyHandle) handle.invoke(engine, Format3.DEFAULT);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException(
          "the raw gauge reads need an open store of the rocksdb backend, not "
              + store.getClass().getName()
              + ": "
              + e,
          e);
    }
    for (CounterField f : CounterField.values()) {
      aggregateKeys.add(Keys.counter(Fields.NODE_AGGREGATE_ORD, f));
      for (int s = 0; sharded && s < Keys.AGGREGATE_SHARDS; s++) {
        aggregateKeys.add(Keys.aggregateShard(f, s));
      }
    }
    this.keysPerField = sharded ? Keys.AGGREGATE_SHARDS + 1 : 1;
    this.aggregateFamilies = Collections.nCopies(aggregateKeys.size(), counters);
  }

  /** One tick at {@code now}. */
  Reading measure(long now) {
    try {
      long[] aggregate = new long[CounterField.values().length];
      List<byte[]> values = db.multiGetAsList(aggregateFamilies, aggregateKeys);
      for (int i = 0; i < values.size(); i++) {
        byte[] v = values.get(i);
        if (v != null) {
          aggregate[i / keysPerField] += Int64Add.decode(Format3.COUNTERS, aggregateKeys.get(i), v);
        }
      }
      byte[] next = db.get(meta, Keys.nextOrd());
      long tenants =
          (next == null ? NextOrdinalValue.FIRST : NextOrdinalValue.decodeAt(Keys.nextOrd(), next))
                  .next()
              - 1;
      return new Reading(aggregate, oldestDueAgeMs(now), tenants);
    } catch (RocksDBException e) {
      throw new IllegalStateException("raw gauge read failed: " + e.getMessage(), e);
    }
  }

  private long oldestDueAgeMs(long now) throws RocksDBException {
    KeyRange markers = Keys.activeUpTo(ActiveKey.bucketOf(now));
    try (Slice upper = new Slice(markers.hi());
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = db.newIterator(active, options)) {
      int skipped = 0;
      for (it.seek(markers.lo()); it.isValid(); it.next()) {
        ActiveKey marker = ActiveKey.decode(it.key());
        DueKey first = firstDue(marker.ord());
        if (first != null && ActiveKey.bucketOf(first.at()) == marker.bucket()) {
          return Math.max(0, now - first.at());
        }
        if (skipped == ActiveIndex.STALE_MARKER_SKIP) {
          return Math.max(0, now - marker.bucket() * ActiveKey.BUCKET_MILLIS);
        }
        skipped++;
      }
      it.status();
      return 0;
    }
  }

  private DueKey firstDue(long ord) throws RocksDBException {
    KeyRange range = Keys.dueOf(ord);
    try (Slice upper = new Slice(range.hi());
        ReadOptions options = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = db.newIterator(index, options)) {
      it.seek(range.lo());
      if (it.isValid()) {
        return DueKey.decode(it.key());
      }
      it.status();
      return null;
    }
  }
}
