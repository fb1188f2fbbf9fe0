package io.ankusa.store.queue.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.runtime.QueueLifecycleTest;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The gauge tick reads a tenant's first due row from the queue's dispatch cursor, past the
 * tombstones of the dispatcher's claims, and still sees a row put behind the cursor afterwards.
 */
class GaugeFromCursorTest {

  /** Records the low bound of every scan of the index family (visits walk scans here). */
  private static final class IndexScans extends ForwardingStore {
    final List<byte[]> los = new ArrayList<>();

    IndexScans(Store delegate) {
      super(delegate);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      if (family.equals(Format3.INDEX)) {
        los.add(lo.clone());
      }
      return super.scan(family, lo, hi, direction);
    }
  }

  @Test
  void theOldestDueRowIsReadFromTheCursorAndARowPutBehindItIsSeen() {
    Path dir = Path.of("/memory", UUID.randomUUID().toString());
    try (IndexScans store =
        new IndexScans(
            StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families()))) {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      DirectIngest ingest = new DirectIngest(queue);
      for (int i = 0; i < 5; i++) {
        ingest.ingest(QueueLifecycleTest.hook("acme", 10_400 + i, 1)); // ord 1, bucket 10
      }
      long now = 100_000;
      assertThat(new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20).tick(now).rowsClaimed())
          .isEqualTo(2);
      DueKey cursor = queue.dueCursors().peek(1);
      assertThat(cursor).as("the tick left a cursor past the first key").isNotNull();

      store.los.clear();
      QueueGauges gauges = new QueueGauges(queue);
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as("the third row is the oldest left")
          .isEqualTo(now - 10_402);
      byte[] fromCursor =
          Keys.dueOfFrom(1, cursor.at(), cursor.seq(), cursor.sink(), Long.MAX_VALUE).lo();
      assertThat(store.los)
          .as("the tenant's due rows were read from its cursor, not its first key")
          .anySatisfy(lo -> assertThat(lo).isEqualTo(fromCursor))
          .noneSatisfy(lo -> assertThat(Arrays.equals(lo, Keys.dueOf(1).lo())).isTrue());

      // A row due before the cursor, put through the queue: its writer lowers the cursor, and the
      // gauge reads it.
      ingest.ingest(QueueLifecycleTest.hook("acme", 10_100, 1));
      assertThat(gauges.measure(now).oldestDueAgeMs()).isEqualTo(now - 10_100);
    } finally {
      MemoryStoreProvider.discard(dir);
    }
  }
}
