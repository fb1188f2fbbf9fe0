package io.ankusa.store.queue.internal.maintenance;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadByTenantKey;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.OrdByTenantKey;
import io.ankusa.store.layout.OrdinalValue;
import io.ankusa.store.layout.TenantByOrdKey;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * An offline fsck of a format-3 store: every invariant of the layout, each breach named. Reads a
 * whole store; run it on a snapshot, or with nothing writing.
 *
 * <p>Checks: the format stamp; both sentinels of every key family; counters equal a fold, per
 * tenant and for the aggregate; no negative counter; every due row has its active marker; every
 * index row has its delivery row and its hook; {@code 'x'} and {@code 'X'} agree; ordinals are
 * dense, unique, and {@code 't'}/{@code 'n'} agree; every ordinal an index row is filed under (due,
 * inflight, dead, {@code 'X'}) is assigned and not erased (active markers are hints and may go
 * stale); every due, inflight and dead row is filed under the ordinal of its hook's tenant.
 */
public final class QueueVerifier {
  private QueueVerifier() {}

  /** One broken invariant. */
  public record Breach(String invariant, String detail) {
    @Override
    public String toString() {
      return invariant + ": " + detail;
    }
  }

  /** Every breach found, in a stable order; empty when the store is clean. */
  public static List<Breach> verify(ReadView view) {
    List<Breach> out = new ArrayList<>();
    int format = FormatStamp.stamp(view);
    if (format != Format3.FORMAT) {
      out.add(
          new Breach(
              "format-stamp", "m:format is " + (format < 0 ? "missing" : format) + ", expected 3"));
      return out;
    }
    for (FamilySentinels s : Keys.sentinels()) {
      String cf = s.family().columnFamily();
      if (view.get(cf, s.lo()) == null) {
        out.add(
            new Breach(
                "sentinel", s.family() + " lo sentinel " + Bytes.hex(s.lo()) + " is missing"));
      }
      if (view.get(cf, s.hi()) == null) {
        out.add(
            new Breach(
                "sentinel", s.family() + " hi sentinel " + Bytes.hex(s.hi()) + " is missing"));
      }
    }
    if (!out.isEmpty()) {
      return out; // a fold without sentinels cannot be trusted
    }
    try {
      checkCounters(view, out);
      Rows rows = checkRows(view, out);
      checkOrdinals(view, out);
      checkRowOrdinals(view, rows, out);
    } catch (StoreException e) {
      out.add(new Breach("readable", e.getMessage()));
    }
    return out;
  }

  private static void checkCounters(ReadView view, List<Breach> out) {
    Map<Long, TenantCounts> stored = Counters.readAll(view);
    Map<Long, TenantCounts> folded = CounterFold.fold(view);
    Set<Long> ords = new TreeSet<>(stored.keySet());
    ords.addAll(folded.keySet());
    for (long ord : ords) {
      TenantCounts s = stored.getOrDefault(ord, TenantCounts.ZERO);
      TenantCounts f = folded.getOrDefault(ord, TenantCounts.ZERO);
      for (CounterField field : CounterField.values()) {
        String who = ord == 0 ? "aggregate (ord 0)" : "tenant ord " + ord;
        if (s.get(field) != f.get(field)) {
          out.add(
              new Breach(
                  "counters-equal-fold",
                  who
                      + " "
                      + field
                      + " counter is "
                      + s.get(field)
                      + " but a fold of the rows gives "
                      + f.get(field)));
        }
        if (s.get(field) < 0) {
          out.add(
              new Breach(
                  "counter-not-negative", who + " " + field + " counter is " + s.get(field)));
        }
      }
    }
  }

  /**
   * A row of the index filed under a tenant ordinal; {@code seq} is its hook's, or -1 for rows that
   * name no hook. Active markers are not among them: a marker is a hint that may outlive its
   * tenant's rows (the dispatcher drops a stale one when it finds nothing due), also after a fenced
   * writer took back the ordinal its group had assigned.
   */
  private record IndexRow(Supplier<String> owner, long ord, long seq) {
    /** The row as a breach names it; made only for a breach. */
    String name() {
      return owner.get();
    }
  }

  /**
   * What {@link #checkRows} read: every index row, and the tenant of each hook they name, decoded
   * from the envelope it read (a seq whose envelope is missing has none).
   */
  private record Rows(List<IndexRow> index, Map<Long, HookTenant> hookTenant) {}

  /**
   * A hook's tenant, or why its envelope could not be decoded: thrown when a check needs that
   * tenant, the point where the verifier reads it.
   */
  private record HookTenant(TenantId tenant, RuntimeException undecodable) {
    TenantId get() {
      if (undecodable != null) {
        throw undecodable;
      }
      return tenant;
    }
  }

