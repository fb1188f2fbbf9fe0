package io.ankusa.store.queue.ingest;

import static io.ankusa.store.queue.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.ingest.WriterFixture.await;
import static io.ankusa.store.queue.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.ingest.WriterFixture.request;
import static io.ankusa.store.queue.ingest.WriterFixture.storedSeqs;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.ingest.IngestResult.Outcome;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The writer reads the next group's idempotency keys on its lookahead thread while it writes the group
 * before it. Each test holds that write at a gate until the read has run, so the read sees the store
 * without the group being written — the interleaving the lookahead makes possible — and checks what
 * the writer answers.
 *
 * <p>Groups: {@code g0} is one request, whose write is held while the test queues {@code g1} (a
 * full group of fresh keys) and {@code g2} (a full group: one key of {@code g1} again, and enough
 * fresh keys to go to the lookahead thread). Once {@code g0} is written, the writer builds {@code
 * g1}, prepares {@code g2} and waits at the gate to write {@code g1}.
 */
class WriterLookaheadTest {
  private static final int GROUP = QueueWriter.LOOKAHEAD_MIN_KEYS + 1;
  private final WriterFixture fx = new WriterFixture();

  @AfterEach
  void close() {
    fx.close();
  }

  /** The three groups' futures, with {@code g1}'s write held after {@code g2}'s read (or its failure). */
  private record Groups(CompletableFuture<IngestResult> g0, List<CompletableFuture<IngestResult>> g1,
      List<CompletableFuture<IngestResult>> g2) {}

  private Groups queueThreeGroupsAndHoldTheSecondWrite(QueueWriter writer) {
    fx.store.holdWriterWrites();
    CompletableFuture<IngestResult> g0 = writer.ingest(request("t", "zero", 1));
    eventually("g0's write is held", () -> fx.store.writerWritesWaiting() == 1);
    List<CompletableFuture<IngestResult>> g1 = new ArrayList<>();
    for (int i = 0; i < GROUP; i++) {
      g1.add(writer.ingest(request("t", "one-" + i, 1)));
    }
    List<CompletableFuture<IngestResult>> g2 = new ArrayList<>();
    g2.add(writer.ingest(request("t", "one-0", 1)));
    for (int i = 1; i < GROUP; i++) {
      g2.add(writer.ingest(request("t", "two-" + i, 1)));
    }
    int readsBefore = fx.store.lookaheadReads();
    fx.store.releaseWriterWrites(1);
    eventually("g2's keys were handed to the lookahead thread", () -> fx.store.lookaheadReads() == readsBefore + 1);
    eventually("g1's write is held", () -> fx.store.writerWritesWaiting() == 1);
    return new Groups(g0, g1, g2);
  }

  @Test
  void aKeyOfTheGroupBeingWrittenIsADuplicateInTheNextGroupThoughItsReadCameFirst() {
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(GROUP))) {
      Groups groups = queueThreeGroupsAndHoldTheSecondWrite(writer);
      fx.store.openWriterWriteGate();
      assertThat(await(groups.g0()).outcome()).isEqualTo(Outcome.CREATED);
      long firstOfG1 = await(groups.g1().get(0)).seq();
      assertThat(groups.g1().stream().map(WriterFixture::await)).allMatch(r -> r.outcome() == Outcome.CREATED);
      IngestResult repeat = await(groups.g2().get(0));
      assertThat(repeat.outcome()).as("g2's repeat of a g1 key, read before g1 was in the store").isEqualTo(Outcome.DUPLICATE);
      assertThat(repeat.seq()).isEqualTo(firstOfG1);
      assertThat(groups.g2().subList(1, GROUP).stream().map(WriterFixture::await))
          .allMatch(r -> r.outcome() == Outcome.CREATED);
    }
    assertThat(storedSeqs(fx.store)).hasSize(1 + GROUP + GROUP - 1);
    assertClean(fx.store);
  }

  @Test
  void aFailedWriteFencesTheGroupWhoseKeysWereBeingRead() {
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(GROUP))) {
      Groups groups = queueThreeGroupsAndHoldTheSecondWrite(writer);
      assertThat(await(groups.g0()).outcome()).isEqualTo(Outcome.CREATED);
      fx.store.failNextNoSyncWrite(false);
      fx.store.openWriterWriteGate();
      IngestResult fenced = IngestResult.unavailable(IngestResult.FENCED);
      assertThat(groups.g1().stream().map(WriterFixture::await)).allMatch(fenced::equals);
      assertThat(groups.g2().stream().map(WriterFixture::await))
          .as("the group prepared behind the failed write is refused, not built")
          .allMatch(fenced::equals);
      eventually("the writer resumes", () -> !writer.isFenced());
      IngestResult retry = await(writer.ingest(request("t", "one-0", 1)));
      assertThat(retry.outcome()).as("a refused request's retry stores it").isEqualTo(Outcome.CREATED);
    }
    assertThat(storedSeqs(fx.store)).hasSize(2);
    assertClean(fx.store);
  }

  @Test
  void aFailedLookaheadReadFencesItsGroupOnly() {
    try (QueueWriter writer = QueueWriter.start(fx.queue, WriterConfig.defaults().withMaxGroupHooks(GROUP))) {
      fx.store.failNextLookaheadRead(new StoreException("injected failure of the lookahead read"));
      Groups groups = queueThreeGroupsAndHoldTheSecondWrite(writer);
      assertThat(await(groups.g0()).outcome()).isEqualTo(Outcome.CREATED);
      fx.store.openWriterWriteGate();
      IngestResult fenced = IngestResult.unavailable(IngestResult.FENCED);
      assertThat(groups.g2().stream().map(WriterFixture::await))
          .as("the group whose read failed is refused")
          .allMatch(fenced::equals);
      eventually("the writer resumes", () -> !writer.isFenced());
      IngestResult retry = await(writer.ingest(request("t", "two-1", 1)));
      assertThat(retry.outcome()).isEqualTo(Outcome.CREATED);
    }
    assertClean(fx.store);
  }
}
