package io.ankusa.store.queue.internal.archive;

import static io.ankusa.store.queue.internal.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.await;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.internal.ingest.WriterFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.ingest.WriterFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The archiver beside a running {@link QueueWriter}: with the writer's WAL sync held, hooks are
 * applied (their obligations visible) but not durable, and the archiver, reading {@code
 * writer::durableSeq}, must leave them alone; after a fence their obligations are gone with their
 * hooks, so the archive holds only acknowledged hooks.
 */
class ArchiverWatermarkTest {

  @Test
  void appliedButNotDurableHooksWaitForTheSync() throws Exception {
    try (WriterFixture fx = new WriterFixture()) {
      List<Long> archived = new ArrayList<>();
      ArchiveSink sink = recording(archived);
      try (QueueWriter writer =
              QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(1));
          AutoCloseable openGate = fx.store::openSyncGate) {
        long first = await(writer.ingest(request("acme", "k0", 1))).seq();
        fx.store.holdSyncs();
        List<CompletableFuture<IngestResult>> pending = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
          pending.add(writer.ingest(request("acme", "k" + i, 1)));
        }
        // appliedSeq moves before the write, so wait for the rows themselves.
        eventually(
            "3 more hooks applied behind the held sync, their obligations visible",
            () -> obligations(fx).size() == 4);
        Archiver archiver = new Archiver(fx.queue, writer::durableSeq, sink, 8);

        assertThat(archiver.drain().settled()).isEqualTo(1);
        assertThat(archived).containsExactly(first);
        assertThat(obligations(fx))
            .hasSize(3)
            .allSatisfy(seq -> assertThat(seq).isGreaterThan(writer.durableSeq()));

        fx.store.openSyncGate();
        for (CompletableFuture<IngestResult> f : pending) {
          assertThat(await(f).outcome()).isEqualTo(Outcome.CREATED);
        }
        assertThat(archiver.drain().settled()).isEqualTo(3);
        assertThat(archived).containsExactly(first, first + 1, first + 2, first + 3);
        assertThat(obligations(fx)).isEmpty();
      }
      assertClean(fx.store);
    }
  }

  @Test
  void aFencedGroupNeverReachesTheArchive() throws Exception {
    try (WriterFixture fx = new WriterFixture()) {
      List<Long> archived = new ArrayList<>();
      try (QueueWriter writer =
              QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(1));
          AutoCloseable openGate = fx.store::openSyncGate) {
        long first = await(writer.ingest(request("acme", "k0", 1))).seq();
        fx.store.holdSyncs();
        CompletableFuture<IngestResult> refused = writer.ingest(request("acme", "k1", 1));
        fx.store.awaitHeldSync();
        Archiver archiver = new Archiver(fx.queue, writer::durableSeq, recording(archived), 8);
        archiver.drain();
        fx.store.failNextSync();
        fx.store.openSyncGate();
        assertThat(await(refused)).isEqualTo(IngestResult.unavailable(IngestResult.FENCED));
        // The refusal is sent before the writer deletes the unacknowledged group; wait for that
        // repair.
        eventually(
            "the writer repairs the fence and resumes",
            () -> writer.stats().fences() == 1 && !writer.isFenced());

        archiver.drain();
        assertThat(archived).containsExactly(first);
        assertThat(obligations(fx)).isEmpty();
      }
      assertClean(fx.store);
    }
  }

  private static List<Long> obligations(WriterFixture fx) {
    List<Long> seqs = new ArrayList<>();
    CounterFold.foldFamily(
        fx.store, KeyFamily.ARCHIVE, e -> seqs.add(ArchiveKey.decode(e.key()).seq()));
    return seqs;
  }

  /** A sink that records each synced seq once, in order. */
  private static ArchiveSink recording(List<Long> archived) {
    return new ArchiveSink() {
      private final List<Long> unsynced = new ArrayList<>();

      @Override
      public void append(long seq, byte[] envelope) {
        unsynced.add(seq);
      }

      @Override
      public void sync() {
        unsynced.stream().filter(s -> !archived.contains(s)).forEach(archived::add);
        unsynced.clear();
      }
    };
  }
}
