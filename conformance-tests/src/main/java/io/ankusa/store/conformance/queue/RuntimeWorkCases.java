package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.DISPATCHER;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.delivering;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.request;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.settings;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.startStepped;
import static io.ankusa.store.conformance.queue.WriterChecks.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.TenantLimits;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.DedupeExpiry;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.metrics.QueueMetrics;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.queue.internal.runtime.RuntimeSettings;
import io.ankusa.store.queue.internal.tenant.TenantLimitException;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import net.jqwik.api.Example;

/**
 * What a running {@link QueueRuntime} on the backend's store does: its loops' work (dispatch on the
 * writer's durable watermark, the writer's dedupe expiry), its metrics against the rows, and the
 * tenant allocation its writer does (the cap, the ordinal cache). Its lifecycle is {@link
 * RuntimeCases}.
 *
 * <p>The loops are stepped, never waited for: a case passes a {@link SteppedLoops} pacer and lets
 * each loop run one lap at a time, on a logical clock ({@link SteppedRuntimes#startStepped}).
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface RuntimeWorkCases extends LayoutCase {
  /**
   * The dispatcher is bound to the writer's durable watermark: a hook applied to the store but
   * whose WAL sync is held is visible, yet a lap of the dispatcher claims nothing; once the sync
   * completes and the hook is acknowledged, the next lap claims it.
   */
  @Example
  default void rowsAboveTheDurableSeqAreNeverClaimed() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      HeldSyncStore store = new HeldSyncStore(t.store());
      SteppedLoops loops = new SteppedLoops();
      List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
      try (QueueRuntime runtime =
          startStepped(
              store,
              queueConfig(),
              RuntimeSettings.defaults(),
              delivering(delivered),
              null,
              () -> START,
              loops)) {
        store.holdNextSync();
        CompletableFuture<IngestResult> answer = runtime.writer().ingest(request("acme", null, 1));
        try {
          store.awaitHeldSync();
          assertThat(runtime.writer().appliedSeq()).as("applied before its sync").isEqualTo(1);
          assertThat(new QueueDriver(runtime.queue()).hooks())
              .as("the hook is in the store")
              .hasSize(1);
          loops.lap(DISPATCHER);
          assertThat(delivered).as("claimed while its sync is held").isEmpty();
        } finally {
          store.release(false);
        }
        assertThat(await(answer)).isEqualTo(IngestResult.created(1));
        loops.lap(DISPATCHER);
        assertThat(delivered).as("claimed once durable").containsExactly(1L);
      }
    }
  }

  /**
   * Dedupe expiry removes only expired entries: 600 idempotency keys stored through the runtime's
   * writer with a 1 s TTL and one more stored 10 s later; a sweep at one millisecond before their
   * expiry deletes nothing, then sweeps at their expiry delete 550 (as asked, across chunks of
   * {@value DedupeExpiry#CHUNK}) and the other 50, each with its expiry key, and the later key is
   * kept.
   */
  @Example
  default void dedupeExpiryRemovesOnlyExpiredEntries() {
    try (TempDirStore t = openQueueStore()) {
      AtomicLong now = new AtomicLong(START);
      WriterConfig config =
          WriterConfig.defaults()
              .withDedupeTtlMs(1_000)
              .withDedupeSweepIntervalMs(Long.MAX_VALUE / 4);
      try (QueueRuntime runtime =
          startStepped(
              t.store(),
              queueConfig(),
              settings(config),
              delivering(ConcurrentHashMap.newKeySet()),
              null,
              now::get,
              new SteppedLoops())) {
        List<CompletableFuture<IngestResult>> answers = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
          answers.add(runtime.writer().ingest(request("t" + (i % 3), "key-" + i, 1)));
        }
        answers.forEach(a -> assertThat(await(a).outcome()).isEqualTo(Outcome.CREATED));
        now.set(START + 10_000);
        assertThat(await(runtime.writer().ingest(request("late", "late-key", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        DeliveryQueue queue = runtime.queue();
        assertThat(count(t.store(), KeyFamily.DEDUPE)).isEqualTo(601);
        assertThat(count(t.store(), KeyFamily.EXPIRY)).isEqualTo(601);
        assertThat(DedupeExpiry.sweep(queue, START + 999, 5_000))
            .as("nothing expires early")
            .isZero();
        assertThat(DedupeExpiry.sweep(queue, START + 1_000, 550))
            .as("a sweep limited to 550")
            .isEqualTo(550);
        assertThat(count(t.store(), KeyFamily.DEDUPE)).isEqualTo(51);
        assertThat(count(t.store(), KeyFamily.EXPIRY)).isEqualTo(51);
        assertThat(DedupeExpiry.sweep(queue, START + 1_000, 5_000)).isEqualTo(50);
        assertThat(count(t.store(), KeyFamily.DEDUPE)).isEqualTo(1);
        assertThat(count(t.store(), KeyFamily.EXPIRY)).isEqualTo(1);
        assertThat(
                t.store()
                    .get(Format3.INDEX, Keys.dedupe(TenantId.of("late"), "late-key".getBytes())))
            .as("the later key is kept")
            .isNotNull();
      }
      assertCountersEqualFold(t.store(), "after the sweeps");
    }
  }

  /**
   * The runtime's writer sweeps dedupe keys itself: a key is honoured (DUPLICATE of the first seq)
   * until its TTL has passed and a group has been written since, after which the same key is stored
   * again under a new seq.
   */
  @Example
  default void theRuntimesWriterForgetsAnExpiredKey() {
    try (TempDirStore t = openQueueStore()) {
      AtomicLong now = new AtomicLong(START);
      WriterConfig config =
          WriterConfig.defaults().withDedupeTtlMs(1_000).withDedupeSweepIntervalMs(1);
      try (QueueRuntime runtime =
          startStepped(
              t.store(),
              queueConfig(),
              settings(config),
              delivering(ConcurrentHashMap.newKeySet()),
              null,
              now::get,
              new SteppedLoops())) {
        IngestResult first = await(runtime.writer().ingest(request("acme", "k", 1)));
        assertThat(await(runtime.writer().ingest(request("acme", "k", 1))))
            .isEqualTo(IngestResult.duplicate(first.seq()));
        now.set(START + 1_000);
        // the writer sweeps after this group (or idle before it); the next group is applied after
        // that sweep
        assertThat(await(runtime.writer().ingest(request("acme", "other", 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        IngestResult again = await(runtime.writer().ingest(request("acme", "k", 1)));
        assertThat(again.outcome()).as("the expired key stored again").isEqualTo(Outcome.CREATED);
        assertThat(again.seq()).isGreaterThan(first.seq());
      }
      assertCountersEqualFold(t.store(), "after the writer's sweep");
    }
  }

  /**
   * The metrics of a runtime ({@link QueueMetrics#of}) equal what the rows say after a known
   * sequence: five rows ingested (one answer a DUPLICATE), a dispatch lap whose handler delivers
   * sink 1, retries sink 2 a minute later, dead-letters sink 4 and keeps sink 3 inflight, acme
   * capped at one row inflight so one of its rows stays due; then every state gauge, the bytes, the
   * archive backlog, the oldest due age (on the runtime's logical clock), the tenants, the
   * per-tenant pending, the tenants the last tick visited and the ingest answers by outcome; the
   * writer's durable lag is 1 while a sync is held, 0 once it completed, and no fence is counted.
   */
  @Example
  default void theMetricsOfARuntimeEqualWhatTheRowsSay() throws InterruptedException {
    try (TempDirStore t = openQueueStore()) {
      HeldSyncStore store = new HeldSyncStore(t.store());
      SteppedLoops loops = new SteppedLoops();
      long now = START + 10_000;
      AtomicReference<Runnable> duringTicks = new AtomicReference<>(() -> {});
      try (QueueRuntime runtime =
          startStepped(
              store,
              queueConfig().withArchive(true),
              RuntimeSettings.defaults(),
              settleBySink(duringTicks),
              new RecordingArchiveSink(),
              () -> now,
              loops)) {
        QueueMetrics metrics = QueueMetrics.of(runtime);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        metrics.bindTo(registry);
        List<String> visitedEachTick = Collections.synchronizedList(new ArrayList<>());
        duringTicks.set(
            () -> {
              metrics.refresh(); // a scrape's refresh while the dispatcher handles a tick
              visitedEachTick.add(
                  runtime.lastTick().tenantsVisited()
                      + " visited, gauge "
                      + (int) registry.get("ankusa_dispatch_active_tenants").gauge().value());
            });
        assertThat(registry.get("ankusa_queue_state").tag("state", "pending").gauge().value())
            .as("pending before the first refresh")
            .isZero();
        List<IngestRequest> requests =
            List.of(
                request("acme", "h1", 1, 2),
                request("acme", "h2", 3),
                request("globex", "h3", 1, 4),
                request("acme", "h4", 1),
                request("acme", "h1", 1, 2));
        for (IngestRequest r : requests) {
          metrics.recordIngest(await(runtime.writer().ingest(r)));
        }
        TenantLimits.set(runtime.queue(), TenantId.of("acme"), new TenantLimitsValue(1, 1, 0));
        loops.lap(DISPATCHER);
        assertThat(visitedEachTick)
            .as("tenants each tick visited, and the gauge refreshed during it")
            .startsWith("2 visited, gauge 2")
            .allMatch(v -> v.matches("(\\d+) visited, gauge \\1"));
        metrics.refresh();

        TenantCounts rows = CounterFold.fold(t.store()).getOrDefault(0L, TenantCounts.ZERO);
        assertThat(rows).as("what the rows say").isEqualTo(new TenantCounts(1, 1, 1, 1, 40, 4));
        assertThat(gauge(registry, "ankusa_queue_state", "state", "pending"))
            .isEqualTo(rows.pending());
        assertThat(gauge(registry, "ankusa_queue_state", "state", "scheduled"))
            .isEqualTo(rows.scheduled());
        assertThat(gauge(registry, "ankusa_queue_state", "state", "inflight"))
            .isEqualTo(rows.inflight());
        assertThat(gauge(registry, "ankusa_queue_state", "state", "dead")).isEqualTo(rows.dead());
        assertThat(registry.get("ankusa_queue_bytes").gauge().value()).isEqualTo(rows.bytes());
        assertThat(registry.get("ankusa_queue_archive_pending").gauge().value())
            .isEqualTo(rows.archivePending());
        assertThat(registry.get("ankusa_queue_oldest_due_age_seconds").gauge().value())
            .as("acme's due row, received at START, on the runtime's clock at START + 10 s")
            .isEqualTo(10.0);
        assertThat(registry.get("ankusa_tenants").gauge().value()).isEqualTo(2);
        assertThat(gauge(registry, "ankusa_tenant_pending", "tenant", "acme")).isEqualTo(1);
        assertThat(registry.find("ankusa_tenant_pending").tag("tenant", "globex").gauge())
            .as("globex has nothing pending")
            .isNull();
        assertThat(registry.get("ankusa_dispatch_active_tenants").gauge().value())
            .as("the tenants the last tick visited")
            .isEqualTo(runtime.lastTick().tenantsVisited());
        assertThat(registry.get("ankusa_ingest").tag("outcome", "created").counter().count())
            .isEqualTo(4);
        assertThat(registry.get("ankusa_ingest").tag("outcome", "duplicate").counter().count())
            .isEqualTo(1);
        assertThat(registry.get("ankusa_ingest").tag("outcome", "unavailable").counter().count())
            .isZero();

        SimpleMeterRegistry late = new SimpleMeterRegistry();
        metrics.bindTo(late);
        assertThat(gauge(late, "ankusa_tenant_pending", "tenant", "acme"))
            .as("a registry bound after a refresh")
            .isEqualTo(1);
        SimpleMeterRegistry queueOnly = new SimpleMeterRegistry();
        new QueueMetrics(runtime.queue(), () -> now).bindTo(queueOnly);
        assertThat(queueOnly.find("ankusa_writer_fences").meter())
            .as("no writer, no writer metrics")
            .isNull();
        assertThat(queueOnly.find("ankusa_writer_durable_lag").meter()).isNull();

        assertThat(registry.get("ankusa_writer_durable_lag").gauge().value()).isZero();
        store.holdNextSync();
        CompletableFuture<IngestResult> held = runtime.writer().ingest(request("acme", "h5", 1));
        try {
          store.awaitHeldSync();
          assertThat(registry.get("ankusa_writer_durable_lag").gauge().value())
              .as("one hook applied, its sync held")
              .isEqualTo(1);
        } finally {
          store.release(false);
        }
        assertThat(await(held).outcome()).isEqualTo(Outcome.CREATED);
        assertThat(registry.get("ankusa_writer_durable_lag").gauge().value())
            .as("lag once durable")
            .isZero();
        assertThat(registry.get("ankusa_writer_fences").functionCounter().count())
            .as("fences")
            .isEqualTo(runtime.writer().stats().fences())
            .isZero();
      }
    }
  }

  /**
   * The tenant cap through the runtime's writer: with {@code tenants.max = 2} a third tenant's hook
   * is answered TENANT_LIMIT and leaves no ordinal, while both existing tenants still ingest; the
   * same refusal from a direct ingest is a {@link TenantLimitException} naming the tenant and the
   * cap.
   */
  @Example
  default void theTenantCapIsRefusedNamingTheTenantAndTheCap() {
    QueueConfig capped = queueConfig().withTenantsMax(2);
    try (TempDirStore t = openQueueStore()) {
      try (QueueRuntime runtime =
          startStepped(
              t.store(),
              capped,
              RuntimeSettings.defaults(),
              delivering(ConcurrentHashMap.newKeySet()),
              null,
              () -> START,
              new SteppedLoops())) {
        assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        assertThat(await(runtime.writer().ingest(request("globex", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        IngestResult third = await(runtime.writer().ingest(request("initech", null, 1)));
        assertThat(third.outcome())
            .as("a third tenant at tenants.max = 2")
            .isEqualTo(Outcome.TENANT_LIMIT);
        assertThat(Tenants.ord(t.store(), TenantId.of("initech"))).isEmpty();
        assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
        assertThat(await(runtime.writer().ingest(request("globex", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
      }
      QueueDriver d = new QueueDriver(t.store(), capped);
      TenantLimitException refused =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              TenantLimitException.class,
              () -> d.ingest().ingest(d.newHook("initech", START, 1, 4)));
      assertThat(refused).as("a direct ingest of a third tenant").isNotNull();
      assertThat(refused.tenant()).isEqualTo("initech");
      assertThat(refused.tenantsMax()).isEqualTo(2);
      assertThat(refused)
          .hasMessageContaining("'initech'")
          .hasMessageContaining("tenant number 3")
          .hasMessageContaining("tenants.max is 2");
      assertThat(Tenants.nextOrdinal(t.store())).isEqualTo(3);
      assertThat(QueueVerifier.verify(t.store())).isEmpty();
    }
  }

  /**
   * Ordinals are cached per tenant: once a batch of acme and globex is written, the next batches of
   * the same tenants read no tenant row; and they stay correct when another queue on the same store
   * allocates: a second queue's new tenant takes the next ordinal, and the first queue, used again,
   * still files acme and globex under their ordinals and gives its own new tenant the one after.
   */
  @Example
  default void ordinalsAreCachedPerTenantYetCorrectAfterAnotherQueueAllocates() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore recording = new RecordingStore(t.store());
      QueueDriver first = new QueueDriver(recording, queueConfig());
      first.ingest().ingest(List.of(hook(first, "acme"), hook(first, "globex")));
      assertThat(first.queue().ordinalCache().size())
          .as("ordinals cached after the first batch")
          .isEqualTo(2);
      recording.clearReads();
      first.ingest().ingest(List.of(hook(first, "globex"), hook(first, "acme")));
      assertThat(recording.pointReads())
          .as("reads of the tenants family for tenants the queue created")
          .noneMatch(r -> r.family().equals(Format3.TENANTS));

      RecordingStore secondRecording = new RecordingStore(t.store());
      QueueDriver second = new QueueDriver(secondRecording, queueConfig());
      second.ingest().ingest(List.of(hook(second, "initech"), hook(second, "acme")));
      assertThat(Tenants.ord(t.store(), TenantId.of("initech")))
          .as("the second queue's new tenant")
          .hasValue(3);
      assertThat(second.queue().ordinalCache().get(TenantId.of("acme")))
          .as("acme, found in the store, cached")
          .isEqualTo(1L);
      secondRecording.clearReads();
      second.ingest().ingest(List.of(hook(second, "acme"), hook(second, "initech")));
      assertThat(secondRecording.pointReads())
          .as("reads of the tenants family for tenants the queue found or created")
          .noneMatch(r -> r.family().equals(Format3.TENANTS));

      DirectIngest again = new DirectIngest(first.queue());
      again.ingest(List.of(hook(first, "acme"), hook(first, "hooli"), hook(first, "globex")));
      assertThat(Tenants.ord(t.store(), TenantId.of("acme"))).hasValue(1);
      assertThat(Tenants.ord(t.store(), TenantId.of("globex"))).hasValue(2);
      assertThat(Tenants.ord(t.store(), TenantId.of("hooli")))
          .as("the first queue's next new tenant")
          .hasValue(4);
      assertThat(Tenants.name(t.store(), 3))
          .as("'t' 3 still initech")
          .contains(TenantId.of("initech"));
      assertThat(QueueVerifier.verify(t.store())).isEmpty();
      assertCountersEqualFold(t.store(), "after two queues allocated");
    }
  }

  // ------------------------------------------------------------------ helpers

  private static double gauge(SimpleMeterRegistry registry, String name, String tag, String value) {
    return registry.get(name).tag(tag, value).gauge().value();
  }

  private static int count(ReadView view, KeyFamily family) {
    AtomicInteger n = new AtomicInteger();
    CounterFold.foldFamily(view, family, e -> n.incrementAndGet());
    return n.get();
  }

  /**
   * Sink 1 delivered, sink 2 retried a minute later, sink 3 left inflight, sink 4 dead-lettered.
   */
  private static TickHandler settleBySink(AtomicReference<Runnable> duringTicks) {
    return (queue, tick, now) -> {
      duringTicks.get().run();
      Transition t = new Transition();
      for (InflightRow row : tick.claimed()) {
        DeliveryRow state =
            DeliveryRow.decode(
                queue
                    .store()
                    .get(Format3.DELIVERIES, Keys.delivery(row.key().seq(), row.key().sink())));
        switch (row.key().sink()) {
          case 1 -> Deliveries.delivered(t, row);
          case 2 -> Deliveries.retry(t, row, state, now + 60_000, "503");
          case 4 -> Deliveries.deadLetter(t, row, state, now, "src", "h", "410 gone");
          default -> {}
        }
      }
      queue.write(t, Durability.NO_SYNC);
    };
  }
}
