package io.ankusa.store.queue.internal.counter;

import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The slow truth the counters must always equal: every counter recomputed by scanning the index
 * families ({@code 'D' 'F' 'x' 'a'}) and the delivery rows the dead index points to. Costs a scan
 * of every queued row — for verify, tests and benches, never for a gauge.
 *
 * <p>Each family is folded between its sentinels: the scan must meet the lo sentinel first and the
 * hi sentinel last, so a scan that ended early (corruption read as a clean end) is reported as
 * {@link StoreCorruptionException} instead of producing low counts.
 */
public final class CounterFold {
  private CounterFold() {}

  /**
   * Per-tenant counters as a fold of {@code view}, with ord 0 holding the sum over tenants. Read
   * from a snapshot for a consistent answer while writers run.
   */
  public static Map<Long, TenantCounts> fold(ReadView view) {
    Map<Long, long[]> acc = new TreeMap<>();
    foldFamily(
        view,
        KeyFamily.DUE,
        e -> {
          DueKey k = DueKey.decode(e.key());
          DueValue v = DueValue.decodeAt(e.key(), e.value());
          add(acc, k.ord(), v.kind().counter(), 1);
          add(acc, k.ord(), CounterField.BYTES, v.size());
        });
    foldFamily(
        view,
        KeyFamily.INFLIGHT,
        e -> {
          InflightKey k = InflightKey.decode(e.key());
          add(acc, k.ord(), CounterField.INFLIGHT, 1);
          add(acc, k.ord(), CounterField.BYTES, InflightValue.decodeAt(e.key(), e.value()).size());
        });
    List<long[]> dead = new ArrayList<>();
    List<byte[]> deadRowKeys = new ArrayList<>();
    foldFamily(
        view,
        KeyFamily.DEAD,
        e -> {
          DeadKey k = DeadKey.decode(e.key());
          long ord = DeadValue.decodeAt(e.key(), e.value()).ord();
          add(acc, ord, CounterField.DEAD, 1);
          dead.add(new long[] {ord});
          deadRowKeys.add(Keys.delivery(k.seq(), k.sink()));
        });
    for (int from = 0; from < deadRowKeys.size(); from += 1000) {
      List<byte[]> keys = deadRowKeys.subList(from, Math.min(deadRowKeys.size(), from + 1000));
      List<byte[]> rows = view.multiGet(Format3.DELIVERIES, keys);
      for (int i = 0; i < keys.size(); i++) {
        byte[] row = rows.get(i);
        if (row != null) {
          add(
              acc,
              dead.get(from + i)[0],
              CounterField.BYTES,
              DeliveryRow.decodeAt(keys.get(i), row).size());
        }
      }
    }
    foldFamily(
        view,
        KeyFamily.ARCHIVE,
        e ->
            add(
                acc,
                ArchiveValue.decodeAt(e.key(), e.value()).ord(),
                CounterField.ARCHIVE_PENDING,
                1));
    Map<Long, TenantCounts> out = new TreeMap<>();
    long[] total = new long[CounterField.values().length];
    acc.forEach(
        (ord, values) -> {
          out.put(ord, TenantCounts.of(values));
          for (int i = 0; i < total.length; i++) {
            total[i] += values[i];
          }
        });
    out.put(Fields.NODE_AGGREGATE_ORD, TenantCounts.of(total));
    return out;
  }

  /**
   * Calls {@code each} for every real key of {@code family}, in order, requiring both sentinels.
   *
   * @throws StoreCorruptionException if a sentinel is missing: the scan ended early or the family
   *     was damaged
   */
  public static void foldFamily(ReadView view, KeyFamily family, Consumer<Entry> each) {
    FamilySentinels s = Keys.family(family);
    KeyRange range = s.foldRange();
    boolean sawLo = false;
    byte[] last = null;
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        if (!sawLo) {
          if (!s.isLo(e.key())) {
            throw missing(family, "lo", s.lo());
          }
          sawLo = true;
          last = e.key();
          continue;
        }
        last = e.key();
        if (!s.isHi(e.key())) {
          each.accept(e);
        }
      }
    }
    if (!sawLo) {
      throw missing(family, "lo", s.lo());
    }
    if (!s.isHi(last)) {
      throw missing(family, "hi", s.hi());
    }
  }

  private static StoreCorruptionException missing(KeyFamily family, String which, byte[] key) {
    return new StoreCorruptionException(
        "fold of key family "
            + family
            + " (column family '"
            + family.columnFamily()
            + "') did not see its "
            + which
            + " sentinel "
            + Bytes.hex(key)
            + ": the scan ended early or the family is damaged; run ankusa-store verify and restore from a backup");
  }

  private static void add(Map<Long, long[]> acc, long ord, CounterField field, long delta) {
    acc.computeIfAbsent(ord, o -> new long[CounterField.values().length])[field.code() - 1] +=
        delta;
  }
}
