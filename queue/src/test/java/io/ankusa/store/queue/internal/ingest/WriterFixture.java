package io.ankusa.store.queue.internal.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.WriterFaultStore;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A memory store (wrapped in a {@link WriterFaultStore}), its queue, and helpers for writer tests.
 */
public final class WriterFixture implements AutoCloseable {
  final Path dir = Path.of("/memory", UUID.randomUUID().toString());
  public final WriterFaultStore store;
  public final DeliveryQueue queue;

  public WriterFixture(QueueConfig config) {
    Store memory =
        StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    store = new WriterFaultStore(memory);
    queue = DeliveryQueue.open(store, config);
  }

  public WriterFixture() {
    this(QueueConfig.defaults().withArchive(true));
  }

  @Override
  public void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  public static IngestRequest request(String tenant, String idempotencyKey, int... sinks) {
    List<Integer> s = new ArrayList<>();
    for (int sink : sinks) {
      s.add(sink);
    }
    return new IngestRequest(
        tenant,
        "src",
        UUID.randomUUID().toString(),
        idempotencyKey,
        1_000,
        s,
        ("payload of " + tenant).getBytes(StandardCharsets.UTF_8));
  }

  public static IngestResult await(CompletableFuture<IngestResult> f) {
    try {
      return f.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("ingest did not complete: " + e, e);
    }
  }

  /**
   * Polls {@code condition} until true, failing after 30 s (a liveness bound, not a timing
   * assertion).
   */
  public static void eventually(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not reached within 30 s: " + what);
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  /** The seqs of every hook envelope in the store. */
  public static TreeSet<Long> storedSeqs(ReadView view) {
    TreeSet<Long> seqs = new TreeSet<>();
    CounterFold.foldFamily(
        view,
        io.ankusa.store.layout.KeyFamily.HOOK,
        e -> seqs.add(HookEnvelope.decode(e.value()).seq()));
    return seqs;
  }

  /** Counters equal a fold, tenant by tenant, and the verifier finds nothing. */
  public static void assertClean(ReadView view) {
    Map<Long, TenantCounts> stored = Counters.readAll(view);
    Map<Long, TenantCounts> folded = CounterFold.fold(view);
    TreeSet<Long> ords = new TreeSet<>(stored.keySet());
    ords.addAll(folded.keySet());
    for (long ord : ords) {
      assertThat(stored.getOrDefault(ord, TenantCounts.ZERO))
          .as("counters of ord %d equal a fold", ord)
          .isEqualTo(folded.getOrDefault(ord, TenantCounts.ZERO));
    }
    assertThat(QueueVerifier.verify(view)).isEmpty();
  }
}
