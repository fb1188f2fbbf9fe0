package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A probe that says its tick only reads leaves the store as it found it, so the gate may run it
 * back to back before the rounds; the dispatch tick writes, and says so. Beside a writer, the
 * dispatch tick claims only up to the writer's durable watermark and delivers without refilling.
 */
class TickProbeTest {
  @TempDir Path dir;

  @Test
  void theGaugeTickOnlyReadsAndTheDispatchTickWrites() {
    GateCell cell = new GateCell("rows", 600, 20, 8);
    try (Store store = BenchStores.open("memory", dir.resolve("s"), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long now = System.currentTimeMillis();
      QueuePopulation.populate(queue, cell, now);
      List<String> before = contents(store);

      TickProbe gauge = new TickProbe.GaugeTick();
      for (int i = 0; i < 50; i++) {
        gauge.tick(queue, now + i);
        gauge.settle(queue, now + i);
      }
      assertThat(gauge.readsOnly()).isTrue();
      assertThat(contents(store)).isEqualTo(before);

      TickProbe dispatch = new TickProbe.DispatchTick(16, 1L << 20);
      dispatch.tick(queue, now);
      dispatch.settle(queue, now);
      assertThat(dispatch.readsOnly()).isFalse();
      assertThat(contents(store)).isNotEqualTo(before);
    }
  }

  @Test
  void besideAWriterTheDispatchTickClaimsOnlyDurableRowsAndLeavesTheRefillToTheWriter() {
    GateCell cell = new GateCell("rows", 600, 20, 8);
    try (Store store = BenchStores.open("memory", dir.resolve("s"), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long now = System.currentTimeMillis();
      QueuePopulation.Population pop = QueuePopulation.populate(queue, cell, now);
      TenantCounts before = counts(queue, now);

      AtomicLong durable = new AtomicLong(0);
      TickProbe racing =
          new TickProbe.DispatchTick(16, 1L << 20).besideWriter(durable::get).orElseThrow();
      assertThat(racing.bench()).isEqualTo("dispatch_tick_bench");
      assertThat(racing.tick(queue, now)).as("nothing is durable yet").isZero();
      racing.settle(queue, now);
      assertThat(counts(queue, now)).isEqualTo(before);

      durable.set(pop.lastSeq());
      assertThat(racing.tick(queue, now)).isEqualTo(16);
      racing.settle(queue, now);
      TenantCounts after = counts(queue, now);
      assertThat(after.due()).as("delivered, not refilled").isEqualTo(before.due() - 16);
      assertThat(after.inflight()).isZero();
      assertThat(racing.rowsClaimed()).isEqualTo(16);

      TickProbe quiet = new TickProbe.DispatchTick(16, 1L << 20);
      assertThat(quiet.tick(queue, now)).isEqualTo(16);
      quiet.settle(queue, now);
      assertThat(counts(queue, now).due())
          .as("the quiet tick refills what it delivered")
          .isEqualTo(after.due());
    }
    assertThat(new TickProbe.GaugeTick().besideWriter(() -> 0L)).isEmpty();
  }

  private static TenantCounts counts(DeliveryQueue queue, long now) {
    return new QueueGauges(queue).measure(now).aggregate();
  }

  /** Every entry of every family, in order, as text. */
  private static List<String> contents(Store store) {
    List<String> all = new ArrayList<>();
    for (FamilySpec family : Format3.families()) {
      try (Scan scan = store.scan(family.name(), new byte[0], null, Direction.FORWARD)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          all.add(family.name() + " " + Bytes.fullHex(e.key()) + "=" + Bytes.fullHex(e.value()));
        }
      }
    }
    return all;
  }
}
