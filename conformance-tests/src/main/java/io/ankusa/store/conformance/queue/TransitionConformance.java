package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.TransitionCase.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.ConformanceSuite;
import io.ankusa.store.conformance.NamedOptions;
import io.ankusa.store.conformance.Seeds;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;
import org.opentest4j.TestAbortedException;

/**
 * Layer 2b of the conformance suite: the queue's transitions running at the same time on the same
 * rows, on the backend a concrete subclass names (as {@link LayoutConformance} does). The promise
 * is the {@link io.ankusa.store.queue.internal.TransitionGuard}'s: whatever transitions race, each
 * row moves once and its counters move once.
 *
 * <ol>
 *   <li>{@link #purgeBesideADispatcherTickKeepsCountersExact} — the deterministic reproduction: a
 *       dispatcher tick forced between a purge's scan and its batch (through a {@link
 *       RecordingStore});
 *   <li>{@link #twoDispatchersClaimEachRowOnce} — a second dispatcher's tick, on another thread,
 *       started between the first's scan and its claims;
 *   <li>{@link #aSettleAfterItsClaimWasConsumedMovesNothing} — settles of claims that recovery, or
 *       an earlier settle, already consumed (the guard skips the re-read only for claims nothing
 *       consumed);
 *   <li>{@link #twoStepsOfOneBatchConsumingOneRowMoveItOnce} — a sink reporting one delivery twice
 *       within one settle batch, settled through a queue that made no claim;
 *   <li>{@link #conflictingTransitionsKeepCountersExact} — {@value #THREADS} threads issuing random
 *       transitions on the same tenants and rows, the ingest through a running {@link QueueWriter};
 *   <li>transitions built from rows that moved before the write ({@link StaleStepCases}): {@link
 *       #everyStepKindIsDroppedExactlyWhenItsRowMoved} (a step of every kind, on two tenants, with
 *       none, every other or all of their rows moved first), {@link
 *       #aStaleClaimBesideAnIngestInOneBatchWritesTheIngestOnly}, {@link
 *       #aBatchMarkedReadUnderStripesButWrittenWithoutThemIsRechecked}, {@link
 *       #aReviveBetweenAPurgesScanAndItsBatchIsLeftDue}, {@link
 *       #aReviveAfterPurgeAndReclaimWritesNothing}, {@link
 *       #aRowSettledTwiceInOneBatchMovesOnceWhereverTheStepsStand}, {@link
 *       #twoHooksOfOneTenantExpandedInOneBatchBothApply}, {@link
 *       #aBatchConsumingNoRowTakesNoStripeAndAnEmptyOneWritesNothing};
 *   <li>the lock stripes, a second thread forced into a write's window ({@link GuardStripeCases}):
 *       {@link #aConflictingTransitionWaitsForAWriteUnderWayAndATransitionOfAnotherStripeDoesNot},
 *       {@link #anExpandWaitsOutReclaimsCheckAndDeleteOfItsHook};
 *   <li>the claims the guard trusts without a read ({@link KnownClaimCases}): {@link
 *       #theClaimAndSettleOfARowReadItOnce}, {@link #twoSettlesOfOneClaimedRowInOneBatchWriteOne},
 *       {@link #aSettleWrittenUnderTheCallersStripeConsumesTheClaim}, {@link
 *       #aDroppedClaimIsNotTrustedAsAClaim}, {@link #aSettleRetriedAfterAFailedWriteReadsItsRows}.
 * </ol>
 *
 * <p>The shared set-ups and end-state checks are {@link TransitionCase}'s.
 *
 * <p>Rounds of the concurrent case come from {@code ankusa.transition.rounds} ({@value
 * #DEFAULT_ROUNDS} in the default build, more with {@code -Pheavy}); round {@code r} runs under the
 * fixture's option set {@code r mod n} ({@link BackendFixture#optionSets()}), named in its
 * failures. Its seed comes from {@code ankusa.seed} (default: the clock) and is printed with the
 * backend in every failure: the seed replays what each thread does, not how the threads interleave,
 * so run a failing seed a few times.
 */
