package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.ActiveKey;
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
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TenantLimits;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.DedupeExpiry;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.metrics.QueueMetrics;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.queue.internal.runtime.RuntimeSettings;
import io.ankusa.store.queue.internal.tenant.TenantLimitException;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import net.jqwik.api.Example;

/**
 * The queue as an embedder runs it: one {@link QueueRuntime} on the backend's store — its lifecycle
 * (start, close, close again, refusal after close, no thread left), recovery of an unclean stop
 * before the first claim, the loops' work (dispatch on the durable watermark, archive, reclaim, the
 * writer's dedupe expiry), fail-stop, its settings' bounds, its metrics, and the tenant allocation
 * its writer does (the cap, the ordinal cache).
 *
 * <p>The loops are stepped, never waited for: a case passes a {@link SteppedLoops} pacer and lets
 * each loop run one lap at a time, on a logical clock. Only the lifecycle case runs the default
 * pacing ({@link io.ankusa.store.queue.internal.runtime.LoopPacer#PARK}), and checks nothing that
 * depends on when a loop ran.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface RuntimeCases extends LayoutCase {
  /**
   * The runtime's loops, as {@link io.ankusa.store.queue.internal.runtime.LoopPacer} and {@link
   * QueueRuntime#stopped()} name them.
   */
  String DISPATCHER = "dispatcher";

  String ARCHIVER = "archiver";
  String RECLAIM = "reclaim";
  String WRITER = "writer";

  /**
   * Lifecycle: a started runtime runs its writer, syncer, dispatcher and reclaim threads (daemons,
   * by their documented names; no archiver without a sink) and takes hooks; {@code close()} stops
   * them in reverse start order and leaves none alive; a second {@code close()} does nothing; a
   * hook offered after the close is refused UNAVAILABLE {@code "closed"}, not lost silently; and
   * the store is free again: a new runtime on it — its loops paused for an hour between laps, which
   * close ends at once — sees every hook and goes on numbering after them.
   */
  @Example
  default void runtimeStartsClosesOnceAndRefusesWorkAfterClose() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      Set<Long> delivered = ConcurrentHashMap.newKeySet();
      QueueRuntime runtime = QueueRuntime.start(t.store(), queueConfig(), delivering(delivered));
      List<Thread> threads = runtime.threads();
      assertThat(threads)
          .extracting(Thread::getName)
          .as("the runtime's threads")
          .containsExactlyInAnyOrder(
              QueueWriter.WRITER_THREAD,
              QueueWriter.SYNCER_THREAD,
              QueueRuntime.DISPATCHER_THREAD,
              QueueRuntime.RECLAIM_THREAD);
      assertThat(threads).as("every thread of the runtime is a daemon").allMatch(Thread::isDaemon);
      for (int i = 0; i < 3; i++) {
        assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
            .isEqualTo(Outcome.CREATED);
      }
      runtime.close();
      assertThat(runtime.stopped())
          .as("close stops in reverse start order")
          .containsExactly(RECLAIM, DISPATCHER, WRITER);
      assertThat(threads).as("no thread of the runtime outlives close").noneMatch(Thread::isAlive);
      assertThat(runtime.failure()).as("a clean run has no failure").isEmpty();
      IngestResult after = await(runtime.writer().ingest(request("acme", null, 1)));
      assertThat(after)
          .as("a hook offered after close")
          .isEqualTo(IngestResult.unavailable(IngestResult.CLOSED));
      runtime.close();
      assertThat(runtime.stopped()).as("a second close stops nothing again").hasSize(3);
      assertThat(runtime.queue().lastSeq()).as("the refused hook got no seq").isEqualTo(3);

      RuntimeSettings hourLong =
          new RuntimeSettings(
              WriterConfig.defaults(), 512, 4L << 20, 3_600_000, 10_000, 3_600_000, 100, 3_600_000);
      try (QueueRuntime again =
          QueueRuntime.start(
              t.store(),
              queueConfig(),
              hourLong,
              delivering(delivered),
              null,
              System::currentTimeMillis)) {
        assertThat(again.queue().lastSeq())
            .as("the next runtime sees the hooks of the first")
            .isEqualTo(3);
        assertThat(await(again.writer().ingest(request("acme", null, 1))))
            .as("the next runtime numbers after them")
            .isEqualTo(IngestResult.created(4));
        closeWithin(again);
        assertThat(again.threads())
            .as("close ends an hour-long pause at once")
            .noneMatch(Thread::isAlive);
      }
      assertCountersEqualFold(t.store(), "after two runtimes");
    }
  }

  /**
   * Close with an archive: the loops stop in reverse start order (reclaim, archiver, dispatcher,
   * writer), and the archiver's last drain settles every obligation up to the durable watermark, so
   * every hook acknowledged before the close is in the synced archive once and none is owed; a lap
   * of the archiver before the close settles exactly the hooks then durable.
   */
  @Example
  default void closeStopsInReverseStartOrderAndDrainsTheArchive() {
    try (TempDirStore t = openQueueStore()) {
      SteppedLoops loops = new SteppedLoops();
      RecordingArchiveSink sink = new RecordingArchiveSink();
      QueueRuntime runtime =
          startStepped(
              t.store(),
              queueConfig().withArchive(true),
              RuntimeSettings.defaults(),
              delivering(ConcurrentHashMap.newKeySet()),
              sink,
              () -> START,
              loops);
      assertThat(runtime.threads())
          .extracting(Thread::getName)
          .contains(QueueRuntime.ARCHIVER_THREAD);
      ingestCreated(runtime, 5);
      loops.lap(ARCHIVER);
      assertThat(runtime.archived().settled())
          .as("settled by one lap of the archiver")
          .isEqualTo(5);
      assertThat(sink.synced().keySet()).containsExactly(1L, 2L, 3L, 4L, 5L);
      ingestCreated(runtime, 5);
      assertThat(runtime.archived().settled()).as("the archiver is held between laps").isEqualTo(5);
      List<Thread> threads = runtime.threads();
      runtime.close();
      assertThat(runtime.stopped()).containsExactly(RECLAIM, ARCHIVER, DISPATCHER, WRITER);
      assertThat(threads).as("no thread of the runtime outlives close").noneMatch(Thread::isAlive);
      assertThat(runtime.archived().settled())
          .as("the close's drain settles the other five")
          .isEqualTo(10);
      assertThat(new TreeSet<>(sink.synced().keySet()))
          .as("every acknowledged hook archived")
          .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
      assertThat(sink.appended()).as("each hook appended once").hasSize(10);
      assertThat(new QueueDriver(runtime.queue()).archiveObligations())
          .as("obligations after close")
          .isEmpty();
      assertCountersEqualFold(t.store(), "after close drained the archive");
    }
  }

  /**
   * Recovery on open after an unclean stop: an earlier run died with two rows inflight and a crash
   * left a due row without its marker; {@code start} makes both inflight rows due again and repairs
   * the marker before anything is served ({@link QueueRuntime#recovery()} says 2 recovered, 0
   * orphans, 1 marker), so the dispatcher's first lap hands every row to the handler once, and one
   * reclaim lap then deletes every settled hook.
   */
  @Example
  default void startRecoversAnUncleanStopBeforeTheFirstClaim() {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver before = new QueueDriver(t.store(), queueConfig());
      before
          .ingest()
          .ingest(
              List.of(
                  before.newHook("acme", START, 1, 10),
                  before.newHook("acme", START, 1, 10),
                  before.newHook("acme", START, 1, 10)));
      assertThat(
              new Dispatcher(before.queue(), () -> Long.MAX_VALUE, 2, Long.MAX_VALUE)
                  .tick(START + 1_000)
                  .rowsClaimed())
          .as("the earlier run claimed two rows")
          .isEqualTo(2);
      before.ingest().ingest(before.newHook("globex", START + 2_000, 1, 10));
      Batch dropMarker = new Batch();
      Deliveries.deleteMarker(
          dropMarker, new ActiveKey(ActiveKey.bucketOf(START + 2_000), ordOf(t.store(), "globex")));
      t.store().write(dropMarker, Durability.SYNC);

      SteppedLoops loops = new SteppedLoops();
      List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
      try (QueueRuntime runtime =
          startStepped(
              t.store(),
              queueConfig(),
              RuntimeSettings.defaults(),
              delivering(delivered),
              null,
              () -> START + 60_000,
              loops)) {
        assertThat(runtime.recovery())
            .as("what recovery did")
            .isEqualTo(new InflightRecovery.Result(2, 0, 1));
        assertThat(delivered)
            .as("the first lap delivers the recovered rows and the one whose marker was repaired")
            .containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        assertThat(runtime.lastTick().rowsClaimed())
            .as("the lap ends on a tick that found nothing")
            .isZero();
        loops.lap(RECLAIM);
        assertThat(runtime.reclaimedHooks())
            .as("hooks reclaimed once every row is delivered")
            .isEqualTo(4);
        assertThat(new QueueDriver(runtime.queue()).hooks()).as("hooks left").isEmpty();
      }
      assertCountersEqualFold(t.store(), "after the runtime delivered and reclaimed");
      assertThat(QueueVerifier.verify(t.store())).isEmpty();
    }
  }

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
   * Fail-stop: a handler that throws stops every component from the failing thread (reclaim,
   * dispatcher, writer; every thread ends without a close), {@link QueueRuntime#failure()} holds
   * it, hooks are refused UNAVAILABLE, and {@code close()} rethrows that very failure — an
   * unchecked one and an {@link Error} as they are, a checked one wrapped in a {@link
   * StoreException} naming the store.
   */
  @Example
  default void aFailingHandlerStopsEveryComponentAndCloseRethrowsIt() throws Exception {
    List<Throwable> failures =
        List.of(
            new IllegalStateException("the sink exploded"),
            new AssertionError("the handler broke an invariant"),
            new java.io.IOException("the socket closed"));
    for (Throwable boom : failures) {
      try (TempDirStore t = openQueueStore()) {
        SteppedLoops loops = new SteppedLoops();
        TickHandler handler =
            (queue, tick, now) -> {
              if (tick.rowsClaimed() > 0) {
                if (boom instanceof Exception e) {
                  throw e;
                }
                throw (Error) boom;
              }
            };
        QueueRuntime runtime =
            startStepped(
                t.store(),
                queueConfig(),
                RuntimeSettings.defaults(),
                handler,
                null,
                () -> START,
                loops);
        ingestCreated(runtime, 1);
        loops.lap(DISPATCHER);
        if (boom == failures.get(0)) {
          // closed at once, while the failing thread may still be stopping the rest: close waits
          // for it
          assertThatThrownBy(runtime::close).isSameAs(boom);
          assertThat(runtime.threads())
              .as("threads after a close right after the failure")
              .noneMatch(Thread::isAlive);
        } else {
          joinAll(runtime.threads());
        }
        assertThat(runtime.failure()).as("the failure kept").containsSame(boom);
        if (boom == failures.get(0)) {
          // the close and the failing thread stopped components side by side: each once, in no
          // fixed order
          assertThat(runtime.stopped())
              .as("stopped by the failure and the close")
              .containsExactlyInAnyOrder(RECLAIM, DISPATCHER, WRITER);
        } else {
          assertThat(runtime.stopped())
              .as("stopped by the failure, in reverse start order")
              .containsExactly(RECLAIM, DISPATCHER, WRITER);
        }
        assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
            .isEqualTo(Outcome.UNAVAILABLE);
        if (boom == failures.get(0)) {
          assertThat(boom.getSuppressed()).as("nothing else failed").isEmpty();
          continue;
        }
        if (boom instanceof RuntimeException || boom instanceof Error) {
          assertThatThrownBy(runtime::close).as("close after %s", boom).isSameAs(boom);
        } else {
          assertThatThrownBy(runtime::close)
              .as("close after %s", boom)
              .isInstanceOf(StoreException.class)
              .hasMessageContaining(t.store().directory().toString())
              .satisfies(e -> assertThat(e.getCause()).as("the cause").isSameAs(boom));
        }
        assertThat(boom.getSuppressed()).as("nothing else failed").isEmpty();
      }
    }
  }

  /**
   * A step of {@code close()} that throws does not stop the later ones: when the archiver's last
   * drain fails, the dispatcher and the writer are still stopped, no thread is left, and {@code
   * close()} throws that failure itself.
   */
  @Example
  default void aStepOfCloseThatFailsDoesNotStopTheLaterSteps() {
    try (TempDirStore t = openQueueStore()) {
      FailingArchiveScans store = new FailingArchiveScans(t.store());
      SteppedLoops loops = new SteppedLoops();
      QueueRuntime runtime =
          startStepped(
              store,
              queueConfig().withArchive(true),
              RuntimeSettings.defaults(),
              delivering(ConcurrentHashMap.newKeySet()),
              new RecordingArchiveSink(),
              () -> START,
              loops);
      List<Thread> threads = runtime.threads();
      store.failScansOf = Thread.currentThread(); // the close's last drain reads on this thread
      assertThatThrownBy(runtime::close).isSameAs(store.injected);
      assertThat(store.injected.getSuppressed()).as("nothing else failed").isEmpty();
      assertThat(runtime.stopped()).containsExactly(RECLAIM, ARCHIVER, DISPATCHER, WRITER);
      assertThat(threads).noneMatch(Thread::isAlive);
    }
  }

  /**
   * A loop that fails while {@code close()} runs, after a step of that close failed: {@code
   * close()} throws the running failure with the failed step's suppressed. The handler is held
   * inside a tick until the archiver's last drain has failed on the closing thread, then throws;
   * every component is still stopped and no thread is left.
   */
  @Example
  default void aFailureDuringCloseIsThrownWithTheFailedStepSuppressed() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      FailingArchiveScans store = new FailingArchiveScans(t.store());
      SteppedLoops loops = new SteppedLoops();
      CountDownLatch inTick = new CountDownLatch(1);
      CountDownLatch drainFailed = new CountDownLatch(1);
      IllegalStateException boom =
          new IllegalStateException("the handler failed while the runtime closed");
      TickHandler handler =
          (queue, tick, now) -> {
            if (tick.rowsClaimed() > 0) {
              inTick.countDown();
              assertThat(drainFailed.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS))
                  .as("the drain failed")
                  .isTrue();
              throw boom;
            }
          };
      QueueRuntime runtime =
          startStepped(
              store,
              queueConfig().withArchive(true),
              RuntimeSettings.defaults(),
              handler,
              new RecordingArchiveSink(),
              () -> START,
              loops);
      List<Thread> threads = runtime.threads();
      ingestCreated(runtime, 1);
      CompletableFuture<Long> lap = CompletableFuture.supplyAsync(() -> loops.lap(DISPATCHER));
      assertThat(inTick.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS))
          .as("the dispatcher is inside a tick")
          .isTrue();
      store.beforeFailing = drainFailed::countDown;
      store.failScansOf = Thread.currentThread(); // the close's last drain reads on this thread
      assertThatThrownBy(runtime::close).as("close while the handler fails").isSameAs(boom);
      assertThat(boom.getSuppressed())
          .as("the drain's failure, suppressed")
          .containsExactly(store.injected);
      assertThat(runtime.stopped())
          .containsExactlyInAnyOrder(RECLAIM, ARCHIVER, DISPATCHER, WRITER);
      assertThat(threads).noneMatch(Thread::isAlive);
      lap.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  /**
   * {@code start} refuses a sink without {@code archive.enabled}, and {@code archive.enabled}
   * without a sink, each with a message naming the setting; a writer that cannot start (its first
   * WAL sync fails) fails the start with that very failure; and after each refusal a runtime starts
   * on the store as if nothing had happened.
   */
  @Example
  default void startRefusesWhatCannotRunAndLeavesTheStoreFree() {
    try (TempDirStore t = openQueueStore()) {
      TickHandler handler = delivering(ConcurrentHashMap.newKeySet());
      assertThatThrownBy(
              () ->
                  QueueRuntime.start(
                      t.store(),
                      queueConfig().withArchive(true),
                      RuntimeSettings.defaults(),
                      handler,
                      null,
                      () -> START))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("archive.enabled is on but no archive sink was given");
      assertThatThrownBy(
              () ->
                  QueueRuntime.start(
                      t.store(),
                      queueConfig().withArchive(false),
                      RuntimeSettings.defaults(),
                      handler,
                      new RecordingArchiveSink(),
                      () -> START))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("archive.enabled is off");
      HeldSyncStore failing = new HeldSyncStore(t.store());
      failing.failNextSync();
      assertThatThrownBy(
              () ->
                  QueueRuntime.start(
                      failing,
                      queueConfig(),
                      RuntimeSettings.defaults(),
                      handler,
                      null,
                      () -> START))
          .as("a start whose writer cannot sync")
          .isSameAs(failing.injected);
      assertThat(failing.injected.getSuppressed()).isEmpty();
      try (QueueRuntime runtime =
          startStepped(
              t.store(),
              queueConfig(),
              RuntimeSettings.defaults(),
              handler,
              null,
              () -> START,
              new SteppedLoops())) {
        assertThat(await(runtime.writer().ingest(request("acme", null, 1))))
            .isEqualTo(IngestResult.created(1));
      }
    }
  }

  /**
   * The runtime's settings refuse every count and pause below 1 with a message naming the setting
   * and its value, accept 1 for each, and a runtime runs on those least settings (one row a tick,
   * one marker a reclaim pass, one hook an archive chunk).
   */
  @Example
  default void runtimeSettingsRefuseEachValueBelowOneByName() {
    String[] names = {
      "dispatchRows",
      "dispatchBytes",
      "dispatchIdleMs",
      "reclaimLimit",
      "reclaimIdleMs",
      "archiveChunkHooks",
      "archiveIdleMs"
    };
    for (int i = 0; i < names.length; i++) {
      long[] v = {1, 1, 1, 1, 1, 1, 1};
      v[i] = 0;
      assertThatThrownBy(() -> settings(v))
          .as("%s = 0", names[i])
          .isInstanceOf(StoreArgumentException.class)
          .hasMessage("queue runtime " + names[i] + " = 0 must be at least 1");
    }
    RuntimeSettings least = settings(new long[] {1, 1, 1, 1, 1, 1, 1});
    assertThat(least.dispatchRows()).isEqualTo(1);
    assertThatThrownBy(() -> new RuntimeSettings(null, 1, 1, 1, 1, 1, 1, 1))
        .hasMessageContaining("writer");
    try (TempDirStore t = openQueueStore()) {
      SteppedLoops loops = new SteppedLoops();
      List<Long> delivered = Collections.synchronizedList(new ArrayList<>());
      RecordingArchiveSink sink = new RecordingArchiveSink();
      try (QueueRuntime runtime =
          startStepped(
              t.store(),
              queueConfig().withArchive(true),
              least,
              delivering(delivered),
              sink,
              () -> START,
              loops)) {
        ingestCreated(runtime, 3);
        loops.lap(DISPATCHER);
        loops.lap(ARCHIVER);
        loops.lap(RECLAIM);
        assertThat(delivered).as("delivered one row a tick").containsExactly(1L, 2L, 3L);
        assertThat(sink.synced().keySet()).containsExactly(1L, 2L, 3L);
        assertThat(runtime.reclaimedHooks()).as("reclaimed one marker a pass").isEqualTo(3);
      }
      assertCountersEqualFold(t.store(), "after a run on the least settings");
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

  /**
   * A runtime on {@code store} whose loops {@code loops} steps, returned once every loop has ended
   * the lap it runs as the runtime starts: what a case does next is never raced by a first lap.
   */
  private static QueueRuntime startStepped(
      Store store,
      QueueConfig config,
      RuntimeSettings settings,
      TickHandler handler,
      io.ankusa.store.queue.archive.ArchiveSink sink,
      LongSupplier clock,
      SteppedLoops loops) {
    QueueRuntime runtime = QueueRuntime.start(store, config, settings, handler, sink, clock, loops);
    loops.awaitFirstLap(DISPATCHER);
    loops.awaitFirstLap(RECLAIM);
    if (sink != null) {
      loops.awaitFirstLap(ARCHIVER);
    }
    return runtime;
  }

  private static RuntimeSettings settings(long[] v) {
    return new RuntimeSettings(
        WriterConfig.defaults(), (int) v[0], v[1], v[2], (int) v[3], v[4], (int) v[5], v[6]);
  }

  private static RuntimeSettings settings(WriterConfig writer) {
    RuntimeSettings d = RuntimeSettings.defaults();
    return new RuntimeSettings(
        writer,
        d.dispatchRows(),
        d.dispatchBytes(),
        d.dispatchIdleMs(),
        d.reclaimLimit(),
        d.reclaimIdleMs(),
        d.archiveChunkHooks(),
        d.archiveIdleMs());
  }

  private static IngestRequest request(String tenant, String key, int... sinks) {
    List<Integer> s = new ArrayList<>();
    for (int sink : sinks) {
      s.add(sink);
    }
    return new IngestRequest(
        tenant,
        "src",
        (key == null ? "hook" : key) + "-" + System.nanoTime(),
        key,
        START,
        s,
        new byte[10]);
  }

  private static IngestResult await(CompletableFuture<IngestResult> answer) {
    try {
      return answer.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("no ingest answer within " + THREAD_WAIT_SECONDS + " s", e);
    }
  }

  private static void ingestCreated(QueueRuntime runtime, int hooks) {
    for (int i = 0; i < hooks; i++) {
      assertThat(await(runtime.writer().ingest(request("acme", null, 1))).outcome())
          .isEqualTo(Outcome.CREATED);
    }
  }

  /**
   * Closes {@code runtime} on another thread; fails if it has not returned within the case's thread
   * wait.
   */
  private static void closeWithin(QueueRuntime runtime) throws Exception {
    CompletableFuture<Void> closed = CompletableFuture.runAsync(runtime::close);
    closed.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
  }

  private static void joinAll(List<Thread> threads) throws InterruptedException {
    for (Thread th : threads) {
      th.join(TimeUnit.SECONDS.toMillis(THREAD_WAIT_SECONDS));
      assertThat(th.isAlive()).as("%s still running", th.getName()).isFalse();
    }
  }

  private static double gauge(SimpleMeterRegistry registry, String name, String tag, String value) {
    return registry.get(name).tag(tag, value).gauge().value();
  }

  private static int count(ReadView view, KeyFamily family) {
    AtomicInteger n = new AtomicInteger();
    CounterFold.foldFamily(view, family, e -> n.incrementAndGet());
    return n.get();
  }

  /** A handler that delivers every claimed row and notes its seq (in claim order, given a list). */
  private static TickHandler delivering(Collection<Long> delivered) {
    return (queue, tick, now) -> {
      Transition t = new Transition();
      for (InflightRow row : tick.claimed()) {
        Deliveries.delivered(t, row);
        delivered.add(row.key().seq());
      }
      queue.write(t, Durability.NO_SYNC);
    };
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
