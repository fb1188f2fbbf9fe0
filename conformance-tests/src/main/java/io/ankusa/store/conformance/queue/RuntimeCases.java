package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.ARCHIVER;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.DISPATCHER;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.RECLAIM;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.WRITER;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.delivering;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.request;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.settings;
import static io.ankusa.store.conformance.queue.SteppedRuntimes.startStepped;
import static io.ankusa.store.conformance.queue.WriterChecks.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.IngestResult.Outcome;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TickHandler;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.runtime.QueueRuntime;
import io.ankusa.store.queue.internal.runtime.RuntimeSettings;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;

/**
 * The queue as an embedder runs it, its lifecycle: one {@link QueueRuntime} on the backend's store
 * starts, closes, closes again and refuses work after close with no thread left, recovers an
 * unclean stop before the first claim, stops every component when one fails (fail-stop) and reports
 * each failed step of its close, refuses to start what cannot run, and bounds its settings. What
 * the running runtime does — its loops' work, its metrics, the tenants its writer allocates — is
 * {@link RuntimeWorkCases}.
 *
 * <p>The loops are stepped, never waited for: a case passes a {@link SteppedLoops} pacer and lets
 * each loop run one lap at a time, on a logical clock ({@link SteppedRuntimes#startStepped}). Only
 * the lifecycle case runs the default pacing ({@link
 * io.ankusa.store.queue.internal.runtime.LoopPacer#PARK}), and checks nothing that depends on when
 * a loop ran.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface RuntimeCases extends LayoutCase {
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

  // ------------------------------------------------------------------ helpers

  private static RuntimeSettings settings(long[] v) {
    return new RuntimeSettings(
        WriterConfig.defaults(), (int) v[0], v[1], v[2], (int) v[3], v[4], (int) v[5], v[6]);
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
}
