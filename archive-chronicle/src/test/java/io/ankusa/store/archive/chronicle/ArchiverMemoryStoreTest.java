package io.ankusa.store.archive.chronicle;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link Archiver} draining a queue on a memory store into the Chronicle sink: every hook comes
 * back from the reader in seq order with the exact bytes of its 'h' row, and no obligation is left.
 */
class ArchiverMemoryStoreTest {
  private static final QueueConfig CONFIG = QueueConfig.defaults().withArchive(true);

  @TempDir Path tmp;

  @Test
  void drainArchivesEveryHookWithItsExactBytes() {
    Path storeDir = tmp.resolve("store");
    Path archiveDir = tmp.resolve("archive");
    try (Store store =
            new MemoryStoreProvider().open(storeDir, StoreOptions.defaults(), Format3.families());
        ChronicleArchiveSink sink = ChronicleArchiveSink.open(archiveDir, ArchiveRollCycle.DAILY)) {
      DeliveryQueue queue = DeliveryQueue.open(store, CONFIG);
      DirectIngest ingest = new DirectIngest(queue);
      Random random = new Random(42);
      String[] tenants = {null, "acme", "globex"};
      int made = 0;
      for (int batch = 0; batch < 40; batch++) {
        List<HookEnvelope> hooks = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(8); i++) {
          byte[] payload = new byte[random.nextInt(1500)];
          random.nextBytes(payload);
          made++;
          hooks.add(
              new HookEnvelope(
                  0,
                  tenants[random.nextInt(3)],
                  "src",
                  "hook-" + made,
                  null,
                  1_700_000_000_000L + made,
                  List.of(1 + random.nextInt(3)),
                  payload));
        }
        ingest.ingest(hooks);
      }
      TreeMap<Long, byte[]> stored = QueueRows.hooks(store);
      assertThat(stored).hasSize(made);
      assertThat(QueueRows.obligations(store))
          .as("one obligation per hook")
          .isEqualTo(stored.keySet());
      assertThat(QueueRows.archivePending(store, CONFIG)).isEqualTo(made);

      Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, 32);
      Archiver.ChunkReport report = archiver.drain();

      assertThat(report.settled()).isEqualTo(made);
      assertThat(report.dropped()).isZero();
      assertThat(report.lastSeq()).isEqualTo(stored.lastKey());
      assertThat(QueueRows.obligations(store)).as("'a' rows left").isEmpty();
      assertThat(QueueRows.archivePending(store, CONFIG)).as("archive_pending counter").isZero();
      try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(archiveDir)) {
        List<ArchivedHook> archived = ChronicleArchiveSinkTest.replay(reader, 1, Long.MAX_VALUE);
        assertThat(archived).containsExactlyElementsOf(ChronicleArchiveSinkTest.hooks(stored));
        assertThat(archived.get(0).decode().hookId()).isEqualTo("hook-1");
        assertThat(archived.get(archived.size() - 1).decode().hookId()).isEqualTo("hook-" + made);
      }
    } finally {
      MemoryStoreProvider.discard(storeDir);
    }
  }
}