  /**
   * Checks the due, inflight and dead rows; returns every index row with the ordinal it is filed
   * under.
   */
  private static Rows checkRows(ReadView view, List<Breach> out) {
    Set<ActiveKey> markers = new HashSet<>(ActiveIndex.all(view));
    List<IndexRow> indexRows = new ArrayList<>();
    List<byte[]> rowKeys = new ArrayList<>();
    List<IndexRow> rowOwners = new ArrayList<>();
    Set<Long> seqs = new TreeSet<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.DUE,
        e -> {
          DueKey k = DueKey.decode(e.key());
          if (!markers.contains(new ActiveKey(ActiveKey.bucketOf(k.at()), k.ord()))) {
            out.add(
                new Breach(
                    "due-row-has-marker",
                    "due row "
                        + k
                        + " has no active marker 'A' "
                        + ActiveKey.bucketOf(k.at())
                        + " "
                        + k.ord()));
          }
          IndexRow row = new IndexRow(() -> "due row " + k, k.ord(), k.seq());
          rowKeys.add(Keys.delivery(k.seq(), k.sink()));
          rowOwners.add(row);
          indexRows.add(row);
          seqs.add(k.seq());
        });
    CounterFold.foldFamily(
        view,
        KeyFamily.INFLIGHT,
        e -> {
          InflightKey k = InflightKey.decode(e.key());
          IndexRow row = new IndexRow(() -> "inflight row " + k, k.ord(), k.seq());
          rowKeys.add(Keys.delivery(k.seq(), k.sink()));
          rowOwners.add(row);
          indexRows.add(row);
          seqs.add(k.seq());
        });
    Map<String, Long> deadByTenant = new HashMap<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.DEAD_BY_TENANT,
        e -> {
          DeadByTenantKey k = DeadByTenantKey.decode(e.key());
          deadByTenant.put(k.at() + "/" + k.seq() + "/" + k.sink(), k.ord());
          indexRows.add(
              new IndexRow(
                  () -> "'X' key " + k.ord() + "/" + k.at() + "/" + k.seq() + "/" + k.sink(),
                  k.ord(),
                  -1));
        });
    CounterFold.foldFamily(
        view,
        KeyFamily.DEAD,
        e -> {
          DeadKey k = DeadKey.decode(e.key());
          long ord = DeadValue.decodeAt(e.key(), e.value()).ord();
          Long indexed = deadByTenant.remove(k.at() + "/" + k.seq() + "/" + k.sink());
          if (indexed == null || indexed != ord) {
            out.add(
                new Breach(
                    "dead-indexed-by-tenant",
                    "dead row "
                        + k
                        + " of ord "
                        + ord
                        + " has "
                        + (indexed == null ? "no 'X' key" : "an 'X' key under ord " + indexed)));
          }
          IndexRow row = new IndexRow(() -> "dead row " + k + " of ord " + ord, ord, k.seq());
          rowKeys.add(Keys.delivery(k.seq(), k.sink()));
          rowOwners.add(row);
          indexRows.add(row);
          seqs.add(k.seq());
        });
    deadByTenant.forEach(
        (k, ord) ->
            out.add(
                new Breach(
                    "dead-indexed-by-tenant", "'X' key " + ord + "/" + k + " has no 'x' row")));
    for (int from = 0; from < rowKeys.size(); from += 1000) {
      List<byte[]> keys = rowKeys.subList(from, Math.min(rowKeys.size(), from + 1000));
      List<byte[]> rows = view.multiGet(Format3.DELIVERIES, keys);
      for (int i = 0; i < rows.size(); i++) {
        if (rows.get(i) == null) {
          out.add(
              new Breach(
                  "index-row-has-delivery-row",
                  rowOwners.get(from + i).name() + " has no delivery row"));
        }
      }
    }
    List<Long> seqList = new ArrayList<>(seqs);
    Map<Long, HookTenant> hookTenant = new HashMap<>();
    for (int from = 0; from < seqList.size(); from += 1000) {
      List<Long> part = seqList.subList(from, Math.min(seqList.size(), from + 1000));
      List<byte[]> keys = new ArrayList<>(part.size());
      part.forEach(s -> keys.add(Keys.hook(s)));
      List<byte[]> hooks = view.multiGet(Format3.HOOKS, keys);
      for (int i = 0; i < hooks.size(); i++) {
        if (hooks.get(i) == null) {
          out.add(
              new Breach(
                  "index-row-has-hook", "rows of seq " + part.get(i) + " have no hook envelope"));
          continue;
        }
        try {
          TenantId tenant =
              TenantId.of(HookEnvelope.decodeAt(keys.get(i), hooks.get(i)).tenantId());
          hookTenant.put(part.get(i), new HookTenant(tenant, null));
        } catch (RuntimeException e) {
          hookTenant.put(part.get(i), new HookTenant(null, e));
        }
      }
    }
    return new Rows(indexRows, hookTenant);
  }

  /**
   * Every ordinal an index row is filed under has a live {@code 't'} row (never assigned and erased
   * ordinals own no rows), and every row naming a hook is filed under the ordinal of the hook's
   * tenant.
   */
  private static void checkRowOrdinals(ReadView view, Rows rows, List<Breach> out) {
    Map<Long, Filing> filings = new HashMap<>();
    for (IndexRow row : rows.index()) {
      Filing filing = filings.computeIfAbsent(row.ord(), o -> Filing.read(view, o));
      if (!filing.assigned()) {
        out.add(
            new Breach(
                "row-ordinal-assigned",
                row.name()
                    + " is filed under ordinal "
                    + row.ord()
                    + ", which was never assigned (no 't' row)"));
        continue;
      }
      if (filing.tenant().isEmpty()) {
        out.add(
            new Breach(
                "row-ordinal-assigned",
                row.name()
                    + " is filed under ordinal "
                    + row.ord()
                    + ", which is erased (its 't' row is a tombstone)"));
        continue;
      }
      if (row.seq() < 0) {
        continue;
      }
      HookTenant read = rows.hookTenant().get(row.seq());
      TenantId ofHook = read == null ? null : read.get();
      TenantId owner = filing.tenant().get();
      if (ofHook != null && !ofHook.equals(owner)) {
        out.add(
            new Breach(
                "row-ordinal-matches-hook",
                row.name()
                    + " is filed under ordinal "
                    + row.ord()
                    + " (tenant '"
                    + owner.value()
                    + "') but hook seq "
                    + row.seq()
                    + " belongs to tenant '"
                    + ofHook.value()
                    + "'"));
      }
    }
  }

  /**
   * What an ordinal's {@code 't'} row says, read once per ordinal: whether it was ever assigned,
   * and its tenant unless erased.
   */
  private record Filing(boolean assigned, Optional<TenantId> tenant) {
    static Filing read(ReadView view, long ord) {
      byte[] key = Keys.tenantByOrd(ord);
      byte[] row = view.get(Format3.TENANTS, key);
      return row == null
          ? new Filing(false, Optional.empty())
          : new Filing(true, Tenants.nameIn(key, row));
    }
  }

  private static void checkOrdinals(ReadView view, List<Breach> out) {
    long next = Tenants.nextOrdinal(view);
    Map<Long, String> byOrd = new TreeMap<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.TENANT_BY_ORD,
        e -> {
          long ord = TenantByOrdKey.decode(e.key()).ord();
          TenantByOrdValue v = TenantByOrdValue.decodeAt(e.key(), e.value());
          byOrd.put(ord, v.isErased() ? null : v.tenant().value());
        });
    Map<String, Long> byName = new TreeMap<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.ORD_BY_TENANT,
        e -> {
          String name = OrdByTenantKey.decode(e.key()).tenantId().value();
          byName.put(name, OrdinalValue.decodeAt(e.key(), e.value()).ord());
        });
    for (long ord = 1; ord < next; ord++) {
      if (!byOrd.containsKey(ord)) {
        out.add(
            new Breach(
                "ordinals-dense", "ordinal " + ord + " < next_ord " + next + " has no 't' row"));
      }
    }
    byOrd.forEach(
        (ord, name) -> {
          if (ord >= next) {
            out.add(
                new Breach(
                    "ordinals-dense",
                    "'t' row for ordinal " + ord + " at or above next_ord " + next));
          }
          if (name != null && !Long.valueOf(ord).equals(byName.get(name))) {
            out.add(
                new Breach(
                    "ordinals-unique",
                    "'t' "
                        + ord
                        + " names '"
                        + name
                        + "' but 'n' '"
                        + name
                        + "' says "
                        + byName.get(name)));
          }
        });
    byName.forEach(
        (name, ord) -> {
          if (!name.equals(byOrd.get(ord))) {
            out.add(
                new Breach(
                    "ordinals-unique",
                    "'n' '"
                        + name
                        + "' says ordinal "
                        + ord
                        + " but 't' "
                        + ord
                        + " names "
                        + byOrd.get(ord)));
          }
        });
  }
}
