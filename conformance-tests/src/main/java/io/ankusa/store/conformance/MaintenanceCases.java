package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.record.DeliveryRow;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.queue.maintenance.InflightRecovery;
import io.ankusa.store.queue.record.InflightRow;
import io.ankusa.store.queue.maintenance.Purge;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.maintenance.QueueVerifier;
import io.ankusa.store.queue.maintenance.Reclaim;
import io.ankusa.store.queue.counter.TenantCounts;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Example;

/**
 * Maintenance: reclaim progresses past hooks still owed at the head, and recovery drops an inflight
 * row whose hook is gone.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface MaintenanceCases extends LayoutCase {
  /** Markers a {@link #reclaimProgressesPastOwedHooksAtTheHead} pass visits. */
  int RECLAIM_LIMIT = 20;

  /**
   * Reclaim always progresses: the first {@code 10 × limit} cleared hooks each still owe a sink that
   * was dead-lettered (so their {@code 'c'} markers sit at the head of the range for good), and the
   * {@code 5 × limit} newer ones owe nothing. Within {@code ceil(15 × limit / limit) = 15} passes of
   * {@code limit} markers every newer hook is deleted and every owing one kept; once the DLQ is purged
   * the owing ones go too, within one more lap.
   */
  @Example
  default void reclaimProgressesPastOwedHooksAtTheHead() {
    int owing = 10 * RECLAIM_LIMIT;
    int free = 5 * RECLAIM_LIMIT;
    int bound = (owing + free + RECLAIM_LIMIT - 1) / RECLAIM_LIMIT;
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), QueueConfig.defaults());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < owing; i++) {
        hooks.add(d.newHook("acme", START + i, 2, 4));
      }
      for (int i = 0; i < free; i++) {
        hooks.add(d.newHook("acme", START + owing + i, 1, 4));
      }
      d.ingest().ingest(hooks);
      List<InflightRow> claimed = new Dispatcher(d.queue(), () -> Long.MAX_VALUE, owing * 2 + free, Long.MAX_VALUE)
          .tick(START + 60_000).claimed();
      assertThat(claimed).hasSize(owing * 2 + free);
      Transition settle = new Transition();
      for (InflightRow row : claimed) {
        DeliveryRow state = d.deliveryRow(row.key().seq(), row.key().sink());
        if (row.key().sink() == 2) {
          Deliveries.deadLetter(settle, row, state, START + 60_000, "src", "h", "410 gone");
        } else {
          Deliveries.delivered(settle, row);
        }
      }
      d.write(settle);
      long firstFree = owing + 1;

      int passes = 0;
      while (passes < bound && storedHookSeqs(t.store()).stream().anyMatch(seq -> seq >= firstFree)) {
        Reclaim.run(d.queue(), RECLAIM_LIMIT);
        passes++;
      }
      Set<Long> left = storedHookSeqs(t.store());
      assertThat(left).as("after %d passes of %d markers (bound %d), %d owing hooks at the head: the newer hooks"
          + " nothing owes are all reclaimed, the owing ones all kept", passes, RECLAIM_LIMIT, bound, owing)
          .hasSize(owing).allMatch(seq -> seq < firstFree);

      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.of(Purge.Kind.DEAD))).isEqualTo(owing);
      for (int i = 0; i <= bound && !storedHookSeqs(t.store()).isEmpty(); i++) {
        Reclaim.run(d.queue(), RECLAIM_LIMIT);
      }
      assertThat(storedHookSeqs(t.store())).as("once the DLQ is purged, every hook is reclaimed within a lap").isEmpty();
      assertCountersEqualFold(t.store(), "after reclaim");
    }
  }

  private static Set<Long> storedHookSeqs(ReadView view) {
    Set<Long> out = new TreeSet<>();
    KeyRange range = Keys.realKeysOf(KeyFamily.HOOK);
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(ByteBuffer.wrap(scan.next().key()).getLong());
      }
    }
    return out;
  }

  /**
   * Orphan drop: boot-time recovery removes an inflight row whose hook envelope is gone, with its
   * delivery row and its counts (inflight −1, bytes −size), and makes the other inflight rows due
   * again; counters equal a fold and the verifier finds nothing.
   */
  @Example
  default void recoveryDropsAnInflightRowWhoseHookIsGone() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest().ingest(List.of(d.newHook("acme", START, 2, 10), d.newHook("acme", START, 1, 7),
          d.newHook("globex", START, 1, 5)));
      d.advance(1_000);
      assertThat(new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 100, Long.MAX_VALUE).tick(d.now()).rowsClaimed())
          .as("every row claimed").isEqualTo(4);
      long orphan = d.hooks().get(0).seq();
      store.write(new Batch().delete(Format3.HOOKS, Keys.hook(orphan)), Durability.SYNC);

      InflightRecovery.Result result = InflightRecovery.recoverInflight(d.queue(), d.now());
      assertThat(result.orphansDropped()).as("the two inflight rows of hook %d, whose envelope is gone", orphan).isEqualTo(2);
      assertThat(result.recovered()).as("the other inflight rows, due again").isEqualTo(2);
      assertThat(d.inflightRows()).as("inflight rows after recovery").isEmpty();
      KeyRange orphanRows = Keys.deliveriesOf(orphan);
      try (Scan scan = store.scan(orphanRows.columnFamily(), orphanRows.lo(), orphanRows.hi(), Direction.FORWARD)) {
        assertThat(scan.hasNext()).as("a delivery row of the orphaned hook %d is left", orphan).isFalse();
      }
      assertThat(d.queue().counters().read(store, ordOf(store, "acme"))).as("acme: the one recovered row, 7 bytes")
          .isEqualTo(new TenantCounts(1, 0, 0, 0, 7, 0));
      assertCountersEqualFold(store, "after recovery dropped the orphans");
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }
}
