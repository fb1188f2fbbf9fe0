package io.ankusa.store.queue.runtime;

import static io.ankusa.store.queue.ingest.WriterFixture.await;
import static io.ankusa.store.queue.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.ingest.WriterFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.WriterFaultStore;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.dispatch.DeliveryHandler;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.index.DueIndex;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.ingest.IngestResult;
import io.ankusa.store.queue.ingest.QueueWriter;
import io.ankusa.store.queue.ingest.WriterFixture;
import io.ankusa.store.queue.maintenance.InflightRecovery;
import io.ankusa.store.queue.record.InflightRow;
import io.ankusa.store.queue.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runtime owns the lifecycle: recovery before the first claim, the dispatcher bound to the writer's
 * durable seq, close in reverse start order with no thread left, fail-stop on a component's failure.
 */
class QueueRuntimeTest {
  private final Path dir = Path.of("/memory", UUID.randomUUID().toString());
  private final Store memory = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());

  @AfterEach
  void discard() {
    memory.close();
    MemoryStoreProvider.discard(dir);
  }

  @Test
  void recoveryRunsBeforeTheFirstClaim() {
    DeliveryQueue before = DeliveryQueue.open(memory, QueueConfig.defaults());
    new DirectIngest(before).ingest(List.of(QueueLifecycleTest.hook("acme", 1_000, 1),
        QueueLifecycleTest.hook("acme", 1_000, 1), QueueLifecycleTest.hook("acme", 1_000, 1)));
    // a previous run claimed two rows and died with them inflight
    assertThat(new Dispatcher(before, () -> Long.MAX_VALUE, 2, 1 << 20).tick(5_000).rowsClaimed()).isEqualTo(2);
    // and a crash in a cleanup left globex's due row without its marker
    new DirectIngest(before).ingest(List.of(QueueLifecycleTest.hook("globex", 2_000, 1)));
    long globex = Tenants.ord(memory, io.ankusa.store.layout.TenantId.of("globex")).orElseThrow();
    Batch drop = new Batch();
    Deliveries.deleteMarker(drop, new ActiveKey(ActiveKey.bucketOf(2_000), globex));
    memory.write(drop, Durability.SYNC);

    WriteLog log = new WriteLog(memory);
    Set<Long> delivered = ConcurrentHashMap.newKeySet();
    try (QueueRuntime runtime = QueueRuntime.start(log, QueueConfig.defaults(), RuntimeSettings.defaults(),
        delivering(delivered), null, System::currentTimeMillis)) {
      assertThat(runtime.recovery()).isEqualTo(new InflightRecovery.Result(2, 0, 1));
      eventually("every row delivered, the recovered ones and the one without a marker", () -> delivered.size() == 4);
      eventually("every hook reclaimed", () -> WriterFixture.storedSeqs(memory).isEmpty());
    }
    List<String> writes = log.kinds();
    assertThat(writes.indexOf("claim")).as("writes in order: %s", writes)
        .isGreaterThan(writes.indexOf("recover")).isGreaterThan(writes.indexOf("marker repair"));
    WriterFixture.assertClean(memory);
  }

  @Test
  void rowsAboveTheDurableSeqAreNeverClaimed() throws Exception {
    WriterFaultStore store = new WriterFaultStore(memory);
    AtomicLong ticks = new AtomicLong();
    List<String> early = Collections.synchronizedList(new ArrayList<>());
    Set<Long> delivered = ConcurrentHashMap.newKeySet();
    QueueRuntime[] self = new QueueRuntime[1];
    DeliveryHandler handler = (queue, tick, now) -> {
      for (InflightRow row : tick.claimed()) {
        if (row.key().seq() > self[0].writer().durableSeq()) {
          early.add("seq " + row.key().seq() + " claimed above durableSeq " + self[0].writer().durableSeq());
        }
      }
      ticks.incrementAndGet();
      delivering(delivered).handle(queue, tick, now);
    };
    try (QueueRuntime runtime = QueueRuntime.start(store, QueueConfig.defaults(), RuntimeSettings.defaults(),
        handler, null, System::currentTimeMillis)) {
      self[0] = runtime;
      store.holdSyncs();
      var answer = runtime.writer().ingest(request("acme", null, 1));
      try {
        store.awaitHeldSync();
        eventually("the hook is applied", () -> runtime.writer().appliedSeq() == 1);
        assertThat(DueIndex.firstDue(memory, 1)).as("the row is in the store, visible").isNotNull();
        long seen = ticks.get();
        eventually("20 more ticks", () -> ticks.get() >= seen + 20);
        assertThat(delivered).as("nothing claimed while the sync is held").isEmpty();
      } finally {
        store.openSyncGate(); // so the close below can sync, pass or fail
      }
      assertThat(await(answer).outcome()).isEqualTo(IngestResult.Outcome.CREATED);
      eventually("the row is claimed once durable", () -> delivered.contains(1L));
    }
    assertThat(early).isEmpty();
  }

  @Test
  void closeStopsInReverseStartOrderDrainsTheArchiveAndLeavesNoThread() {
    List<Long> archived = Collections.synchronizedList(new ArrayList<>());
    ArchiveSink sink = new ArchiveSink() {
      @Override
      public void append(long seq, byte[] envelope) {
        archived.add(seq);
      }

      @Override
      public void sync() {}
    };
    QueueRuntime runtime = QueueRuntime.start(memory, QueueConfig.defaults().withArchive(true),
        RuntimeSettings.defaults(), delivering(ConcurrentHashMap.newKeySet()), sink, System::currentTimeMillis);
    List<Thread> threads = runtime.threads();
    assertThat(threads).extracting(Thread::getName).containsExactlyInAnyOrder(QueueWriter.WRITER_THREAD,
        QueueWriter.SYNCER_THREAD, QueueRuntime.DISPATCHER_THREAD, QueueRuntime.ARCHIVER_THREAD,
        QueueRuntime.RECLAIM_THREAD);
    for (int i = 0; i < 50; i++) {
      assertThat(await(runtime.writer().ingest(request("acme", "k" + i, 1))).outcome())
          .isEqualTo(IngestResult.Outcome.CREATED);
    }
    runtime.close();
    assertThat(runtime.stopped()).containsExactly("reclaim", "archiver", "dispatcher", "writer");
    assertThat(threads).as("no thread of the runtime outlives close").noneMatch(Thread::isAlive);
    assertThat(runtime.archived().settled()).as("the close drains the archive").isEqualTo(50);
    assertThat(new java.util.TreeSet<>(archived)).hasSize(50);
    assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
        .isEqualTo(IngestResult.Outcome.UNAVAILABLE);
    runtime.close(); // idempotent
    assertThat(runtime.stopped()).hasSize(4);
  }

  @Test
  void aFailingHandlerStopsEveryComponentAndCloseSurfacesIt() {
    IllegalStateException boom = new IllegalStateException("the sink exploded");
    DeliveryHandler handler = (queue, tick, now) -> {
      if (tick.rowsClaimed() > 0) {
        throw boom;
      }
    };
    QueueRuntime runtime = QueueRuntime.start(memory, QueueConfig.defaults(), RuntimeSettings.defaults(), handler,
        null, System::currentTimeMillis);
    List<Thread> threads = runtime.threads();
    await(runtime.writer().ingest(request("acme", null, 1)));
    eventually("every thread stopped without a close", () -> threads.stream().noneMatch(Thread::isAlive));
    assertThat(runtime.failure()).containsSame(boom);
    assertThat(runtime.stopped()).containsExactly("reclaim", "dispatcher", "writer");
    assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
        .isEqualTo(IngestResult.Outcome.UNAVAILABLE);
    assertThatThrownBy(runtime::close).isSameAs(boom);
  }

  @Test
  void aStepOfCloseThatFailsDoesNotStopTheLaterSteps() {
    FailingArchiveScans store = new FailingArchiveScans(memory);
    ArchiveSink sink = new ArchiveSink() {
      @Override
      public void append(long seq, byte[] envelope) {}

      @Override
      public void sync() {}
    };
    QueueRuntime runtime = QueueRuntime.start(store, QueueConfig.defaults().withArchive(true),
        RuntimeSettings.defaults(), delivering(ConcurrentHashMap.newKeySet()), sink, System::currentTimeMillis);
    List<Thread> threads = runtime.threads();
    store.failScansOf = Thread.currentThread(); // the close's last drain reads on this thread
    assertThatThrownBy(runtime::close).isInstanceOf(StoreException.class).hasMessageContaining("injected");
    assertThat(runtime.stopped()).containsExactly("reclaim", "archiver", "dispatcher", "writer");
    assertThat(threads).noneMatch(Thread::isAlive);
  }

  /** A handler that delivers every claimed row and notes its seq. */
  private static DeliveryHandler delivering(Set<Long> delivered) {
    return (queue, tick, now) -> {
      Transition t = new Transition();
      for (InflightRow row : tick.claimed()) {
        Deliveries.delivered(t, row);
        delivered.add(row.key().seq());
      }
      queue.write(t, Durability.NO_SYNC);
    };
  }

  /** Notes what each batch did, in write order: recovery, marker repair, claim. */
  private static final class WriteLog extends ForwardingStore {
    private final List<String> kinds = Collections.synchronizedList(new ArrayList<>());

    WriteLog(Store delegate) {
      super(delegate);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      boolean putsF = false;
      boolean deletesF = false;
      boolean onlyMarkers = !batch.isEmpty();
      for (Op op : batch.ops()) {
        byte[] key = op instanceof Op.Put p ? p.key() : op instanceof Op.Delete d ? d.key() : new byte[0];
        boolean index = op instanceof Op.Put p ? p.family().equals(Format3.INDEX)
            : op instanceof Op.Delete d && d.family().equals(Format3.INDEX);
        putsF |= op instanceof Op.Put && index && key.length > 0 && key[0] == 'F';
        deletesF |= op instanceof Op.Delete && index && key.length > 0 && key[0] == 'F';
        onlyMarkers &= op instanceof Op.Put && index && key.length > 0 && key[0] == 'A';
      }
      if (putsF) {
        kinds.add("claim");
      } else if (deletesF && durability == Durability.SYNC) {
        kinds.add("recover");
      } else if (onlyMarkers && durability == Durability.SYNC) {
        kinds.add("marker repair");
      }
      delegate.write(batch, durability);
    }

    List<String> kinds() {
      return List.copyOf(kinds);
    }
  }

  /** Scans of the archive obligations fail on one thread. */
  private static final class FailingArchiveScans extends ForwardingStore {
    volatile Thread failScansOf;

    FailingArchiveScans(Store delegate) {
      super(delegate);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      if (Thread.currentThread() == failScansOf && family.equals(Format3.INDEX) && lo.length > 0 && lo[0] == 'a') {
        throw new StoreException("injected failure of a scan of 'a'");
      }
      return delegate.scan(family, lo, hi, direction);
    }
  }
}
