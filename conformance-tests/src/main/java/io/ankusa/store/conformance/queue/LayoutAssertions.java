package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the layout layer's cases share: the counter-fold and marker checks (the transition layer
 * uses them too), queue drivers' helpers, the read-scope assertions.
 */
public final class LayoutAssertions {
  private LayoutAssertions() {}

  /** Longest wait for the threads of the concurrency case; a hang fails the case, not the build. */
  static final long THREAD_WAIT_SECONDS = 120;

  static final long START = QueueDriver.START_MS;

  static final long DAY_MS = 86_400_000L;

  /**
   * Every tenant's counters and the aggregate equal a fold of the rows (a counter row that is
   * missing counts as zero), else fails naming {@code when} and every difference.
   */
  static void assertCountersEqualFold(ReadView view, String when) {
    Map<Long, TenantCounts> stored = Counters.readAll(view);
    Map<Long, TenantCounts> folded = CounterFold.fold(view);
    Set<Long> ords = new TreeSet<>(stored.keySet());
    ords.addAll(folded.keySet());
    List<String> differences = new ArrayList<>();
    for (long ord : ords) {
      TenantCounts s = stored.getOrDefault(ord, TenantCounts.ZERO);
      TenantCounts f = folded.getOrDefault(ord, TenantCounts.ZERO);
      if (!s.equals(f)) {
        differences.add(
            (ord == 0 ? "aggregate (ord 0)" : "tenant ord " + ord)
                + ": counters "
                + s
                + " but the fold gives "
                + f);
      }
    }
    assertThat(differences).as("%s: counters equal a fold of the rows", when).isEmpty();
  }

  /**
   * Every {@code 'D'} row has its {@code 'A' (at/1000) ord} marker, else fails naming {@code when}
   * and the rows.
   */
  static void assertEveryDueRowHasAMarker(ReadView view, String when) {
    Set<ActiveKey> markers = new HashSet<>(ActiveIndex.all(view));
    List<String> missing = new ArrayList<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.DUE,
        e -> {
          DueKey k = DueKey.decode(e.key());
          ActiveKey needed = new ActiveKey(ActiveKey.bucketOf(k.at()), k.ord());
          if (!markers.contains(needed)) {
            missing.add("due row " + k + " has no marker " + needed);
          }
        });
    assertThat(missing).as("%s: every due row has its active marker", when).isEmpty();
  }

  static String describe(int i, List<QueueAction> actions, String did) {
    return "after action "
        + i
        + " (counting from 0) of "
        + actions.size()
        + ", "
        + actions.get(i)
        + " ("
        + did
        + ")";
  }

  static HookEnvelope hook(QueueDriver d, String tenant) {
    return d.newHook(tenant, START, 1, 4);
  }

  static long ordOf(ReadView view, String tenant) {
    OptionalLong ord = Tenants.ord(view, TenantId.of(tenant));
    assertThat(ord).as("ordinal of tenant %s", TenantId.of(tenant).value()).isPresent();
    return ord.getAsLong();
  }

  /** Claims every due row of {@code ord} directly (no cleanup), so its markers go stale. */
  static void claimAllOf(QueueDriver d, long ord) {
    Transition t = new Transition();
    DueIndex.pendingForTenant(d.store(), ord, 10_000).forEach(r -> Deliveries.claim(t, r));
    d.write(t);
  }

  static List<InflightRow> inflightOf(ReadView view, long ord) {
    KeyRange range = Keys.inflightOf(ord);
    List<InflightRow> out = new ArrayList<>();
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        out.add(
            new InflightRow(
                InflightKey.decode(e.key()), InflightValue.decodeAt(e.key(), e.value())));
      }
    }
    return out;
  }
}
