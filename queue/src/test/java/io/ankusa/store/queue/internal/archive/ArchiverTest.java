package io.ankusa.store.queue.internal.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.archive.ArchiveSinkException;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.runtime.QueueLifecycleTest;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The drain's reading thread: a drain whose sink fails part-way waits for the read of the next
 * chunk it started, so no read of the store outlives the call. What the archiver promises on every
 * backend (reports, the watermark, refused syncs, failing reads, settling only what the sink
 * synced) is checked by the layout layer's {@code ArchiveCases}; this test pauses inside a read,
 * which only an implementation-aware test can place.
 */
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
  void aSyncFailingInTheMiddleOfADrainKeepsTheChunksSettledBeforeItAndLeavesNoReadRunning() {
    List<Long> seqs = ingest(10);
    AtomicInteger readAheadsStarted = new AtomicInteger();
    AtomicInteger readAheadsFinished = new AtomicInteger();
    Store counting =
        new ForwardingStore(store) {
          @Override
          public List<byte[]> multiGet(String family, List<byte[]> keys) {
            boolean readAhead = Thread.currentThread().getName().equals(Archiver.READER_THREAD);
            if (readAhead && readAheadsStarted.incrementAndGet() == 2) {
              pause(); // the read racing the failing sync is slow, so a drain that did not wait for
              // it would show
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
    Archiver archiver =
        new Archiver(
            DeliveryQueue.open(counting, QueueConfig.defaults().withArchive(true)),
            () -> Long.MAX_VALUE,
            sink,
            3);

    assertThatThrownBy(archiver::drain).isInstanceOf(ArchiveSinkException.class);
    int started = readAheadsStarted.get();
    assertThat(started).as("the next chunks were read on the reading thread").isEqualTo(2);
    assertThat(readAheadsFinished.get())
        .as("no read of the store outlives the drain")
        .isEqualTo(started);
    assertThat(obligations())
        .as("the first chunk is settled, the rest owed")
        .containsExactlyElementsOf(seqs.subList(3, 10));
    assertThat(queue.counters().aggregate(store).archivePending()).isEqualTo(7);

    assertThat(archiver.drain().settled()).isEqualTo(7);
    assertThat(sink.synced.keySet()).containsExactlyElementsOf(seqs);
    assertThat(QueueVerifier.verify(store)).isEmpty();
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
      if (syncCalls == failSyncNumber) {
        throw new ArchiveSinkException("test sink: sync refused");
      }
      for (int i = 0; i < appended.size(); i++) {
        synced.putIfAbsent(appended.get(i), envelopes.get(i));
      }
    }
  }
}
