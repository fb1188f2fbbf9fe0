package io.ankusa.store.queue.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.maintenance.QueueVerifier;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.queue.runtime.QueueLifecycleTest;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ArchiverTest {
  private Path dir;
  private Store store;
  private DeliveryQueue queue;
  private final SyncTrackingSink sink = new SyncTrackingSink();

  @BeforeEach
  void open() {
    dir = Path.of("/memory", UUID.randomUUID().toString());
    store = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    queue = DeliveryQueue.open(store, QueueConfig.defaults().withArchive(true));
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  @Test
  void settlesEveryObligationInSeqOrderWithTheHooksExactBytes() {
    List<Long> seqs = ingest(10);
    Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, 3);

    Archiver.ChunkReport first = archiver.archiveChunk();
    assertThat(first.settled()).isEqualTo(3);
    assertThat(first.lastSeq()).isEqualTo(seqs.get(2));
    Archiver.ChunkReport rest = archiver.drain();

    assertThat(rest.settled()).isEqualTo(7);
    assertThat(rest.dropped()).isZero();
    assertThat(sink.synced.keySet()).containsExactlyElementsOf(seqs);
    for (long seq : seqs) {
      assertThat(sink.synced.get(seq)).as("archived bytes of seq %s", seq).isEqualTo(store.get(Format3.HOOKS, Keys.hook(seq)));
    }
    assertThat(sink.syncs).as("one sync per chunk of 3: 3 + 3 + 3 + 1").isEqualTo(4);
    assertThat(obligations()).isEmpty();
    assertThat(queue.counters().aggregate(store).archivePending()).isZero();
    assertThat(QueueVerifier.verify(store)).isEmpty();
    assertThat(archiver.drain().obligations()).as("nothing left to archive").isZero();
  }

  @Test
  void neverArchivesAHookAboveTheDurableWatermark() {
    List<Long> seqs = ingest(10);
    AtomicLong durable = new AtomicLong(seqs.get(5));
    Archiver archiver = new Archiver(queue, durable::get, sink, 4);

    assertThat(archiver.drain().settled()).isEqualTo(6);
    assertThat(sink.appended).allSatisfy(seq -> assertThat(seq).isLessThanOrEqualTo(seqs.get(5)));
    assertThat(obligations()).containsExactlyElementsOf(seqs.subList(6, 10));
    assertThat(queue.counters().aggregate(store).archivePending()).isEqualTo(4);
    assertThat(QueueVerifier.verify(store)).isEmpty();

    durable.set(seqs.get(9));
    assertThat(archiver.drain().settled()).isEqualTo(4);
    assertThat(sink.synced.keySet()).containsExactlyElementsOf(seqs);
    assertThat(queue.counters().aggregate(store).archivePending()).isZero();
  }

  @Test
  void dropsAnObligationWhoseHookIsGone() {
    List<Long> seqs = ingest(5);
    long gone = seqs.get(2);
    store.write(new Batch().delete(Format3.HOOKS, Keys.hook(gone)), Durability.SYNC);

    Archiver.ChunkReport report = new Archiver(queue, () -> Long.MAX_VALUE, sink, 16).drain();

    assertThat(report.settled()).isEqualTo(4);
    assertThat(report.dropped()).isEqualTo(1);
    assertThat(sink.appended).doesNotContain(gone).hasSize(4);
    assertThat(obligations()).isEmpty();
    assertThat(queue.counters().aggregate(store).archivePending()).isZero();
  }

  @Test
  void aFailedSyncSettlesNothingAndTheNextRunAppendsAgain() {
    List<Long> seqs = ingest(6);
    sink.failSync = true;
    Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, 4);

    assertThatThrownBy(archiver::archiveChunk).isInstanceOf(ArchiveSinkException.class);
    assertThat(obligations()).containsExactlyElementsOf(seqs);
    assertThat(queue.counters().aggregate(store).archivePending()).isEqualTo(6);

    sink.failSync = false;
    assertThat(archiver.drain().settled()).isEqualTo(6);
    assertThat(sink.appended).as("the failed chunk's seqs were appended twice: at least once, never lost")
        .containsExactly(seqs.get(0), seqs.get(1), seqs.get(2), seqs.get(3),
            seqs.get(0), seqs.get(1), seqs.get(2), seqs.get(3), seqs.get(4), seqs.get(5));
    assertThat(sink.synced.keySet()).containsExactlyElementsOf(seqs);
    assertThat(obligations()).isEmpty();
  }

  @Test
  void aSyncFailingInTheMiddleOfADrainKeepsTheChunksSettledBeforeItAndLeavesNoReadRunning() {
    List<Long> seqs = ingest(10);
    AtomicInteger readAheadsStarted = new AtomicInteger();
    AtomicInteger readAheadsFinished = new AtomicInteger();
    Store counting = new ForwardingStore(store) {
      @Override
      public List<byte[]> multiGet(String family, List<byte[]> keys) {
        boolean readAhead = Thread.currentThread().getName().equals(Archiver.READER_THREAD);
        if (readAhead && readAheadsStarted.incrementAndGet() == 2) {
          pause(); // the read racing the failing sync is slow, so a drain that did not wait for it would show
        }
        try {
          return super.multiGet(family, keys);
        } finally {
          if (readAhead) {
            readAheadsFinished.incrementAndGet();
          }
        }
      }
    };
    sink.failSyncNumber = 2;
    Archiver archiver = new Archiver(DeliveryQueue.open(counting, QueueConfig.defaults().withArchive(true)),
        () -> Long.MAX_VALUE, sink, 3);

    assertThatThrownBy(archiver::drain).isInstanceOf(ArchiveSinkException.class);
    int started = readAheadsStarted.get();
    assertThat(started).as("the next chunks were read on the reading thread").isEqualTo(2);
    assertThat(readAheadsFinished.get()).as("no read of the store outlives the drain").isEqualTo(started);
    assertThat(obligations()).as("the first chunk is settled, the rest owed").containsExactlyElementsOf(seqs.subList(3, 10));
    assertThat(queue.counters().aggregate(store).archivePending()).isEqualTo(7);

    assertThat(archiver.drain().settled()).isEqualTo(7);
    assertThat(sink.synced.keySet()).containsExactlyElementsOf(seqs);
    assertThat(QueueVerifier.verify(store)).isEmpty();
  }

  @Test
  void theSettleBatchIsWrittenOnlyAfterTheSinkSynced() {
    ingest(9);
    Store checking = new ForwardingStore(store) {
      @Override
      public void write(Batch batch, Durability durability) {
        for (Op op : batch.ops()) {
          if (op instanceof Op.Delete d && Keys.realKeysOf(KeyFamily.ARCHIVE).contains(d.key())) {
            long seq = ArchiveKey.decode(d.key()).seq();
            assertThat(sink.synced).as("obligation of seq %s settled before the sink synced it", seq).containsKey(seq);
          }
        }
        super.write(batch, durability);
      }
    };
    DeliveryQueue viaChecking = DeliveryQueue.open(checking, QueueConfig.defaults().withArchive(true));

    assertThat(new Archiver(viaChecking, () -> Long.MAX_VALUE, sink, 4).drain().settled()).isEqualTo(9);
  }

  @Test
  void aLaterArchiverTakesUpWhereAnEarlierWatermarkStoppedAndAChunkMustHoldAHook() {
    List<Long> seqs = ingest(3);
    new Archiver(queue, () -> seqs.get(0), sink, 8).drain();
    assertThat(new Archiver(queue, () -> Long.MAX_VALUE, sink, 8).drain().settled()).isEqualTo(2);
    assertThat(sink.synced.keySet()).containsExactlyElementsOf(seqs);

    assertThatThrownBy(() -> new Archiver(queue, () -> Long.MAX_VALUE, sink, 0))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("at least 1");
  }

  @Test
  void withTheArchiveOffThereIsNothingToArchive() {
    DeliveryQueue off = DeliveryQueue.open(store, QueueConfig.defaults());
    new DirectIngest(off).ingest(List.of(QueueLifecycleTest.hook("acme", 1_000, 1)));
    assertThat(new Archiver(off, () -> Long.MAX_VALUE, sink, 8).drain().obligations()).isZero();
    assertThat(sink.syncs).isZero();
  }

  private static void pause() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private List<Long> ingest(int hooks) {
    List<HookEnvelope> batch = new ArrayList<>();
    for (int i = 0; i < hooks; i++) {
      batch.add(QueueLifecycleTest.hook(i % 2 == 0 ? "acme" : "globex", 1_000 + i, 1));
    }
    return new DirectIngest(queue).ingest(batch);
  }

  private List<Long> obligations() {
    KeyRange range = Keys.realKeysOf(KeyFamily.ARCHIVE);
    List<Long> out = new ArrayList<>();
    try (Scan scan = store.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(ArchiveKey.decode(scan.next().key()).seq());
      }
    }
    return out;
  }

  /** Records every append, and which appends a sync made durable (first copy of a seq wins). */
  private static final class SyncTrackingSink implements ArchiveSink {
    final List<Long> appended = new ArrayList<>();
    final List<byte[]> envelopes = new ArrayList<>();
    final Map<Long, byte[]> synced = new LinkedHashMap<>();
    int syncs;
    boolean failSync;
    /** When positive, the sync with this number (1 = the first) throws. */
    int failSyncNumber;
    private int syncCalls;

    @Override
    public void append(long seq, byte[] envelope) {
      appended.add(seq);
      envelopes.add(envelope.clone());
    }

    @Override
    public void sync() {
      syncCalls++;
      if (failSync || syncCalls == failSyncNumber) {
        throw new ArchiveSinkException("test sink: sync refused");
      }
      syncs++;
      for (int i = 0; i < appended.size(); i++) {
        synced.putIfAbsent(appended.get(i), envelopes.get(i));
      }
    }
  }
}
