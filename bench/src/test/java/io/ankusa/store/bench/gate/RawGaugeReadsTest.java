package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The raw baseline reads what the SPI tick reads: on a populated queue at rest, {@link
 * RawGaugeReads} gives {@code QueueGauges.measure}'s numbers, field for field, with the aggregate
 * single or sharded.
 */
class RawGaugeReadsTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "sharded aggregate: {0}")
  @ValueSource(booleans = {false, true})
  void theRawReadsGiveTheSpiTicksNumbers(boolean sharded) {
    GateCell cell = new GateCell("rows", 2_000, 20, 8);
    try (Store store = BenchStores.open("rocksdb", dir, Format3.families())) {
      DeliveryQueue queue =
          DeliveryQueue.open(store, QueueConfig.defaults().withShardedAggregate(sharded));
      long now = System.currentTimeMillis();
      QueuePopulation.Population pop = QueuePopulation.populate(queue, cell, now);
      // A few merges into the aggregate on top of the population, as the gate's load writes them.
      MergeLoad load =
          new MergeLoad(
              queue,
              pop.activeOrds(),
              pop.activeTenants(),
              pop.aheadBaseAt(),
              pop.lastSeq(),
              2_000);
      load.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (load.batches() < 50 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      load.stop();
      assertThat(load.batches())
          .as("merge-load batches written within 30 s")
          .isGreaterThanOrEqualTo(50);

      QueueGauges.Gauge spi = new QueueGauges(queue).measure(now + 5_000);
      RawGaugeReads.Reading raw = new RawGaugeReads(store, sharded).measure(now + 5_000);

      CounterField[] fields = CounterField.values();
      for (int i = 0; i < fields.length; i++) {
        assertThat(raw.aggregate()[i])
            .as("aggregate %s", fields[i])
            .isEqualTo(spi.aggregate().get(fields[i]));
      }
      assertThat(spi.aggregate().pending()).isPositive();
      assertThat(raw.oldestDueAgeMs()).isEqualTo(spi.oldestDueAgeMs()).isPositive();
      assertThat(raw.tenants()).isEqualTo(spi.tenants()).isEqualTo(cell.tenants());
    }
  }

  @Test
  void aStoreOfAnotherBackendIsRefusedByName() {
    try (Store store = BenchStores.open("memory", dir, Format3.families())) {
      assertThatThrownBy(() -> new RawGaugeReads(store, false))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("rocksdb backend");
    }
  }
}
