package io.ankusa.store.bench.migration;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link Store} that times every call it forwards, by what the call is for the 2 → 3 migration:
 * the multiGet of hook envelopes, of delivery rows (the dead rows' sizes), of tenant ordinals, the
 * scans of the old index rows (opening, every {@code hasNext}/{@code next}, closing), other reads,
 * and writes by durability. A scan's time includes the engine's iteration; the caller's work
 * between two {@code next} calls is not counted.
 *
 * <p>Single-threaded, like the migration: the tallies are plain fields. Byte arrays pass through
 * untouched (ownership as in {@link Store}). Not a conformance subject: it only observes.
 */
final class TimedStore extends ForwardingStore {
  /** What a timed call was for. */
  enum Call {
    MULTIGET_HOOKS("multiGet hooks (envelopes)"),
    MULTIGET_DELIVERIES("multiGet deliveries (dead sizes)"),
    MULTIGET_TENANTS("multiGet tenants (ordinals)"),
    MULTIGET_OTHER("multiGet, other families"),
    GET("get"),
    SCAN_INDEX("scan index (old rows)"),
    SCAN_OTHER("scan, other families"),
    COUNTER("counter"),
    WRITE_SYNC("write SYNC (one per step)"),
    WRITE_NO_SYNC("write NO_SYNC"),
    SYNC_WAL("syncWal");

    final String label;

    Call(String label) {
      this.label = label;
    }
  }

  /**
   * Calls, items (keys asked, entries scanned, ops written) and nanoseconds of one kind of call.
   */
  static final class Tally {
    long calls;
    long items;
    long nanos;

    void add(long items, long nanos) {
      this.calls++;
      this.items += items;
      this.nanos += nanos;
    }
  }

  private final Map<Call, Tally> tallies = new EnumMap<>(Call.class);

  /** Ops of the SYNC writes by kind: "merge counters", "put index 'D'", "delete index 'd'", ... */
  private final Map<String, Long> syncOps = new TreeMap<>();

  private final boolean syncAsNoSync;

  /** A timing store that forwards every call unchanged. */
  TimedStore(Store delegate) {
    this(delegate, false);
  }

  /**
   * @param syncAsNoSync when set, a {@code SYNC} write is forwarded as {@code NO_SYNC} (and still
   *     tallied as {@link Call#WRITE_SYNC}): a diagnostic of what the per-step fsync costs. A run
   *     made so is not a valid migration (its steps are not durable) and is reported apart.
   */
  TimedStore(Store delegate, boolean syncAsNoSync) {
    super(delegate);
    this.syncAsNoSync = syncAsNoSync;
    for (Call c : Call.values()) {
      tallies.put(c, new Tally());
    }
  }

  /** The tallies so far, live (do not change them). */
  Map<Call, Tally> tallies() {
    return tallies;
  }

  /**
   * The ops of every {@code SYNC} write so far, by kind, family and (in {@code index}) the key's
   * prefix letter, e.g. {@code "put index 'D'"}, {@code "merge counters"}: what the steps' batches
   * are made of.
   */
  Map<String, Long> syncOps() {
    return syncOps;
  }

  /** Total nanoseconds spent inside the delegate. */
  long totalNanos() {
    return tallies.values().stream().mapToLong(t -> t.nanos).sum();
  }

  @Override
  public byte[] get(String family, byte[] key) {
    long t0 = System.nanoTime();
    try {
      return delegate.get(family, key);
    } finally {
      tallies.get(Call.GET).add(1, System.nanoTime() - t0);
    }
  }

  @Override
  public List<byte[]> multiGet(String family, List<byte[]> keys) {
    long t0 = System.nanoTime();
    try {
      return delegate.multiGet(family, keys);
    } finally {
      Call c =
          Format3.HOOKS.equals(family)
              ? Call.MULTIGET_HOOKS
              : Format3.DELIVERIES.equals(family)
                  ? Call.MULTIGET_DELIVERIES
                  : Format3.TENANTS.equals(family) ? Call.MULTIGET_TENANTS : Call.MULTIGET_OTHER;
      tallies.get(c).add(keys.size(), System.nanoTime() - t0);
    }
  }

  @Override
  public long counter(String family, byte[] key) {
    long t0 = System.nanoTime();
    try {
      return delegate.counter(family, key);
    } finally {
      tallies.get(Call.COUNTER).add(1, System.nanoTime() - t0);
    }
  }

  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    Tally tally = tallies.get(Format3.INDEX.equals(family) ? Call.SCAN_INDEX : Call.SCAN_OTHER);
    long t0 = System.nanoTime();
    Scan scan = delegate.scan(family, lo, hi, direction);
    tally.add(0, System.nanoTime() - t0);
    return new TimedScan(scan, tally);
  }

  @Override
  public void write(Batch batch, Durability durability) {
    if (durability == Durability.SYNC) {
      for (Op op : batch.ops()) {
        syncOps.merge(kindOf(op), 1L, Long::sum);
      }
    }
    long t0 = System.nanoTime();
    try {
      delegate.write(batch, syncAsNoSync ? Durability.NO_SYNC : durability);
    } finally {
      tallies
          .get(durability == Durability.SYNC ? Call.WRITE_SYNC : Call.WRITE_NO_SYNC)
          .add(batch.size(), System.nanoTime() - t0);
    }
  }

  @Override
  public void syncWal() {
    long t0 = System.nanoTime();
    try {
      delegate.syncWal();
    } finally {
      tallies.get(Call.SYNC_WAL).add(0, System.nanoTime() - t0);
    }
  }

  /** An op's kind as it reads in a tally's name, and its key (the lower bound of a range). */
  private record KindAndKey(String kind, byte[] key) {}

  private static final Op.Visitor<KindAndKey> KIND_AND_KEY =
      new Op.Visitor<>() {
        @Override
        public KindAndKey put(Op.Put p) {
          return new KindAndKey("put", p.key());
        }

        @Override
        public KindAndKey delete(Op.Delete d) {
          return new KindAndKey("delete", d.key());
        }

        @Override
        public KindAndKey deleteRange(Op.DeleteRange r) {
          return new KindAndKey("deleteRange", r.lo());
        }

        @Override
        public KindAndKey merge(Op.Merge m) {
          return new KindAndKey("merge", m.key());
        }
      };

  private static String kindOf(Op op) {
    KindAndKey kk = op.accept(KIND_AND_KEY);
    String kind = kk.kind();
    byte[] key = kk.key();
    String family = op.family();
    if (Format3.INDEX.equals(family) && key.length > 0 && key[0] >= 0x20 && key[0] < 0x7f) {
      return kind + " " + family + " '" + (char) key[0] + "'";
    }
    return kind + " " + family;
  }

  /** A scan whose every call adds to {@code tally}'s time; entries returned count as items. */
  private static final class TimedScan implements Scan {
    private final Scan scan;
    private final Tally tally;

    TimedScan(Scan scan, Tally tally) {
      this.scan = scan;
      this.tally = tally;
    }

    @Override
    public boolean hasNext() {
      long t0 = System.nanoTime();
      try {
        return scan.hasNext();
      } finally {
        tally.nanos += System.nanoTime() - t0;
      }
    }

    @Override
    public Entry next() {
      long t0 = System.nanoTime();
      try {
        return scan.next();
      } finally {
        tally.nanos += System.nanoTime() - t0;
        tally.items++;
      }
    }

    @Override
    public void close() {
      long t0 = System.nanoTime();
      try {
        scan.close();
      } finally {
        tally.nanos += System.nanoTime() - t0;
      }
    }
  }

  /** The wrapped store, for calls that must not be counted. */
  Store untimed() {
    return delegate;
  }
}
