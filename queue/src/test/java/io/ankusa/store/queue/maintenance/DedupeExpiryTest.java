package io.ankusa.store.queue.maintenance;

import static io.ankusa.store.queue.ingest.WriterFixture.assertClean;
import static io.ankusa.store.queue.ingest.WriterFixture.await;
import static io.ankusa.store.queue.ingest.WriterFixture.eventually;
import static io.ankusa.store.queue.ingest.WriterFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.counter.CounterFold;
import io.ankusa.store.queue.ingest.IngestResult.Outcome;
import io.ankusa.store.queue.ingest.IngestResult;
import io.ankusa.store.queue.ingest.QueueWriter;
import io.ankusa.store.queue.ingest.WriterFixture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Idempotency keys are forgotten after the TTL, in bounded chunks, by the sweep. */
class DedupeExpiryTest {
  private final WriterFixture fx = new WriterFixture();
  private final AtomicLong now = new AtomicLong(10_000);

  @AfterEach
  void close() {
    fx.close();
  }

  private static int count(io.ankusa.store.spi.ReadView view, KeyFamily family) {
    AtomicInteger n = new AtomicInteger();
    CounterFold.foldFamily(view, family, e -> n.incrementAndGet());
    return n.get();
  }

  @Test
  void sweepDeletesExpiredKeysInChunksAndOnlyThose() {
    WriterConfig config = WriterConfig.defaults().withDedupeTtlMs(1_000).withDedupeSweepIntervalMs(Long.MAX_VALUE / 4);
    try (QueueWriter writer = QueueWriter.start(fx.queue, config, now::get)) {
      List<CompletableFuture<IngestResult>> futures = new ArrayList<>();
      for (int i = 0; i < 1_200; i++) {
        futures.add(writer.ingest(request("t" + (i % 3), "key-" + i, 1)));
      }
      futures.forEach(f -> assertThat(await(f).outcome()).isEqualTo(Outcome.CREATED));
      now.set(20_000);
      assertThat(await(writer.ingest(request("late", "late-key", 1))).outcome()).isEqualTo(Outcome.CREATED);
    }
    assertThat(count(fx.store, KeyFamily.DEDUPE)).isEqualTo(1_201);
    assertThat(count(fx.store, KeyFamily.EXPIRY)).isEqualTo(1_201);
    assertThat(DedupeExpiry.sweep(fx.queue, 10_999, 5_000)).as("nothing expires early").isZero();
    assertThat(DedupeExpiry.sweep(fx.queue, 11_000, 700)).isEqualTo(700);
    assertThat(count(fx.store, KeyFamily.DEDUPE)).isEqualTo(501);
    assertThat(DedupeExpiry.sweep(fx.queue, 11_000, 5_000)).isEqualTo(500);
    assertThat(count(fx.store, KeyFamily.DEDUPE)).isEqualTo(1);
    assertThat(count(fx.store, KeyFamily.EXPIRY)).isEqualTo(1);
    assertThat(fx.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("late"), "late-key".getBytes()))).isNotNull();
    assertClean(fx.store);
  }

  @Test
  void theWriterSweepsAndAnExpiredKeyIsStoredAgain() {
    WriterConfig config = WriterConfig.defaults().withDedupeTtlMs(1_000).withDedupeSweepIntervalMs(1);
    try (QueueWriter writer = QueueWriter.start(fx.queue, config, now::get)) {
      IngestResult first = await(writer.ingest(request("acme", "k", 1)));
      assertThat(await(writer.ingest(request("acme", "k", 1)))).isEqualTo(IngestResult.duplicate(first.seq()));
      now.set(11_000);
      eventually("the idle writer swept the key",
          () -> fx.store.get(Format3.INDEX, Keys.dedupe(TenantId.of("acme"), "k".getBytes())) == null);
      IngestResult again = await(writer.ingest(request("acme", "k", 1)));
      assertThat(again.outcome()).isEqualTo(Outcome.CREATED);
      assertThat(again.seq()).isGreaterThan(first.seq());
    }
    assertClean(fx.store);
  }
}
