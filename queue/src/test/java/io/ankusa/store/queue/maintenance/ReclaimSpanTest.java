package io.ankusa.store.queue.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.HookKey;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.counter.CounterFold;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.queue.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reclaim's merged scan of delivery rows when the span between its cleared hooks is dense with rows of
 * hooks still in flight: the merge stops after {@link Reclaim#ROWS_PER_HOOK_IN_SPAN} rows per hook, and
 * the hooks it did not reach are read one by one. Every hook nothing owes goes, every owed one stays,
 * whichever way its owing row was found.
 */
class ReclaimSpanTest {
  private static final int HOOKS = 40;
  private static final int WIDE_SINKS = 20;

  private Path dir;
  private Store store;
  private DeliveryQueue queue;

  @BeforeEach
  void open() {
    dir = Path.of("/memory", UUID.randomUUID().toString());
    store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    queue = DeliveryQueue.open(store, QueueConfig.defaults());
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  /**
   * Hook {@code i} (seq {@code i + 1}): {@code i % 4 == 0} has one sink, delivered (nothing owes it);
   * {@code i % 4 == 1} has two sinks, the first delivered and the second still inflight (owed, with a
   * cleared marker); the others have {@value #WIDE_SINKS} sinks all inflight (no marker, 20 delivery
   * rows each, in the span of every pass). One pass over the 20 markers meets 400 rows of other hooks
   * in its span, far past the merge's budget of 80.
   */
  @Test
  void aSpanDenseWithRowsOfOtherHooksKeepsEveryOwedHook() {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < HOOKS; i++) {
      List<Integer> sinks = switch (i % 4) {
        case 0 -> List.of(1);
        case 1 -> List.of(1, 2);
        default -> IntStream.rangeClosed(1, WIDE_SINKS).boxed().toList();
      };
      hooks.add(new HookEnvelope(0, "acme", "src", "hook-" + i, null, 1_000 + i, sinks, new byte[4]));
    }
    new DirectIngest(queue).ingest(hooks);
    List<InflightRow> claimed = new Dispatcher(queue, () -> Long.MAX_VALUE, 10_000, Long.MAX_VALUE).tick(60_000).claimed();
    Transition settle = new Transition();
    Set<Long> free = new TreeSet<>();
    for (InflightRow row : claimed) {
      long i = row.key().seq() - 1;
      if (i % 4 == 0 || (i % 4 == 1 && row.key().sink() == 1)) {
        Deliveries.delivered(settle, row);
        if (i % 4 == 0) {
          free.add(row.key().seq());
        }
      }
    }
    queue.write(settle, Durability.SYNC);
    Set<Long> before = storedHooks();

    Reclaim.Pass pass = Reclaim.pass(queue, 1_000);

    assertThat(pass.visited()).as("cleared markers visited").isEqualTo(HOOKS / 2);
    assertThat(pass.reclaimed()).as("hooks reclaimed").isEqualTo(free.size());
    Set<Long> expected = new TreeSet<>(before);
    expected.removeAll(free);
    assertThat(storedHooks()).as("hooks left: every owed one, none of the free ones").isEqualTo(expected);
    assertThat(QueueVerifier.verify(store)).isEmpty();
  }

  private Set<Long> storedHooks() {
    Set<Long> out = new TreeSet<>();
    CounterFold.foldFamily(store, KeyFamily.HOOK, e -> out.add(HookKey.decode(e.key()).seq()));
    return out;
  }
}