public abstract class TransitionConformance extends ConformanceSuite
    implements TransitionCase, StaleStepCases, GuardStripeCases, KnownClaimCases {
  /** Threads of the concurrent case. */
  public static final int THREADS = 4;

  /** Rounds of the concurrent case when {@code ankusa.transition.rounds} is not set. */
  public static final int DEFAULT_ROUNDS = 3;

  /** Actions per thread per round. */
  static final int ACTIONS_PER_THREAD = 120;

  /**
   * The queue under test on {@code store}. The suite's own mutants override this to open a queue
   * whose guard lets some transitions through unchecked; a backend's test class does not.
   */
  @Override
  public DeliveryQueue openQueue(Store store, QueueConfig config) {
    return DeliveryQueue.open(store, config);
  }

  /**
   * The reproduction: acme has three due rows of 10 bytes; a dispatcher tick claims all three
   * between {@link Purge#purgeTenant}'s scan of them and its batch. The purge must purge none of
   * them: after it, {@code pending} is 0 (not −3), {@code bytes} 30, the counters equal a fold and
   * every inflight row still has its delivery row.
   */
  @Example
  public void purgeBesideADispatcherTickKeepsCountersExact() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = tickAfterNextScanOfDueRows(store, queue, acme);

      long purged = Purge.purgeTenant(queue, TenantId.of("acme"), EnumSet.of(Purge.Kind.DUE));

      String when =
          backend().name()
              + ": a tick claimed acme's 3 due rows between the purge's scan and its batch";
      assertThat(claimed).as("%s: rows the tick claimed", when).hasSize(3);
      assertThat(purged).as("%s: rows the purge says it purged", when).isZero();
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(0, 0, 3, 0, 30, 0));
      assertExact(store, when);
    }
  }

  /**
   * Two dispatchers on one queue: the second, on its own thread, ticks while the first has scanned
   * acme's due rows and not yet written its claims (it is let go once it waits on a lock or is
   * done, never on a timer). Each row is claimed once: the first reports the three rows, the second
   * none, and {@code inflight} is 3 (not 6).
   */
  @Example
  public void twoDispatchersClaimEachRowOnce() throws InterruptedException {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> second = new CopyOnWriteArrayList<>();
      Thread other =
          new Thread(
              () -> second.addAll(dispatcher(queue).tick(5_000).claimed()), "second-dispatcher");
      byte[] dueOfAcme = Keys.dueOf(acme).lo();
      store.afterScan(
          scan -> scan.family().equals(Format3.INDEX) && startsWith(scan.lo(), dueOfAcme),
          () -> startAndWaitUntilWaitingOrDone(other));

      List<InflightRow> first = dispatcher(queue).tick(5_000).claimed();
      String when =
          backend().name() + ": a second dispatcher ticked between the first's scan and its claims";
      joinOrFail(other, when);
      assertThat(first).as("%s: rows the first claimed", when).hasSize(3);
      assertThat(second).as("%s: rows the second claimed as well", when).isEmpty();
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(0, 0, 3, 0, 30, 0));
      assertExact(store, when);
    }
  }

  /**
   * A settle that comes too late: the tick's claims were made due again by {@link InflightRecovery}
   * (a restart's recovery, or an operator's) before the handler settled them, and a sink then
   * reports one row twice. The late settle must find the rows due, not inflight, and move nothing;
   * of two settles of one row only the first may move it. After both, acme's counters equal a fold:
   * 2 pending, no row inflight, 20 bytes.
   */
  @Example
  public void aSettleAfterItsClaimWasConsumedMovesNothing() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      InflightRecovery.recoverInflight(queue, 6_000);
      Transition late = new Transition();
      claimed.forEach(row -> Deliveries.delivered(late, row));
      int droppedLate = queue.write(late, Durability.SYNC);

      List<InflightRow> again = dispatcher(queue).tick(7_000).claimed();
      int droppedTwice = 0;
      for (int round = 0; round < 2; round++) {
        Transition settle = new Transition();
        Deliveries.delivered(settle, again.get(0));
        droppedTwice += queue.write(settle, Durability.SYNC);
      }
      InflightRecovery.recoverInflight(queue, 8_000);

      String when =
          backend().name()
              + ": acme's 3 claims recovered, then settled late; a claim settled twice";
      assertThat(claimed).as("%s: rows the first tick claimed", when).hasSize(3);
      assertThat(droppedLate).as("%s: late settles dropped", when).isEqualTo(3);
      assertThat(again).as("%s: rows the second tick claimed", when).hasSize(3);
      assertThat(droppedTwice).as("%s: second settles dropped", when).isEqualTo(1);
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(2, 0, 0, 0, 20, 0));
      assertExact(t.store(), when);
    }
  }

  /**
   * Two steps of one batch that consume the same inflight row — a sink reporting one delivery twice
   * within one settle batch — move it once: the later step is dropped, the batch's other steps
   * apply, and the counters equal a fold. Settled through a queue that did not make the claims, so
   * nothing but the batch itself can tell the two steps apart.
   */
  @Example
  public void twoStepsOfOneBatchConsumingOneRowMoveItOnce() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      // Settled through a queue that did not claim the rows (another process, or after a restart),
      // so
      // its guard checks each row as stored rather than trusting the claims it made.
      DeliveryQueue handler = openQueue(t.store(), QueueConfig.defaults());
      Transition settle = new Transition();
      Deliveries.delivered(settle, claimed.get(0));
      Deliveries.delivered(settle, claimed.get(0));
      Deliveries.delivered(settle, claimed.get(1));
      int dropped = handler.write(settle, Durability.SYNC);

      String when = backend().name() + ": one settle batch delivering row 0 twice and row 1 once";
      assertThat(claimed).as("%s: rows the tick claimed", when).hasSize(3);
      assertThat(dropped).as("%s: steps dropped", when).isEqualTo(1);
      assertThat(queue.counters().read(t.store(), acme).inflight())
          .as("%s: acme's rows still inflight", when)
          .isEqualTo(1);
      assertExact(t.store(), when);
    }
  }

  /**
   * Makes a dispatcher tick run when the next scan of tenant {@code ord}'s due rows is closed,
   * after whoever scanned has its rows and before it writes; returns the list the tick's claims go
   * into.
   */
  private static List<InflightRow> tickAfterNextScanOfDueRows(
      RecordingStore store, DeliveryQueue queue, long ord) {
    byte[] dueOf = Keys.dueOf(ord).lo();
    List<InflightRow> claimed = new ArrayList<>();
    store.afterScan(
        scan -> scan.family().equals(Format3.INDEX) && startsWith(scan.lo(), dueOf),
        () -> claimed.addAll(dispatcher(queue).tick(5_000).claimed()));
    return claimed;
  }

  /**
   * {@value #THREADS} threads each issue {@value #ACTIONS_PER_THREAD} random transitions on one
   * queue (archive on), the same four tenants and the rows they all see: ingest through the queue's
   * {@link QueueWriter}, dispatch ticks, deliver, retry, dead-letter, revive, expand, purge of due
   * and of dead rows, inflight recovery, reclaim, archive settle and drop by hand and archiver runs
   * — each picked from the rows the store holds when it runs, so threads keep choosing the same
   * rows. When all are done and the writer is closed: the counters equal a fold, every due row has
   * its marker, the verifier finds nothing (no inflight row without its delivery row, no index row
   * without its hook), and every delivery row and archive obligation still has its hook (reclaim
   * deleted nothing owed).
   */
  @Example
  public void conflictingTransitionsKeepCountersExact() throws Exception {
    if (!backend().capabilities().concurrentWriters()) {
      throw new TestAbortedException(
          backend().name()
              + " does not claim concurrentWriters: this case writes"
              + " transitions from "
              + THREADS
              + " threads at once");
    }
    long seed = Seeds.seed();
    int rounds = Integer.getInteger("ankusa.transition.rounds", DEFAULT_ROUNDS);
    List<NamedOptions> sets = backend().optionSets();
    for (int round = 0; round < rounds; round++) {
      NamedOptions set = sets.get(round % sets.size());
      String replay =
          "backend "
              + backend().name()
              + " under "
              + set
              + ", "
              + Seeds.replay(seed)
              + ", round "
              + round
              + " of "
              + rounds;
      try {
        runRound(backend().withOptions(set), new Random(seed + round), replay);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(replay + ": " + e.getMessage(), e);
      }
    }
  }

  private void runRound(BackendFixture fixture, Random seeds, String replay) throws Exception {
    try (TempDirStore t = TempDirStore.open(fixture, Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults().withArchive(true));
      AtomicLong clock = new AtomicLong(QueueDriver.START_MS);
      QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults(), clock::get);
      List<CompletableFuture<IngestResult>> acks = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < THREADS; w++) {
          Worker worker =
              new Worker(w, new Random(seeds.nextLong()), new QueueDriver(queue), writer, acks);
          workers.add(
              pool.submit(
                  () -> {
                    start.await();
                    worker.run();
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> f : workers) {
          f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
        writer.close();
      }
      synchronized (acks) {
        for (CompletableFuture<IngestResult> ack : acks) {
          assertThat(ack.getNow(null))
              .as("a writer ingest of %s, answered once the writer closed", replay)
              .extracting(IngestResult::outcome)
              .isEqualTo(IngestResult.Outcome.CREATED);
        }
      }
      assertExact(
          t.store(),
          "after " + THREADS + " threads of " + ACTIONS_PER_THREAD + " racing transitions");
    }
  }

  /** One thread's random transitions, through its own {@link QueueDriver} on the shared queue. */
  private static final class Worker {
    private final int index;
    private final Random random;
    private final QueueDriver driver;
    private final QueueWriter writer;
    private final List<CompletableFuture<IngestResult>> acks;
    private int hooks;

    Worker(
        int index,
        Random random,
        QueueDriver driver,
        QueueWriter writer,
        List<CompletableFuture<IngestResult>> acks) {
      this.index = index;
      this.random = random;
      this.driver = driver;
      this.writer = writer;
      this.acks = acks;
    }

    /** Runs the actions. */
    void run() {
      for (int i = 0; i < ACTIONS_PER_THREAD; i++) {
        int roll = random.nextInt(32);
        if (roll < 7) {
          ingest();
          continue;
        }
        try {
          action(roll).apply(driver);
        } catch (StoreCorruptionException raced) {
          // A driver's point read (the delivery row or hook of the row it picked) found the row
          // gone:
          // another thread moved it between the pick and the read. The store is judged at the end.
        }
      }
    }

    private void ingest() {
      int n = 1 + random.nextInt(3);
      List<CompletableFuture<IngestResult>> mine = new ArrayList<>(n);
      for (int h = 0; h < n; h++) {
        List<Integer> sinks = new ArrayList<>();
        for (int s = 1; s <= 1 + random.nextInt(3); s++) {
          sinks.add(s);
        }
        String tenant = QueueDriver.TENANTS.get(random.nextInt(QueueDriver.TENANTS.size()));
        long at = Math.max(0, driver.now() - 1_500 + random.nextInt(4_000));
        mine.add(
            writer.ingest(
                new IngestRequest(
                    tenant,
                    "src",
                    "w" + index + "-" + hooks++,
                    null,
                    at,
                    sinks,
                    new byte[random.nextInt(65)])));
      }
      synchronized (acks) {
        acks.addAll(mine);
      }
    }

    private QueueAction action(int roll) {
      int pick = random.nextInt(50);
      int tenant = random.nextInt(QueueDriver.TENANTS.size());
      return switch (roll) {
        case 7, 8, 9, 10, 11 -> new QueueAction.Tick(random.nextInt(1_500), 1 + random.nextInt(8));
        case 12, 13, 14 -> new QueueAction.Deliver(pick);
        case 15, 16, 17 -> new QueueAction.Retry(pick, random.nextInt(2_000));
        case 18, 19 -> new QueueAction.DeadLetter(pick);
        case 20, 21, 22 -> new QueueAction.Revive(pick);
        case 23 -> new QueueAction.RecoverInflight();
        case 24 -> new QueueAction.Expand(pick);
        case 25, 26 ->
            new QueueAction.PurgeTenant(tenant, random.nextBoolean(), random.nextBoolean());
        case 27 -> new QueueAction.SettleArchive(pick, random.nextBoolean());
        case 28 ->
            new QueueAction.Archive(
                random.nextInt(4),
                1 + random.nextInt(3),
                random.nextBoolean(),
                false,
                random.nextInt(4) == 0);
        default -> new QueueAction.ReclaimHooks(1 + random.nextInt(10));
      };
    }
  }
}
