package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ingest cell's writer and the merge load side by side leave a store every invariant holds in:
 * the writer's hooks land on the population's tenants, and the load's seqs never meet the writer's
 * (a hook overwritten by the other's would file a due row under another tenant's ordinal).
 */
class WriterLoadTest {
  @TempDir Path dir;

  @Test
  void theWriterAndTheMergeLoadBesideItKeepTheQueueConsistent() {
    GateCell cell = GateCell.ingest(400, 20, 8, 4_000);
    try (Store store = BenchStores.open("memory", dir.resolve("s"), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      QueuePopulation.Population pop =
          QueuePopulation.populate(queue, cell, System.currentTimeMillis());
      long tenantsBefore = tenants(queue);
      MergeLoad load = MergeLoad.forCell(queue, cell, pop, 4_000);
      load.start();
      long created;
      try (WriterLoad writer = WriterLoad.start(queue, cell.tenants(), cell.ingestPerSecond())) {
        long giveUp =
            System.nanoTime() + 30_000_000_000L; // a stuck writer fails below rather than hanging
        while ((writer.created() < 200 || load.batches() < 200) && System.nanoTime() - giveUp < 0) {
          LockSupport.parkNanos(1_000_000);
        }
        created = writer.created();
        assertThat(load.batches()).isGreaterThanOrEqualTo(200);
        assertThat(writer.durableSeq()).isGreaterThan(pop.lastSeq());
      } finally {
        load.stop();
      }
      assertThat(created).isGreaterThanOrEqualTo(200);
      assertThat(tenants(queue))
          .as("the writer's tenants are the population's")
          .isEqualTo(tenantsBefore);
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  private static long tenants(DeliveryQueue queue) {
    return new QueueGauges(queue).measure(System.currentTimeMillis()).tenants();
  }
}
