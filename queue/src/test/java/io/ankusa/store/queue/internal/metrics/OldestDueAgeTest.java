package io.ankusa.store.queue.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.runtime.QueueLifecycleTest;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Oldest due age: verified against the first due row, at most 32 stale markers skipped, then the
 * bucket start.
 */
class OldestDueAgeTest {

  @ParameterizedTest(name = "{0} stale markers before the real one")
  @CsvSource({
    "0, 89600", // the real marker is first: exact age of its row (at 10 400, now 100 000)
    "32, 89600", // 32 skipped, the 33rd marker verifies: still exact, not its bucket start (90 000)
    "33, 95000", // 32 skipped, the 33rd is stale too: its bucket start is reported (8 markers a
    // bucket: bucket 5 -> 5 000 ms)
  })
  void staleMarkersAreSkippedAtMost32Times(int stale, long expectedAge) {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (Store store =
        StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      new DirectIngest(queue)
          .ingest(QueueLifecycleTest.hook("real", 10_400, 1)); // ord 1, bucket 10
      Batch markers = new Batch();
      for (int i = 0; i < stale; i++) {
        // stale markers of tenants with no rows, in buckets 1, 2, … before the real one
        markers.put(Format3.INDEX, Keys.active(1 + i / 8, 100 + i), new byte[0]);
      }
      if (!markers.isEmpty()) {
        store.write(markers, Durability.SYNC);
      }
      assertThat(ActiveIndex.oldestDueAgeMs(store, 100_000)).isEqualTo(expectedAge);
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }
}
