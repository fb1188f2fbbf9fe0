package io.ankusa.store.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.maintenance.InflightRecovery;
import io.ankusa.store.queue.maintenance.Purge;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.queue.tenant.Tenants;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatch cursors ({@link DueCursors}): a tick resumes past what it claimed, and no row is ever
 * passed — not one put behind the cursor in its own second, not one put while a tick scans (forced
 * between the tick's scan and its cursor move), not one above the durable watermark. Purge and recovery
 * chunks resume past the previous chunk.
 */
class DueCursorsTest {
  private static final long NOW = 10_000;
  private Path dir;
  private ScanRecorder recorder;
  private InterleavingStore store;
  private DeliveryQueue queue;

  /** Records the lower bound of every scan of due rows and of inflight rows. */
  static final class ScanRecorder extends ForwardingStore {
    final List<byte[]> indexScanLos = new ArrayList<>();
    final List<byte[]> inflightScanLos = new ArrayList<>();

    ScanRecorder(Store delegate) {
      super(delegate);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      if (family.equals(Format3.INDEX) && lo.length > 0 && lo[0] == KeyFamily.DUE.prefix()[0]) {
        indexScanLos.add(lo.clone());
      }
      if (family.equals(Format3.INDEX) && lo.length > 0 && lo[0] == KeyFamily.INFLIGHT.prefix()[0]) {
        inflightScanLos.add(lo.clone());
      }
      return delegate.scan(family, lo, hi, direction);
    }
  }

  @BeforeEach
  void open() {
    dir = Path.of("/memory", UUID.randomUUID().toString());
    recorder = new ScanRecorder(StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families()));
    store = new InterleavingStore(recorder);
    queue = DeliveryQueue.open(store, QueueConfig.defaults());
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  private List<Long> acme(long... receivedAt) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (long at : receivedAt) {
      hooks.add(new HookEnvelope(0, "acme", "src", "h-" + UUID.randomUUID(), null, at, List.of(1), new byte[10]));
    }
    return new DirectIngest(queue).ingest(hooks);
  }

  private long acmeOrd() {
    return Tenants.ord(store, TenantId.of("acme")).getAsLong();
  }

  private static List<Long> seqs(Dispatcher.TickReport tick) {
    return tick.claimed().stream().map(r -> r.key().seq()).toList();
  }

  @Test
  void aTickResumesAtTheLastRowItClaimed() {
    List<Long> seqs = acme(1_500, 1_501, 1_502, 1_503, 1_504);
    Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20);
    assertThat(seqs(dispatcher.tick(NOW))).containsExactly(seqs.get(0), seqs.get(1));
    recorder.indexScanLos.clear();

    assertThat(seqs(dispatcher.tick(NOW))).containsExactly(seqs.get(2), seqs.get(3));
    byte[] resumed = Keys.dueOfFrom(acmeOrd(), 1_501, seqs.get(1), 1, NOW).lo();
    assertThat(recorder.indexScanLos.get(0)).as("the second tick's scan of acme starts at its last claim, %s",
        Arrays.toString(resumed)).isEqualTo(resumed);
  }

  @Test
  void aRowPutBehindTheCursorInItsSecondIsClaimedByTheNextTick() {
    acme(1_500, 1_501, 1_502, 1_503, 1_504);
    Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20);
    dispatcher.tick(NOW);
    long behind = acme(1_000).get(0); // same second as the cursor, before it

    assertThat(seqs(dispatcher.tick(NOW))).as("the next tick claims the row put behind the cursor").contains(behind);
  }

  @Test
  void aRowPutWhileATickScansBehindItsProgressIsClaimedByTheNextTick() {
    acme(1_500, 1_501, 1_502);
    Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20);
    long[] behind = new long[1];
    store.afterNextScanOf('D', () -> behind[0] = acme(1_000).get(0));
    dispatcher.tick(NOW); // claims 1 500 and 1 501; the put lands between its scan and its cursor move
    assertThat(store.ran()).as("the put was forced between the tick's scan and its cursor move").isTrue();

    assertThat(seqs(dispatcher.tick(NOW))).as("the next tick claims the row put during the first one's scan")
        .contains(behind[0]);
  }

  @Test
  void aRowAboveTheWatermarkIsNeverPassed() {
    // key order by at: (1 000, seq 2), (1 001, seq 1), (1 002, seq 3)
    List<Long> seqs = acme(1_001, 1_000, 1_002);
    AtomicLong watermark = new AtomicLong(seqs.get(0));
    Dispatcher dispatcher = new Dispatcher(queue, watermark::get, 10, 1 << 20);
    assertThat(seqs(dispatcher.tick(NOW))).containsExactly(seqs.get(0));

    watermark.set(seqs.get(2));
    assertThat(seqs(dispatcher.tick(NOW))).as("once durable, the rows the first tick skipped")
        .containsExactlyInAnyOrder(seqs.get(1), seqs.get(2));
  }

  /**
   * A tenant that drains on every tick keeps its cursor (the table is far below its bound), so its next
   * tick does not start at its first key; a row put behind the kept cursor is still claimed.
   */
  @Test
  void aDrainedTenantKeepsItsCursorWhileTheTableIsSmall() {
    List<Long> seqs = acme(1_500, 1_501);
    Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 10, 1 << 20);
    assertThat(seqs(dispatcher.tick(NOW))).containsExactly(seqs.get(0), seqs.get(1));
    long next = acme(1_502).get(0);
    recorder.indexScanLos.clear();

    assertThat(seqs(dispatcher.tick(NOW))).containsExactly(next);
    assertThat(recorder.indexScanLos.get(0)).as("the drained tenant's next scan starts at its last claim")
        .isEqualTo(Keys.dueOfFrom(acmeOrd(), 1_501, seqs.get(1), 1, NOW).lo());
    long behind = acme(1_000).get(0);
    assertThat(seqs(dispatcher.tick(NOW))).as("a row put behind the drained tenant's cursor").containsExactly(behind);
  }

  @Test
  void eachPurgeChunkResumesAtThePreviousOne() {
    long[] ats = new long[Purge.CHUNK + 20];
    for (int i = 0; i < ats.length; i++) {
      ats[i] = 1_000 + i;
    }
    acme(ats);
    recorder.indexScanLos.clear();

    long purged = Purge.purgeTenant(queue, TenantId.of("acme"), EnumSet.of(Purge.Kind.DUE));

    assertThat(purged).isEqualTo(ats.length);
    assertThat(recorder.indexScanLos).as("the purge's due-row scans").hasSize(3);
    DueKey lastOfFirst = DueKey.decode(Arrays.copyOf(recorder.indexScanLos.get(1), 23));
    assertThat(lastOfFirst.at()).as("the second chunk starts at the first one's last row").isEqualTo(1_000 + Purge.CHUNK - 1);
  }

  @Test
  void eachRecoveryChunkResumesAtThePreviousOne() {
    long[] ats = new long[600];
    for (int i = 0; i < ats.length; i++) {
      ats[i] = 1_000 + i;
    }
    acme(ats);
    new Dispatcher(queue, () -> Long.MAX_VALUE, ats.length, Long.MAX_VALUE).tick(NOW);
    recorder.inflightScanLos.clear();

    InflightRecovery.Result result = InflightRecovery.recoverInflight(queue, NOW);

    assertThat(result.recovered()).isEqualTo(ats.length);
    assertThat(recorder.inflightScanLos).as("recovery's scans: two chunks and the empty end").hasSize(3);
    assertThat(recorder.inflightScanLos.get(1)).as("the second chunk starts past the head")
        .isNotEqualTo(recorder.inflightScanLos.get(0));
    assertThat(recorder.inflightScanLos.get(1)).hasSize(15);
  }
}
