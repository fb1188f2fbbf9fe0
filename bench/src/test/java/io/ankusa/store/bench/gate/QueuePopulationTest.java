package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The population and the load keep the queue's invariants, so the gate measures a queue the code
 * could have produced: counters equal a fold, every due row has its marker, and exactly the active
 * tenants have rows due now.
 */
class QueuePopulationTest {
  @TempDir Path dir;

  @Test
  void aPopulatedQueueKeepsEveryInvariantAndHasExactlyTheActiveTenantsDue() {
    GateCell cell = new GateCell("rows", 2_500, 50, 8);
    try (Store store = BenchStores.open("memory", dir.resolve("s"), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long now = System.currentTimeMillis();
      QueuePopulation.Population pop = QueuePopulation.populate(queue, cell, now);

      assertThat(QueueVerifier.verify(store)).isEmpty();
      Map<Long, TenantCounts> fold = CounterFold.fold(store);
      assertThat(Counters.readAll(store)).containsAllEntriesOf(fold);
      TenantCounts all = queue.counters().aggregate(store);
      assertThat(all.pending() + all.dead()).isEqualTo(cell.rows());
      assertThat(all.bytes()).isEqualTo(cell.rows() * QueuePopulation.PAYLOAD_BYTES);
      assertThat(all.dead()).isPositive();
      assertThat(all.inflight()).isZero();

      TreeSet<Long> dueNow = new TreeSet<>();
      for (ActiveKey marker : ActiveIndex.activeTenants(store, now, ActiveIndex.DEFAULT_LIMIT)) {
        dueNow.add(marker.ord());
      }
      assertThat(dueNow).containsExactlyInAnyOrderElementsOf(pop.activeOrds());
      assertThat(pop.activeOrds()).hasSize(cell.active());
      assertThat(queue.lastSeq()).isEqualTo(pop.lastSeq()).isEqualTo(cell.rows());
    }
  }

  @Test
  void theMergeLoadLeavesCountsEqualToAFoldAndTheQueueItsSize() throws InterruptedException {
    GateCell cell = new GateCell("tenants", 400, 20, 4);
    try (Store store = BenchStores.open("memory", dir.resolve("s"), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long now = System.currentTimeMillis();
      QueuePopulation.Population pop = QueuePopulation.populate(queue, cell, now);
      TenantCounts before = queue.counters().aggregate(store);
      List<ActiveKey> dueBefore = ActiveIndex.activeTenants(store, now, ActiveIndex.DEFAULT_LIMIT);

      MergeLoad load =
          new MergeLoad(
              queue,
              pop.activeOrds(),
              pop.activeTenants(),
              pop.aheadBaseAt(),
              pop.lastSeq(),
              2_000);
      load.start();
      Thread.sleep(300);
      load.stop();

      assertThat(load.batches()).isGreaterThan(10);
      assertThat(QueueVerifier.verify(store)).isEmpty();
      assertThat(Counters.readAll(store)).containsAllEntriesOf(CounterFold.fold(store));
      assertThat(queue.counters().aggregate(store)).isEqualTo(before);
      assertThat(ActiveIndex.activeTenants(store, now, ActiveIndex.DEFAULT_LIMIT))
          .isEqualTo(dueBefore);
    }
  }
}
