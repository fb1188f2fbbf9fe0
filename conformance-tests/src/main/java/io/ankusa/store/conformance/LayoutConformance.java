package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.ActiveIndex;
import io.ankusa.store.queue.CounterFold;
import io.ankusa.store.queue.Counters;
import io.ankusa.store.queue.DeadLetters;
import io.ankusa.store.queue.DeadRow;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.DeliveryRow;
import io.ankusa.store.queue.DirectIngest;
import io.ankusa.store.queue.Dispatcher;
import io.ankusa.store.queue.DueIndex;
import io.ankusa.store.queue.DueRow;
import io.ankusa.store.queue.HookEnvelope;
import io.ankusa.store.queue.InflightRecovery;
import io.ankusa.store.queue.InflightRow;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.Purge;
import io.ankusa.store.queue.QueueConfig;
import io.ankusa.store.queue.QueueGauges;
import io.ankusa.store.queue.QueueVerifier;
import io.ankusa.store.queue.QueueWriter;
import io.ankusa.store.queue.Reclaim;
import io.ankusa.store.queue.TenantCounts;
import io.ankusa.store.queue.TenantErase;
import io.ankusa.store.queue.TenantLimitException;
import io.ankusa.store.queue.Tenants;
import io.ankusa.store.queue.Transition;
import io.ankusa.store.queue.WriterConfig;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ForwardingStore;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.opentest4j.TestAbortedException;

/**
 * Layer 2 of the conformance suite: the key layout's promises (docs/storage.md, docs/delivery.md)
 * as named jqwik properties, checked by running the queue ({@code io.ankusa.store.queue}) on the
 * backend a concrete subclass names:
 *
 * <pre>{@code
 * class RocksDbLayoutConformanceTest extends LayoutConformance {
 *   @Override protected BackendFixture fixture() { return new RocksDbFixture(); }
 * }
 * }</pre>
 *
 * <p>Each case opens a format-3 store ({@link Format3#families()}) in a fresh temporary directory
 * ({@link TempDirStore}), lays out the queue with {@link DeliveryQueue#open}, ingests with {@code
 * DirectIngest}, dispatches with {@link Dispatcher} (every row visible: {@code visibleSeq = MAX}) and
 * drives the other transitions through the {@link Deliveries} op builders with rows read from the
 * store. Time is a logical clock; nothing waits on the wall clock.
 *
 * <p>The cases, one method each, named for the promise each checks:
 *
 * <ol>
 *   <li>{@link #countersEqualAFoldAfterAnySequenceOfTransitions} — generated {@link QueueAction}
 *       sequences; after every action the counters equal {@link CounterFold#fold}; at the end {@link
 *       QueueVerifier} finds nothing;
 *   <li>{@link #concurrentWritersDoNotLoseCounts} — four threads, four op builders, one tenant;
 *   <li>{@link #tenantOrdinalIsAssignedOnceAndNeverReused};
 *   <li>{@link #tenantsMaxRefusesANewTenantAndNeverAnExistingOne};
 *   <li>{@link #noDueRowWithoutAMarker} — the same generated sequences, the marker invariant after
 *       every action;
 *   <li>{@link #cleanupDoesNotLoseAMarkerToAConcurrentEnqueue} — a writer's commit placed before,
 *       inside and after cleanup's delete-then-verify window;
 *   <li>{@link #activeTenantsReturnsOnlyTenantsWithDueRows};
 *   <li>{@link #pendingDeadAndPurgeTouchOneTenant} — through a {@link RecordingStore};
 *   <li>{@link #dispatchTickVisitsOnlyTenantsWithWork} — 1 000 tenants, 3 with work;
 *   <li>{@link #queueGaugesReadCounters} — through a {@link RecordingStore};
 *   <li>{@link #oldestDueAgeComesFromTheActiveIndex};
 *   <li>{@link #topTenantsByPending};
 *   <li>{@link #reclaimProgressesPastOwedHooksAtTheHead} — owing hooks at the head of {@code 'c'} never
 *       block newer ones;
 *   <li>{@link #archiveNeverGetsAHookAboveDurableSeq} — generated ingest and archiver runs under a
 *       moving watermark (the archive scan stops at the writer's {@code durableSeq});
 *   <li>{@link #archiverSettlesOnlyWhatTheSinkSynced} — the same with refused syncs and restarts that
 *       lose unsynced appends: every hook is always an obligation or in the synced archive.
 * </ol>
 *
 * <p>Tries per property come from {@code jqwik.tries.default} (60 in the default build, 1000 with
 * {@code -Pheavy}). A case needing a capability the backend does not claim is skipped with the
 * reason ({@link TestAbortedException}).
 */
public abstract class LayoutConformance extends ConformanceSuite {
  /** Longest wait for the threads of the concurrency case; a hang fails the case, not the build. */
  private static final long THREAD_WAIT_SECONDS = 120;
  private static final long START = QueueDriver.START_MS;
  private static final long DAY_MS = 86_400_000L;


  /**
   * The queue settings every case starts from (a case may add to them, e.g. the archive or a tenant
   * cap): the defaults. Override to run the whole layer in a second configuration, as {@code
   * MemoryShardedLayoutConformanceTest} does with {@code counters.sharded_aggregate} on.
   */
  protected QueueConfig queueConfig() {
    return QueueConfig.defaults();
  }

  protected final Capabilities capabilities() {
    return backend().capabilities();
  }

  /** A new store of the backend under test with the format-3 families, in a fresh temporary directory. */
  protected final TempDirStore openQueueStore() {
    return TempDirStore.open(backend(), Format3.families());
  }


  // ================================================================ counters and transitions

  /**
   * Counters equal a fold after any sequence of transitions: ingest (four tenants, the
   * default among them, 1–3 sinks, archive on), dispatch ticks, deliver, retry, dead-letter, revive,
   * inflight recovery, expand, purge, archive settle and drop (by hand and by archiver runs), reclaim —
   * after every action each
   * tenant's six counters and the node aggregate equal a fold of the rows; at the end the verifier
   * finds no breach.
   */
  @Property
  public void countersEqualAFoldAfterAnySequenceOfTransitions(@ForAll("queueActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      assertCountersEqualFold(t.store(), "on the new store, before any action");
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertCountersEqualFold(t.store(), describe(i, actions, did));
      }
      assertThat(QueueVerifier.verify(t.store()))
          .as("after all %d actions %s the verifier finds no breach", actions.size(), actions)
          .isEmpty();
    }
  }

  /**
   * Concurrent writers do not lose counts: four threads move disjoint rows of ONE tenant
   * at once through different op builders (claim + delivered; claim + retry + claim + delivered;
   * claim + dead-letter + revive; claim + recover + claim + delivered), one batch per transition,
   * all merging into the same counter keys. Afterwards the tenant's counters and the aggregate equal
   * the fold, and the fold is the exact expected outcome.
   */
  @Example
  public void concurrentWritersDoNotLoseCounts() throws Exception {
    requireCapability(capabilities().concurrentWriters(), "concurrentWriters",
        "this case writes one tenant's transitions from 4 threads at once");
    final int threads = ConcurrentWorker.values().length;
    final int hooks = 400;
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      for (int from = 0; from < hooks; from += 100) {
        List<HookEnvelope> batch = new ArrayList<>();
        for (int i = from; i < from + 100; i++) {
          batch.add(d.newHook("busy", START + i, 1, 1 + i % 23));
        }
        d.ingest().ingest(batch);
      }
      long ord = ordOf(store, "busy");
      List<DueRow> rows = DueIndex.pendingForTenant(store, ord, hooks + 1);
      assertThat(rows).as("the pre-ingested due rows of the tenant").hasSize(hooks);
      List<List<DueRow>> shares = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        shares.add(new ArrayList<>());
      }
      for (int i = 0; i < rows.size(); i++) {
        shares.get(i % threads).add(rows.get(i));
      }
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        CountDownLatch start = new CountDownLatch(threads);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
          ConcurrentWorker worker = ConcurrentWorker.values()[w];
          List<DueRow> share = shares.get(w);
          running.add(pool.submit(() -> {
            start.countDown();
            start.await();
            for (DueRow row : share) {
              worker.drive(d.queue(), row);
            }
            return null;
          }));
        }
        for (Future<?> f : running) {
          f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      }
      Map<Long, TenantCounts> fold = CounterFold.fold(store);
      assertThat(d.queue().counters().read(store, ord)).as("counters of the tenant written by 4 threads vs a fold")
          .isEqualTo(fold.getOrDefault(ord, TenantCounts.ZERO));
      assertThat(d.queue().counters().aggregate(store)).as("the aggregate (ord 0) vs a fold")
          .isEqualTo(fold.get(0L));
      List<DueRow> revived = shares.get(ConcurrentWorker.CLAIM_DEAD_LETTER_REVIVE.ordinal());
      long revivedBytes = revived.stream().mapToLong(r -> r.value().size()).sum();
      assertThat(fold.get(ord)).as("only the revived quarter is left, due as first attempts")
          .isEqualTo(new TenantCounts(revived.size(), 0, 0, 0, revivedBytes, 0));
      assertThat(QueueVerifier.verify(store)).as("verifier after the concurrent transitions").isEmpty();
    }
  }

  /** What each thread of {@link #concurrentWritersDoNotLoseCounts} does with each of its rows. */
  private enum ConcurrentWorker {
    CLAIM_DELIVER {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        Transition t = new Transition();
        Deliveries.delivered(t, inflight);
        q.write(t, Durability.NO_SYNC);
      }
    },
    CLAIM_RETRY_CLAIM_DELIVER {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        long at = row.key().at() + 60_000;
        Transition retry = new Transition();
        Deliveries.retry(retry, inflight, stateOf(q, row), at, "503");
        q.write(retry, Durability.NO_SYNC);
        DueRow again = new DueRow(new DueKey(row.ord(), at, row.seq(), row.key().sink()),
            new DueValue(row.value().size(), DueKind.RETRY));
        Transition delivered = new Transition();
        Deliveries.delivered(delivered, claim(q, again));
        q.write(delivered, Durability.NO_SYNC);
      }
    },
    CLAIM_DEAD_LETTER_REVIVE {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        long at = row.key().at() + 30_000;
        Transition dead = new Transition();
        Deliveries.deadLetter(dead, inflight, stateOf(q, row), at, "src", "hook-" + row.seq(), "410");
        q.write(dead, Durability.NO_SYNC);
        byte[] deadKey = Keys.dead(at, row.seq(), row.key().sink());
        byte[] deadValue = q.store().get(Format3.INDEX, deadKey);
        assertThat(deadValue).as("dead row %s just written", Bytes.hex(deadKey)).isNotNull();
        DeadRow read = new DeadRow(DeadKey.decode(deadKey), DeadValue.decodeAt(deadKey, deadValue));
        Transition revive = new Transition();
        Deliveries.revive(revive, read, stateOf(q, row), at + 10_000);
        q.write(revive, Durability.NO_SYNC);
      }
    },
    CLAIM_RECOVER_CLAIM_DELIVER {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        long at = row.key().at() + 50_000;
        Transition recover = new Transition();
        Deliveries.recoverInflight(recover, inflight, at);
        q.write(recover, Durability.NO_SYNC);
        DueRow again = new DueRow(new DueKey(row.ord(), at, row.seq(), row.key().sink()),
            new DueValue(row.value().size(), DueKind.FIRST_ATTEMPT));
        Transition delivered = new Transition();
        Deliveries.delivered(delivered, claim(q, again));
        q.write(delivered, Durability.NO_SYNC);
      }
    };

    abstract void drive(DeliveryQueue q, DueRow row);

    static InflightRow claim(DeliveryQueue q, DueRow row) {
      Transition t = new Transition();
      Deliveries.claim(t, row);
      q.write(t, Durability.NO_SYNC);
      return new InflightRow(new InflightKey(row.ord(), row.seq(), row.key().sink()),
          new InflightValue(row.value().size()));
    }

    static DeliveryRow stateOf(DeliveryQueue q, DueRow row) {
      byte[] v = q.store().get(Format3.DELIVERIES, Keys.delivery(row.seq(), row.key().sink()));
      assertThat(v).as("delivery row of %s", row.key()).isNotNull();
      return DeliveryRow.decode(v);
    }
  }

  // ================================================================ tenants

  /**
   * A tenant ordinal is assigned once and never reused: ordinals 1, 2, 3 … in first-sight
   * order (within a batch too), the same ordinal when a tenant comes back, the next one for a new
   * tenant in a later batch (also through a second ingest of the same queue), and after a reopen (new
   * queue, new ingest) new tenants continue from {@code m:next_ord}; {@code 't'} and {@code 'n'}
   * agree and the rows are filed under the ordinal.
   */
  @Example
  public void tenantOrdinalIsAssignedOnceAndNeverReused() {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig());
      d.ingest().ingest(List.of(hook(d, "globex"), hook(d, "acme"), hook(d, "globex"), hook(d, null)));
      Map<String, Long> expected = new LinkedHashMap<>();
      expected.put("globex", 1L);
      expected.put("acme", 2L);
      expected.put(TenantId.DEFAULT_NAME, 3L);
      assertOrdinals(t.store(), expected, 4, "after the first batch (first sight: globex, acme, default)");

      d.ingest().ingest(List.of(hook(d, "acme"), hook(d, null)));
      assertOrdinals(t.store(), expected, 4, "after acme and default came back");

      d.ingest().ingest(List.of(hook(d, "initech"), hook(d, "acme")));
      expected.put("initech", 4L);
      assertOrdinals(t.store(), expected, 5, "after a new tenant in a later batch of the same queue");
      new DirectIngest(d.queue()).ingest(List.of(hook(d, "umbrella"), hook(d, "globex")));
      expected.put("umbrella", 5L);
      assertOrdinals(t.store(), expected, 6, "after a new tenant through a second ingest of the same queue");

      Store reopened = t.reopen();
      QueueDriver again = new QueueDriver(reopened, queueConfig());
      again.ingest().ingest(List.of(hook(again, "hooli"), hook(again, "acme"), hook(again, "vandelay")));
      expected.put("hooli", 6L);
      expected.put("vandelay", 7L);
      assertOrdinals(reopened, expected, 8, "after a reopen and a new queue: hooli, acme, vandelay");
      assertThat(DueIndex.pendingForTenant(reopened, 2, 100)).as("acme's four rows under ordinal 2")
          .hasSize(4).allSatisfy(r -> assertThat(r.ord()).isEqualTo(2));
      assertThat(QueueVerifier.verify(reopened)).as("verifier (ordinals dense, unique, 't'/'n' agree)").isEmpty();
    }
  }

  /**
   * {@code tenants.max} refuses a new tenant with tenant_limit and an existing tenant is never
   * refused at the cap: with {@code tenants.max = 3}, a 4th tenant is refused with {@link
   * TenantLimitException} and gets no ordinal ({@code 'n'} absent, {@code next_ord} unchanged,
   * nothing of its batch written, even beside existing tenants); existing tenants still ingest, also
   * after a reopen.
   */
  @Example
  public void tenantsMaxRefusesANewTenantAndNeverAnExistingOne() {
    QueueConfig capped = queueConfig().withTenantsMax(3);
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), capped);
      d.ingest().ingest(List.of(hook(d, "a"), hook(d, "b"), hook(d, null)));
      long lastSeq = d.queue().lastSeq();
      assertThatThrownBy(() -> d.ingest().ingest(hook(d, "d")))
          .as("the 4th tenant at tenants.max = 3").isInstanceOf(TenantLimitException.class).hasMessageContaining("'d'");
      assertRefusedLeftNoTrace(t.store(), d, "d", lastSeq, 3);
      assertThatThrownBy(() -> d.ingest().ingest(List.of(hook(d, "a"), hook(d, "e"))))
          .as("a batch with an existing tenant and a new one beyond the cap").isInstanceOf(TenantLimitException.class);
      assertRefusedLeftNoTrace(t.store(), d, "e", lastSeq, 3);

      d.ingest().ingest(List.of(hook(d, "a"), hook(d, "b"), hook(d, null)));
      assertThat(d.queue().counters().aggregate(t.store()).pending()).as("existing tenants ingest at the cap").isEqualTo(6);

      Store reopened = t.reopen();
      QueueDriver again = new QueueDriver(reopened, capped);
      again.ingest().ingest(hook(again, "b"));
      assertThatThrownBy(() -> again.ingest().ingest(hook(again, "f")))
          .as("a new tenant after a reopen at the cap").isInstanceOf(TenantLimitException.class);
      assertThat(Tenants.nextOrdinal(reopened)).isEqualTo(4);
      assertThat(QueueVerifier.verify(reopened)).isEmpty();
    }
  }

  private static void assertRefusedLeftNoTrace(Store store, QueueDriver d, String tenant, long lastSeq, long pending) {
    assertThat(Tenants.ord(store, TenantId.of(tenant))).as("refused tenant %s has no 'n' row", tenant).isEmpty();
    assertThat(Tenants.nextOrdinal(store)).as("next_ord after refusing %s", tenant).isEqualTo(4);
    assertThat(Tenants.name(store, 4)).as("no 't' row for ordinal 4").isEmpty();
    assertThat(d.queue().lastSeq()).as("no seq assigned by the refused batch").isEqualTo(lastSeq);
    assertThat(d.queue().counters().aggregate(store).pending()).as("no row of the refused batch").isEqualTo(pending);
  }

  // ================================================================ active index

  /**
   * No due row without a marker: the generated sequences of {@link
   * #countersEqualAFoldAfterAnySequenceOfTransitions}; after every action every {@code 'D'} row has
   * its {@code 'A' (at/1000) ord} marker.
   */
  @Property
  public void noDueRowWithoutAMarker(@ForAll("markerActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertEveryDueRowHasAMarker(t.store(), describe(i, actions, did));
      }
    }
  }

  /**
   * Cleanup does not lose a marker to a concurrent enqueue: tenant acme has a stale marker
   * in second B (its row there was claimed) and its first due row in a later second; the dispatcher's
   * cleanup deletes marker B. A writer commits a new acme row in second B (with its own marker):
   *
   * <ul>
   *   <li>before cleanup's step 1 — step 1 sees the row, nothing is deleted;
   *   <li>between step 1's read and step 2's delete (placed there by a {@link RecordingStore} that
   *       runs the writer just before the delete batch) — the delete removes the writer's marker and
   *       step 3 must put it back;
   *   <li>between step 2 and step 3 ({@link ActiveIndex#cleanup}'s {@code betweenDeleteAndVerify}
   *       seam) — the writer's own marker stands.
   * </ul>
   *
   * In every case the new row has its marker afterwards. Also: a tenant with no due row left loses
   * every scanned marker before the current second, and keeps the current second's.
   */
  @Property
  public void cleanupDoesNotLoseAMarkerToAConcurrentEnqueue(
      @ForAll @IntRange(min = 0, max = 999) int staleMs,
      @ForAll @IntRange(min = 0, max = 999) int writerMs,
      @ForAll @IntRange(min = 1, max = 5) int gapSeconds) {
    for (CleanupRace race : CleanupRace.values()) {
      runCleanupRace(race, staleMs, writerMs, gapSeconds);
    }
    cleanupOfADrainedTenant(staleMs, gapSeconds);
  }

  /** Where the writer's commit lands relative to cleanup's three steps. */
  private enum CleanupRace { BEFORE_STEP_1, BETWEEN_STEP_1_AND_DELETE, BETWEEN_DELETE_AND_STEP_3 }

  private void runCleanupRace(CleanupRace race, int staleMs, int writerMs, int gapSeconds) {
    String when = "writer commit " + race + " (stale row at +" + staleMs + " ms, writer row at +" + writerMs
        + " ms of second B, first due row " + gapSeconds + " s later)";
    try (TempDirStore t = openQueueStore()) {
      RecordingStore store = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(store, queueConfig());
      long bucketB = ActiveKey.bucketOf(START);
      d.ingest().ingest(List.of(
          d.newHook("acme", START + staleMs, 1, 8),
          d.newHook("acme", START + gapSeconds * 1000L + staleMs, 1, 8),
          d.newHook("globex", START + staleMs, 1, 8)));
      long acme = ordOf(store, "acme");
      long globex = ordOf(store, "globex");
      Transition claim = new Transition();
      Deliveries.claim(claim, DueIndex.firstDue(store, acme));
      d.write(claim);
      long now = START + (gapSeconds + 10) * 1000L;
      List<Long> scanned = scannedBuckets(store, acme, now);
      assertThat(scanned).as("%s: acme's markers seen by the dispatcher", when).containsExactly(bucketB, bucketB + gapSeconds);

      AtomicBoolean writerRan = new AtomicBoolean();
      HookEnvelope enqueued = d.newHook("acme", START + writerMs, 1, 8);
      Runnable writer = () -> {
        d.ingest().ingest(enqueued);
        writerRan.set(true);
      };
      int deleted;
      switch (race) {
        case BEFORE_STEP_1:
          writer.run();
          deleted = ActiveIndex.cleanup(store, acme, scanned, now);
          assertThat(deleted).as("%s: step 1 sees the new row in B, nothing is stale", when).isZero();
          break;
        case BETWEEN_STEP_1_AND_DELETE:
          store.beforeWrite(LayoutConformance::deletesAMarker, writer);
          deleted = ActiveIndex.cleanup(store, acme, scanned, now);
          break;
        case BETWEEN_DELETE_AND_STEP_3:
          deleted = ActiveIndex.cleanup(store, acme, scanned, now, writer);
          break;
        default:
          throw new IllegalStateException(race.name());
      }
      assertThat(writerRan).as("%s: the writer's commit took place (else the interleaving was not driven)", when).isTrue();
      assertEveryDueRowHasAMarker(store, when);
      assertThat(ActiveIndex.all(store)).as("%s: markers afterwards", when)
          .contains(new ActiveKey(bucketB, acme), new ActiveKey(bucketB + gapSeconds, acme), new ActiveKey(bucketB, globex));
      assertThat(deleted).as("%s: markers reported deleted and not put back", when).isBetween(0, 1);
      assertThat(QueueVerifier.verify(store)).as("%s: verifier", when).isEmpty();
    }
  }

  private void cleanupOfADrainedTenant(int staleMs, int gapSeconds) {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      long bucketB = ActiveKey.bucketOf(START);
      long nowBucket = bucketB + gapSeconds + 10;
      long now = nowBucket * 1000 + staleMs;
      d.ingest().ingest(List.of(
          d.newHook("acme", START + staleMs, 1, 8),
          d.newHook("acme", START + gapSeconds * 1000L + staleMs, 1, 8),
          d.newHook("acme", nowBucket * 1000 + staleMs / 2, 1, 8)));
      long acme = ordOf(store, "acme");
      Transition claimAll = new Transition();
      DueIndex.pendingForTenant(store, acme, 10).forEach(r -> Deliveries.claim(claimAll, r));
      d.write(claimAll);
      List<Long> scanned = scannedBuckets(store, acme, now);
      assertThat(scanned).containsExactly(bucketB, bucketB + gapSeconds, nowBucket);
      int deleted = ActiveIndex.cleanup(store, acme, scanned, now);
      assertThat(deleted).as("a drained tenant loses every scanned marker before the current second").isEqualTo(2);
      assertThat(ActiveIndex.all(store)).as("only the current second's marker is kept")
          .containsExactly(new ActiveKey(nowBucket, acme));
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /** Whether {@code batch} deletes an {@code 'A'} marker: cleanup's step 2. */
  static boolean deletesAMarker(Batch batch) {
    return batch.ops().stream().anyMatch(op -> op.accept(DELETES_A_MARKER));
  }

  private static final Op.Visitor<Boolean> DELETES_A_MARKER = new Op.Visitor<>() {
    @Override
    public Boolean put(Op.Put p) {
      return false;
    }

    @Override
    public Boolean delete(Op.Delete d) {
      return d.family().equals(Format3.INDEX) && isMarker(d.key());
    }

    @Override
    public Boolean deleteRange(Op.DeleteRange r) {
      return false;
    }

    @Override
    public Boolean merge(Op.Merge m) {
      return false;
    }
  };

  private static boolean isMarker(byte[] key) {
    return key.length == 13 && key[0] == 'A';
  }

  /**
   * Active tenants are only tenants with due rows: after a dispatch tick (which claims
   * and cleans), the tenants {@link ActiveIndex#activeTenants} reports are exactly those with a due
   * row at or before now. Rows fall in past or future seconds, never the current one, except for one
   * tenant whose only row is in the current second: its marker outlives the claim by design (the
   * current second's marker is never deleted) and is gone after the next tick a second later, when
   * the equality holds exactly again.
   */
  @Property
  public void activeTenantsReturnsOnlyTenantsWithDueRows(
      @ForAll("dueSecondsPerTenant") List<List<Integer>> dueSeconds, @ForAll @IntRange(min = 1, max = 12) int rowLimit) {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      long nowBucket = ActiveKey.bucketOf(START) + 100;
      long now = nowBucket * 1000 + 500;
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < dueSeconds.size(); i++) {
        int k = 0;
        for (int offset : dueSeconds.get(i)) {
          hooks.add(d.newHook("tenant-" + i, (nowBucket + offset) * 1000 + (37L * ++k) % 1000, 1, 4));
        }
      }
      hooks.add(d.newHook("current-second", nowBucket * 1000 + 100, 1, 4));
      d.ingest().ingest(hooks);
      long current = ordOf(store, "current-second");

      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, rowLimit, Long.MAX_VALUE).tick(now);
      Set<Long> expected = tenantsWithDueRowsUpTo(store, now);
      expected.add(current);
      assertThat(activeOrds(store, now)).as("after a tick at %d claiming up to %d rows: active tenants = tenants with"
          + " due rows at <= now, plus the tenant claimed in the current second", now, rowLimit)
          .isEqualTo(expected);

      long later = now + 1000;
      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE).tick(later);
      assertThat(activeOrds(store, later)).as("after a tick a second later claiming everything due")
          .isEqualTo(tenantsWithDueRowsUpTo(store, later));
      assertEveryDueRowHasAMarker(store, "after both ticks");
    }
  }

  /** Per tenant, the seconds (relative to now's) of its rows: past or future, never now's or the next. */
  @Provide
  Arbitrary<List<List<Integer>>> dueSecondsPerTenant() {
    return Arbitraries.integers().between(-8, 6).filter(o -> o != 0 && o != 1)
        .list().ofMaxSize(5).list().ofMinSize(1).ofMaxSize(6);
  }

  // ================================================================ per-tenant reads and purge

  /**
   * Pending for a tenant, dead for a tenant and purge of a tenant touch one tenant: through a
   * {@link RecordingStore}, {@link DueIndex#pendingForTenant}, {@link DeadLetters#deadForTenant},
   * {@link DeadLetters#deadPage} for one tenant and {@link Purge#purgeTenant} scan only ranges inside
   * that tenant's {@code 'D'}, {@code 'X'} (and {@code 'F'}) prefixes, plus point reads, and never
   * read a hook. Purge changes no other tenant's rows or counters, never touches inflight rows, and
   * is idempotent (a second call purges nothing).
   */
  @Example
  public void pendingDeadAndPurgeTouchOneTenant() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      Store raw = t.store();
      QueueDriver d = new QueueDriver(rec, queueConfig().withArchive(true));
      List<String> tenants = Arrays.asList("acme", null, "globex", "initech");
      for (String tenant : tenants) {
        List<HookEnvelope> hooks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          hooks.add(d.newHook(tenant, START + i * 300L, 2, 10 + i));
        }
        d.ingest().ingest(hooks);
        long ord = ordOf(raw, tenant);
        List<DueRow> due = DueIndex.pendingForTenant(raw, ord, 100);
        Transition claim = new Transition();
        due.subList(0, 6).forEach(r -> Deliveries.claim(claim, r));
        d.write(claim);
        List<InflightRow> inflight = inflightOf(raw, ord);
        Transition moves = new Transition();
        Deliveries.deadLetter(moves, inflight.get(0), d.deliveryRow(inflight.get(0).key().seq(), inflight.get(0).key().sink()),
            START + 9_000, "src", "h", "410");
        Deliveries.deadLetter(moves, inflight.get(1), d.deliveryRow(inflight.get(1).key().seq(), inflight.get(1).key().sink()),
            START + 9_500, "src", "h", "410");
        Deliveries.retry(moves, inflight.get(2), d.deliveryRow(inflight.get(2).key().seq(), inflight.get(2).key().sink()),
            START + 60_000, "503");
        d.write(moves);
      }
      long acme = ordOf(raw, "acme");
      KeyRange acmeDue = Keys.dueOf(acme);
      KeyRange acmeDead = Keys.deadByTenantOf(acme);
      KeyRange acmeInflight = Keys.inflightOf(acme);

      rec.clearReads();
      List<DueRow> pending = DueIndex.pendingForTenant(rec, acme, 1000);
      assertThat(pending).as("acme's due rows").hasSize(7).allSatisfy(r -> assertThat(r.ord()).isEqualTo(acme));
      assertScansWithin(rec, "pendingForTenant(acme)", acmeDue);
      assertNoHookRead(rec, "pendingForTenant(acme)");

      rec.clearReads();
      assertThat(DeadLetters.deadForTenant(rec, acme, 1000)).as("acme's dead rows").hasSize(2)
          .allSatisfy(k -> assertThat(k.ord()).isEqualTo(acme));
      assertScansWithin(rec, "deadForTenant(acme)", acmeDead);
      assertNoHookRead(rec, "deadForTenant(acme)");

      rec.clearReads();
      DeadLetters.DeadPage page = DeadLetters.deadPage(rec, null, 1000, TenantId.of("acme"));
      assertThat(page.rows()).as("acme's dead page").hasSize(2).allSatisfy(r -> assertThat(r.ord()).isEqualTo(acme));
      assertScansWithin(rec, "deadPage(acme)", acmeDead);
      assertNoHookRead(rec, "deadPage(acme)");

      Map<Long, String> othersBefore = new TreeMap<>();
      for (String other : tenants.subList(1, tenants.size())) {
        long o = ordOf(raw, other);
        othersBefore.put(o, tenantState(raw, d.queue().counters(), o));
      }
      List<InflightRow> acmeInflightBefore = inflightOf(raw, acme);
      TenantCounts acmeBefore = d.queue().counters().read(raw, acme);

      rec.clearReads();
      long purged = Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.allOf(Purge.Kind.class));
      assertThat(purged).as("acme's 7 due and 2 dead rows purged").isEqualTo(9);
      assertScansWithin(rec, "purgeTenant(acme)", acmeDue, acmeDead, acmeInflight);
      assertNoHookRead(rec, "purgeTenant(acme)");
      for (Map.Entry<Long, String> other : othersBefore.entrySet()) {
        assertThat(tenantState(raw, d.queue().counters(), other.getKey()))
            .as("rows and counters of tenant ord %d after purging acme", other.getKey()).isEqualTo(other.getValue());
      }
      assertThat(inflightOf(raw, acme)).as("purge never touches inflight rows").isEqualTo(acmeInflightBefore);
      TenantCounts acmeAfter = d.queue().counters().read(raw, acme);
      assertThat(acmeAfter).as("acme's counters after the purge: only inflight rows and their bytes left")
          .isEqualTo(new TenantCounts(0, 0, acmeBefore.inflight(), 0,
              acmeInflightBefore.stream().mapToLong(InflightRow::size).sum(), acmeBefore.archivePending()));
      assertCountersEqualFold(raw, "after purging acme");
      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.allOf(Purge.Kind.class)))
          .as("purge is idempotent: a second call purges nothing").isZero();
      assertThat(QueueVerifier.verify(raw)).isEmpty();
    }
  }

  // ================================================================ dispatch

  /**
   * A dispatch tick visits only tenants with work: 1 000 tenants, 3 with a row due now,
   * the other 997 with only a retry scheduled a day ahead or a dead row; the tick visits 3 tenants
   * and scans 3 {@code 'D'} ranges.
   */
  @Example
  public void dispatchTickVisitsOnlyTenantsWithWork() {
    final int tenants = 1000;
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(rec, queueConfig());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < tenants; i++) {
        hooks.add(d.newHook("tenant-" + i, START + i % 1000, 1, 4));
      }
      d.ingest().ingest(hooks);
      d.advance(5_000);
      Dispatcher dispatcher = new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 2 * tenants, Long.MAX_VALUE);
      assertThat(dispatcher.tick(d.now()).rowsClaimed()).as("first tick claims every row").isEqualTo(tenants);
      Transition settle = new Transition();
      for (InflightRow row : d.inflightRows()) {
        long i = row.ord() - 1;
        if (i < 3) {
          Deliveries.delivered(settle, row);
        } else if (i % 2 == 0) {
          Deliveries.retry(settle, row, d.deliveryRow(row.key().seq(), row.key().sink()), d.now() + DAY_MS, "503");
        } else {
          Deliveries.deadLetter(settle, row, d.deliveryRow(row.key().seq(), row.key().sink()), d.now(), "src", "h", "410");
        }
      }
      d.write(settle);
      d.advance(5_000);
      d.ingest().ingest(List.of(d.newHook("tenant-0", d.now(), 1, 4), d.newHook("tenant-1", d.now(), 1, 4),
          d.newHook("tenant-2", d.now(), 1, 4)));
      d.advance(1_000);

      rec.clearReads();
      Dispatcher.TickReport tick = dispatcher.tick(d.now());
      assertThat(tick.tenantsVisited()).as("tenants visited by a tick with 3 of 1000 tenants due").isEqualTo(3);
      assertThat(tick.rowsClaimed()).isEqualTo(3);
      Set<Long> dueRangesScanned = new TreeSet<>();
      for (RecordingStore.ScanRead s : rec.scans()) {
        if (s.lo().length >= 5 && s.lo()[0] == 'D') {
          dueRangesScanned.add(Integer.toUnsignedLong(ByteBuffer.wrap(s.lo(), 1, 4).getInt()));
        }
      }
      assertThat(dueRangesScanned).as("tenants whose 'D' range the tick scanned").containsExactly(1L, 2L, 3L);
      assertThat(QueueVerifier.verify(t.store())).isEmpty();
    }
  }

  // ================================================================ gauges

  /**
   * Queue gauges read counters: through a {@link RecordingStore}, {@link
   * QueueGauges#measure} never scans an {@code 'F'}, {@code 'x'}, {@code 'X'} or {@code 'a'} range
   * nor the counters family, takes at most one entry from any {@code 'D'} range (seeking the first
   * due row of at most 33 tenants to verify the first marker), and reads the node aggregate's six
   * counters with one multiGet; its numbers equal the fold's aggregate.
   */
  @Example
  public void queueGaugesReadCounters() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(rec, queueConfig().withArchive(true));
      populateMixedState(d, 40);
      Map<Long, TenantCounts> fold = CounterFold.fold(t.store());

      rec.clearReads();
      QueueGauges.Gauge gauge = new QueueGauges(d.queue()).measure(d.now());
      List<RecordingStore.Read> reads = rec.reads();

      assertThat(gauge.aggregate()).as("gauge numbers vs a fold's aggregate").isEqualTo(fold.get(0L));
      assertThat(gauge.tenants()).isEqualTo(Tenants.count(t.store()));
      for (RecordingStore.ScanRead s : rec.scans()) {
        assertThat(s.family()).as("family of %s (gauge reads %s)", s, reads).isEqualTo(Format3.INDEX);
        byte prefix = s.lo().length == 0 ? 0 : s.lo()[0];
        assertThat(prefix).as("gauge scan %s is not of 'F', 'x', 'X' or 'a'", s).isNotIn((byte) 'F', (byte) 'x', (byte) 'X', (byte) 'a');
        assertThat(prefix).as("gauge scan %s is of the active index or one tenant's due range", s).isIn((byte) 'A', (byte) 'D');
        if (prefix == 'D') {
          assertThat(s.entriesConsumed()).as("entries taken from %s", s).isLessThanOrEqualTo(1);
        }
      }
      assertThat(rec.scans().stream().filter(s -> s.lo()[0] == 'D').count()).as("tenants' first due rows sought")
          .isLessThanOrEqualTo(ActiveIndex.STALE_MARKER_SKIP + 1);
      List<RecordingStore.PointRead> counterReads = rec.pointReads().stream()
          .filter(p -> p.family().equals(Format3.COUNTERS)).toList();
      assertThat(counterReads).as("counter reads of a gauge tick: %s", reads).hasSize(1);
      assertThat(counterReads.get(0).call()).isEqualTo("multiGet");
      Set<String> aggregateKeys = new TreeSet<>();
      for (CounterField f : CounterField.values()) {
        aggregateKeys.add(Bytes.fullHex(Keys.counter(0, f)));
        for (int shard = 0; queueConfig().shardedAggregate() && shard < Keys.AGGREGATE_SHARDS; shard++) {
          aggregateKeys.add(Bytes.fullHex(Keys.aggregateShard(f, shard)));
        }
      }
      Set<String> read = counterReads.get(0).keys().stream().map(Bytes::fullHex).collect(Collectors.toCollection(TreeSet::new));
      assertThat(read).as("the multiGet reads the six counters of ord 0 (and their shards when sharded)")
          .isEqualTo(aggregateKeys);
    }
  }

  /**
   * The oldest due age comes from the active index: the age is now minus the first due row of
   * the tenant of the first marker at or before now; a stale first marker (its tenant's row claimed,
   * the marker not yet cleaned) is skipped, up to 32 of them; rows due later do not count; with
   * nothing due it is 0. The computation scans the active index and seeks tenants' first due rows
   * only.
   */
  @Example
  public void oldestDueAgeComesFromTheActiveIndex() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(rec, queueConfig());
      QueueGauges gauges = new QueueGauges(d.queue());
      long now = START + 100_000;
      d.ingest().ingest(List.of(d.newHook("a", START + 300, 1, 4), d.newHook("b", START + 2_400, 1, 4),
          d.newHook("c", START + 5_000, 1, 4), d.newHook("later", now + 5_000, 1, 4)));
      assertThat(gauges.measure(now).oldestDueAgeMs()).as("age of a's row, the oldest").isEqualTo(now - (START + 300));
      assertOnlyActiveAndFirstDueReads(rec, gauges, now);

      claimAllOf(d, ordOf(t.store(), "a"));
      assertThat(gauges.measure(now).oldestDueAgeMs()).as("a's stale marker skipped: age of b's row")
          .isEqualTo(now - (START + 2_400));

      d.ingest().ingest(d.newHook("a", START + 3_100, 1, 4));
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as("a's stale marker still skipped (a's first due row is in a later second): age of b's row")
          .isEqualTo(now - (START + 2_400));

      List<HookEnvelope> staleMakers = new ArrayList<>();
      for (int i = 0; i < ActiveIndex.STALE_MARKER_SKIP - 1; i++) {
        staleMakers.add(d.newHook("stale-" + i, START - 1_000 + i, 1, 4));
      }
      d.ingest().ingest(staleMakers);
      for (int i = 0; i < ActiveIndex.STALE_MARKER_SKIP - 1; i++) {
        claimAllOf(d, ordOf(t.store(), "stale-" + i));
      }
      assertThat(gauges.measure(now).oldestDueAgeMs()).as("32 stale markers (31 + a's) skipped: age of b's row")
          .isEqualTo(now - (START + 2_400));
      assertOnlyActiveAndFirstDueReads(rec, gauges, now);

      for (String tenant : List.of("a", "b", "c")) {
        claimAllOf(d, ordOf(t.store(), tenant));
      }
      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 1, Long.MAX_VALUE).tick(now);
      assertThat(ActiveIndex.activeTenants(t.store(), now, ActiveIndex.DEFAULT_LIMIT)).as("a tick cleaned every stale marker")
          .isEmpty();
      assertThat(gauges.measure(now).oldestDueAgeMs()).as("nothing due at or before now (a row due later does not count)")
          .isZero();
      assertThat(gauges.measure(now + 7_000).oldestDueAgeMs()).as("the later row, 2 s after it came due")
          .isEqualTo(2_000);
    }
  }

  private static void assertOnlyActiveAndFirstDueReads(RecordingStore rec, QueueGauges gauges, long now) {
    rec.clearReads();
    gauges.measure(now);
    for (RecordingStore.ScanRead s : rec.scans()) {
      assertThat(s.lo()[0]).as("oldest-age read %s is of the active index or a tenant's due range", s).isIn((byte) 'A', (byte) 'D');
      if (s.lo()[0] == 'D') {
        assertThat(s.entriesConsumed()).as("entries taken from %s", s).isLessThanOrEqualTo(1);
      }
    }
  }

  /**
   * Top tenants by pending: tenants ordered by their pending rows (kind 0; a retry scheduled for later
   * is not pending), largest first (ties by ordinal), names resolved (the default tenant by its name),
   * tenants with nothing pending left out, and only tenants with a marker due by now: a tenant whose
   * rows are all due later is not listed. The numbers equal the counters and a fold of the rows.
   */
  @Example
  public void topTenantsByPending() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      long now = START + 10_000;
      List<HookEnvelope> hooks = new ArrayList<>();
      addHooks(d, hooks, "acme", 5);
      addHooks(d, hooks, null, 3);
      addHooks(d, hooks, "globex", 1);
      addHooks(d, hooks, "initech", 5);
      addHooks(d, hooks, "hooli", 2);
      for (int i = 0; i < 9; i++) {
        hooks.add(d.newHook("later", now + 5_000 + i, 1, 4));
      }
      d.ingest().ingest(hooks);
      long acme = ordOf(store, "acme");
      List<DueRow> acmeRows = DueIndex.pendingForTenant(store, acme, 10);
      Transition claim = new Transition();
      Deliveries.claim(claim, acmeRows.get(0));
      Deliveries.claim(claim, acmeRows.get(1));
      d.write(claim);
      Transition retry = new Transition();
      for (InflightRow row : inflightOf(store, acme)) {
        Deliveries.retry(retry, row, d.deliveryRow(row.key().seq(), row.key().sink()), START + 60_000, "503");
      }
      d.write(retry);
      claimAllOf(d, ordOf(store, "hooli"));

      List<QueueGauges.TenantPending> top = new QueueGauges(d.queue()).topTenantsByPending(3, now);
      assertThat(top).extracting(p -> p.tenant().value()).as("top 3 by pending, ties by ordinal")
          .containsExactly("initech", "acme", TenantId.DEFAULT_NAME);
      assertThat(top).extracting(QueueGauges.TenantPending::pending).containsExactly(5L, 3L, 3L);
      assertThat(d.queue().counters().read(store, acme)).as("acme: 3 pending and 2 scheduled")
          .extracting(TenantCounts::pending, TenantCounts::scheduled).containsExactly(3L, 2L);
      Map<Long, TenantCounts> fold = CounterFold.fold(store);
      for (QueueGauges.TenantPending p : top) {
        assertThat(p.pending()).as("top tenant %s vs a fold", p.tenant().value()).isEqualTo(fold.get(p.ord()).pending());
        assertThat(p.ord()).isEqualTo(ordOf(store, p.tenant().value()));
      }
      List<QueueGauges.TenantPending> all = new QueueGauges(d.queue()).topTenantsByPending(10, now);
      assertThat(all).extracting(p -> p.tenant().value())
          .as("every tenant with something pending and a marker due now, and no other ('later' is due later)")
          .containsExactly("initech", "acme", TenantId.DEFAULT_NAME, "globex");
      assertThat(new QueueGauges(d.queue()).topTenantsByPending(1, now + 60_000))
          .as("once its rows are due, 'later' leads").extracting(p -> p.tenant().value()).containsExactly("later");
    }
  }

  // ================================================================ reclaim

  /** Markers a {@link #reclaimProgressesPastOwedHooksAtTheHead} pass visits. */
  static final int RECLAIM_LIMIT = 20;

  /**
   * Reclaim always progresses: the first {@code 10 × limit} cleared hooks each still owe a sink that
   * was dead-lettered (so their {@code 'c'} markers sit at the head of the range for good), and the
   * {@code 5 × limit} newer ones owe nothing. Within {@code ceil(15 × limit / limit) = 15} passes of
   * {@code limit} markers every newer hook is deleted and every owing one kept; once the DLQ is purged
   * the owing ones go too, within one more lap.
   */
  @Example
  public void reclaimProgressesPastOwedHooksAtTheHead() {
    int owing = 10 * RECLAIM_LIMIT;
    int free = 5 * RECLAIM_LIMIT;
    int bound = (owing + free + RECLAIM_LIMIT - 1) / RECLAIM_LIMIT;
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), QueueConfig.defaults());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < owing; i++) {
        hooks.add(d.newHook("acme", START + i, 2, 4));
      }
      for (int i = 0; i < free; i++) {
        hooks.add(d.newHook("acme", START + owing + i, 1, 4));
      }
      d.ingest().ingest(hooks);
      List<InflightRow> claimed = new Dispatcher(d.queue(), () -> Long.MAX_VALUE, owing * 2 + free, Long.MAX_VALUE)
          .tick(START + 60_000).claimed();
      assertThat(claimed).hasSize(owing * 2 + free);
      Transition settle = new Transition();
      for (InflightRow row : claimed) {
        DeliveryRow state = d.deliveryRow(row.key().seq(), row.key().sink());
        if (row.key().sink() == 2) {
          Deliveries.deadLetter(settle, row, state, START + 60_000, "src", "h", "410 gone");
        } else {
          Deliveries.delivered(settle, row);
        }
      }
      d.write(settle);
      long firstFree = owing + 1;

      int passes = 0;
      while (passes < bound && storedHookSeqs(t.store()).stream().anyMatch(seq -> seq >= firstFree)) {
        Reclaim.run(d.queue(), RECLAIM_LIMIT);
        passes++;
      }
      Set<Long> left = storedHookSeqs(t.store());
      assertThat(left).as("after %d passes of %d markers (bound %d), %d owing hooks at the head: the newer hooks"
          + " nothing owes are all reclaimed, the owing ones all kept", passes, RECLAIM_LIMIT, bound, owing)
          .hasSize(owing).allMatch(seq -> seq < firstFree);

      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.of(Purge.Kind.DEAD))).isEqualTo(owing);
      for (int i = 0; i <= bound && !storedHookSeqs(t.store()).isEmpty(); i++) {
        Reclaim.run(d.queue(), RECLAIM_LIMIT);
      }
      assertThat(storedHookSeqs(t.store())).as("once the DLQ is purged, every hook is reclaimed within a lap").isEmpty();
      assertCountersEqualFold(t.store(), "after reclaim");
    }
  }

  private static Set<Long> storedHookSeqs(ReadView view) {
    Set<Long> out = new TreeSet<>();
    KeyRange range = Keys.realKeysOf(KeyFamily.HOOK);
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        out.add(ByteBuffer.wrap(scan.next().key()).getLong());
      }
    }
    return out;
  }

  // ================================================================ archive

  /**
   * The archive scan stops at {@code durableSeq}: generated ingests, dispatch and reclaim between
   * archiver runs whose watermark lags the newest seq by 0–6; no run appends a hook above the
   * watermark it was given (checked inside {@link QueueAction.Archive}), and after each action
   * {@code archive_pending} equals the {@code 'a'} rows.
   */
  @Property
  public void archiveNeverGetsAHookAboveDurableSeq(@ForAll("archiveActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertCountersEqualFold(t.store(), describe(i, actions, did));
      }
    }
  }

  /**
   * Issue 9's at-least-once guarantee: with syncs refused and restarts that lose unsynced appends,
   * after every action each hook ever ingested is still an {@code 'a'} obligation or in what the sink
   * synced, with the bytes it was stored with; a final drain leaves no obligation, every seq archived
   * once (as a de-duplicating reader sees it) and {@code archive_pending} zero.
   */
  @Property
  public void archiverSettlesOnlyWhatTheSinkSynced(@ForAll("archiveActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      Map<Long, byte[]> stored = new TreeMap<>();
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        rememberHooks(d, stored);
        assertEveryHookIsOwedOrArchived(d, stored, describe(i, actions, did));
      }
      d.restartArchiver();
      d.archiveWatermark(d.queue().lastSeq());
      d.archiver().drain();
      assertEveryHookIsOwedOrArchived(d, stored, "after a final drain");
      assertThat(d.archiveObligations()).as("obligations after a final drain of %s", actions).isEmpty();
      assertThat(d.archive().synced().keySet()).as("archived seqs after a final drain of %s", actions)
          .containsExactlyElementsOf(stored.keySet());
      assertCountersEqualFold(t.store(), "after a final drain");
    }
  }

  /** Records the envelope of every hook not seen before (hooks are immutable once stored). */
  private static void rememberHooks(QueueDriver d, Map<Long, byte[]> stored) {
    for (HookEnvelope h : d.hooks()) {
      stored.computeIfAbsent(h.seq(), seq -> d.store().get(Format3.HOOKS, Keys.hook(seq)));
    }
  }

  private static void assertEveryHookIsOwedOrArchived(QueueDriver d, Map<Long, byte[]> stored, String when) {
    Set<Long> owed = new HashSet<>();
    d.archiveObligations().forEach(o -> owed.add(o.seq()));
    List<String> lost = new ArrayList<>();
    for (Map.Entry<Long, byte[]> h : stored.entrySet()) {
      byte[] archived = d.archive().synced().get(h.getKey());
      if (archived == null && !owed.contains(h.getKey())) {
        lost.add("hook " + h.getKey() + " is neither an obligation nor in the synced archive");
      } else if (archived != null && !Arrays.equals(archived, h.getValue())) {
        lost.add("hook " + h.getKey() + " archived as " + Bytes.hex(archived) + " but stored as " + Bytes.hex(h.getValue()));
      }
    }
    assertThat(lost).as("%s: every hook is owed to the archive or in it", when).isEmpty();
    assertCountersEqualFold(d.store(), when);
  }

  // ================================================================ edges

  /**
   * Ordinals are never reused, even across a fence: a new tenant whose group was applied but never
   * acknowledged (its WAL sync failed) has its ordinal retired by the writer's repair — {@code 't'}
   * a tombstone, no {@code 'n'} row, {@code m:next_ord} past it — so the tenant's retry and a later
   * new tenant get new ordinals, and the verifier finds the store clean.
   */
  @Example
  public void aFenceNeverReusesAnOrdinal() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      SyncFailingStore store = new SyncFailingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
      try (QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults())) {
        assertThat(ingestThrough(writer, "acme").outcome()).as("acme, ordinal 1").isEqualTo(IngestResult.Outcome.CREATED);
        store.failNextSync();
        assertThat(ingestThrough(writer, "newco").outcome()).as("newco (ordinal 2), whose group's sync failed")
            .isEqualTo(IngestResult.Outcome.UNAVAILABLE);
        assertThat(retryWhileFenced(writer, "newco").outcome()).as("newco's retry after the repair")
            .isEqualTo(IngestResult.Outcome.CREATED);
        assertThat(ingestThrough(writer, "globex").outcome()).isEqualTo(IngestResult.Outcome.CREATED);
      }
      assertThat(Tenants.ord(store, TenantId.of("newco"))).as("newco's retry gets a new ordinal, not the retired 2")
          .hasValue(3);
      assertThat(store.get(Format3.TENANTS, Keys.tenantByOrd(2))).as("'t' 2 is a tombstone").isNotNull().isEmpty();
      assertThat(Tenants.ord(store, TenantId.of("globex"))).as("a later new tenant").hasValue(4);
      assertThat(Tenants.nextOrdinal(store)).as("m:next_ord").isEqualTo(5);
      assertThat(QueueVerifier.verify(store)).as("verifier after a fence and its repair").isEmpty();
    }
  }

  private static IngestResult ingestThrough(QueueWriter writer, String tenant) throws Exception {
    IngestRequest request = new IngestRequest(tenant, "src", tenant + "-" + System.nanoTime(), null, START,
        List.of(1), new byte[] {1, 2, 3});
    return writer.ingest(request).get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Ingests until the answer is not UNAVAILABLE (the writer refuses everything until its repair is done). */
  private static IngestResult retryWhileFenced(QueueWriter writer, String tenant) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(THREAD_WAIT_SECONDS);
    while (true) {
      IngestResult r = ingestThrough(writer, tenant);
      if (r.outcome() != IngestResult.Outcome.UNAVAILABLE || System.nanoTime() > deadline) {
        return r;
      }
      Thread.sleep(1);
    }
  }

  /** A store whose next {@code syncWal()}, once armed, fails as a disk that refused an fsync. */
  private static final class SyncFailingStore extends ForwardingStore {
    private final AtomicBoolean failNext = new AtomicBoolean();

    SyncFailingStore(Store delegate) {
      super(delegate);
    }

    void failNextSync() {
      failNext.set(true);
    }

    @Override
    public void syncWal() {
      if (failNext.compareAndSet(true, false)) {
        throw new StoreWriteFailedException("WAL sync of " + delegate.directory()
            + " refused by the conformance suite (aFenceNeverReusesAnOrdinal)");
      }
      delegate.syncWal();
    }
  }

  /**
   * The {@code at} domain is closed: due rows at {@code Long.MAX_VALUE} and one millisecond before
   * are found by every range read — a purge removes both and the tenant can then be erased; a tick at
   * the last millisecond claims a row due then.
   */
  @Example
  public void theLastMillisecondIsInsideEveryRangeRead() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest().ingest(List.of(d.newHook("edge", Long.MAX_VALUE, 1, 4), d.newHook("edge", Long.MAX_VALUE - 1, 1, 4)));
      long edge = ordOf(store, "edge");
      assertThat(DueIndex.pendingForTenant(store, edge, 10)).as("edge's due rows").hasSize(2);
      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("edge"), EnumSet.of(Purge.Kind.DUE)))
          .as("rows purged, the one at Long.MAX_VALUE included").isEqualTo(2);
      assertThat(TenantErase.erase(d.queue(), TenantId.of("edge"))).as("the purged tenant is erased").isTrue();

      d.ingest().ingest(d.newHook("late", Long.MAX_VALUE, 1, 4));
      Dispatcher.TickReport tick = new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 10, Long.MAX_VALUE).tick(Long.MAX_VALUE);
      assertThat(tick.rowsClaimed()).as("a tick at Long.MAX_VALUE claims the row due then").isEqualTo(1);
      assertCountersEqualFold(store, "after the purge, the erase and the tick");
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /**
   * Cleanup never strands a row, however many seconds concurrent enqueues land in: tenant acme has
   * stale markers in seconds B and B+1 (their rows were claimed) and its first due row at B+5; the
   * dispatcher's cleanup deletes markers B and B+1. Two writers commit acme rows in B and in B+1 —
   * both just before the delete (placed there by a {@link RecordingStore}), or one before it and one
   * between the delete and the verify. Afterwards every due row has its marker.
   */
  @Example
  public void cleanupKeepsTheMarkersOfConcurrentEnqueuesInTwoSeconds() {
    for (boolean secondWriterAfterDelete : List.of(false, true)) {
      String when = secondWriterAfterDelete ? "one writer before the delete, one between delete and verify"
          : "both writers between cleanup's read and its delete";
      try (TempDirStore t = openQueueStore()) {
        RecordingStore store = new RecordingStore(t.store());
        QueueDriver d = new QueueDriver(store, queueConfig());
        long bucketB = ActiveKey.bucketOf(START);
        d.ingest().ingest(List.of(d.newHook("acme", START + 100, 1, 8), d.newHook("acme", START + 1_100, 1, 8),
            d.newHook("acme", START + 5_100, 1, 8)));
        long acme = ordOf(store, "acme");
        Transition claim = new Transition();
        DueIndex.pendingForTenant(store, acme, 2).forEach(r -> Deliveries.claim(claim, r));
        d.write(claim);
        long now = START + 10_000;
        List<Long> scanned = scannedBuckets(store, acme, now);
        assertThat(scanned).as("%s: acme's markers", when).containsExactly(bucketB, bucketB + 1, bucketB + 5);

        Runnable writerInB = () -> d.ingest().ingest(d.newHook("acme", START + 200, 1, 8));
        Runnable writerInB1 = () -> d.ingest().ingest(d.newHook("acme", START + 1_200, 1, 8));
        if (secondWriterAfterDelete) {
          store.beforeWrite(LayoutConformance::deletesAMarker, writerInB);
          ActiveIndex.cleanup(store, acme, scanned, now, writerInB1);
        } else {
          store.beforeWrite(LayoutConformance::deletesAMarker, () -> {
            writerInB.run();
            writerInB1.run();
          });
          ActiveIndex.cleanup(store, acme, scanned, now);
        }
        assertThat(DueIndex.pendingForTenant(store, acme, 10)).as("%s: the writers' rows and the first due row", when)
            .hasSize(3);
        assertEveryDueRowHasAMarker(store, when);
        assertThat(ActiveIndex.all(store)).as("%s: markers afterwards", when)
            .containsExactly(new ActiveKey(bucketB, acme), new ActiveKey(bucketB + 1, acme), new ActiveKey(bucketB + 5, acme));
        assertThat(QueueVerifier.verify(store)).as("%s: verifier", when).isEmpty();
      }
    }
  }

  /**
   * A crash inside cleanup strands no row for good: tenant acme's rows in seconds B and B+1 were
   * delivered (their markers stale), its next row is due a day later. Two writers commit acme rows in
   * B and B+1 just before cleanup's delete, and the process dies right after the delete (the seam
   * throws), so both rows have lost their markers. Boot recovery restores the first one's; then
   * ticks claiming one row each reach both rows, and after every tick every due row has its marker.
   */
  @Example
  public void aCrashInsideCleanupStrandsNoRowForGood() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore store = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest().ingest(List.of(d.newHook("acme", START + 100, 1, 8), d.newHook("acme", START + 1_100, 1, 8),
          d.newHook("acme", START + DAY_MS, 1, 8)));
      long acme = ordOf(store, "acme");
      long now = START + 10_000;
      Dispatcher oneRow = new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 1, Long.MAX_VALUE);
      Transition claimAndDeliver = new Transition();
      DueIndex.pendingForTenant(store, acme, 2).forEach(r -> Deliveries.claim(claimAndDeliver, r));
      d.write(claimAndDeliver);
      Transition delivered = new Transition();
      d.inflightRows().forEach(r -> Deliveries.delivered(delivered, r));
      d.write(delivered);
      List<Long> scanned = scannedBuckets(store, acme, now);
      long bucketB = ActiveKey.bucketOf(START);
      assertThat(scanned).as("acme's stale markers").containsExactly(bucketB, bucketB + 1);

      store.beforeWrite(LayoutConformance::deletesAMarker, () -> {
        d.ingest().ingest(d.newHook("acme", START + 200, 1, 8));
        d.ingest().ingest(d.newHook("acme", START + 1_200, 1, 8));
      });
      assertThatThrownBy(() -> ActiveIndex.cleanup(store, acme, scanned, now, () -> {
        throw new IllegalStateException("the process dies between cleanup's delete and its verify");
      })).isInstanceOf(IllegalStateException.class);
      assertThat(ActiveIndex.all(store)).as("markers left by the crashed cleanup").containsExactly(
          new ActiveKey(ActiveKey.bucketOf(START + DAY_MS), acme));

      InflightRecovery.recoverInflight(d.queue(), now);
      assertThat(ActiveIndex.all(store)).as("after boot recovery").contains(new ActiveKey(bucketB, acme));
      for (int tick = 1; tick <= 2; tick++) {
        assertThat(oneRow.tick(now).rowsClaimed()).as("tick %d claims one of the stranded rows", tick).isEqualTo(1);
        assertEveryDueRowHasAMarker(store, "after tick " + tick + " at " + now);
      }
      assertThat(DueIndex.dueForTenant(store, acme, now, 0, 10, Long.MAX_VALUE, Long.MAX_VALUE))
          .as("acme's rows due by now, after two ticks").isEmpty();
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /**
   * Orphan drop: boot-time recovery removes an inflight row whose hook envelope is gone, with its
   * delivery row and its counts (inflight −1, bytes −size), and makes the other inflight rows due
   * again; counters equal a fold and the verifier finds nothing.
   */
  @Example
  public void recoveryDropsAnInflightRowWhoseHookIsGone() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      d.ingest().ingest(List.of(d.newHook("acme", START, 2, 10), d.newHook("acme", START, 1, 7),
          d.newHook("globex", START, 1, 5)));
      d.advance(1_000);
      assertThat(new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 100, Long.MAX_VALUE).tick(d.now()).rowsClaimed())
          .as("every row claimed").isEqualTo(4);
      long orphan = d.hooks().get(0).seq();
      store.write(new Batch().delete(Format3.HOOKS, Keys.hook(orphan)), Durability.SYNC);

      InflightRecovery.Result result = InflightRecovery.recoverInflight(d.queue(), d.now());
      assertThat(result.orphansDropped()).as("the two inflight rows of hook %d, whose envelope is gone", orphan).isEqualTo(2);
      assertThat(result.recovered()).as("the other inflight rows, due again").isEqualTo(2);
      assertThat(d.inflightRows()).as("inflight rows after recovery").isEmpty();
      KeyRange orphanRows = Keys.deliveriesOf(orphan);
      try (Scan scan = store.scan(orphanRows.columnFamily(), orphanRows.lo(), orphanRows.hi(), Direction.FORWARD)) {
        assertThat(scan.hasNext()).as("a delivery row of the orphaned hook %d is left", orphan).isFalse();
      }
      assertThat(d.queue().counters().read(store, ordOf(store, "acme"))).as("acme: the one recovered row, 7 bytes")
          .isEqualTo(new TenantCounts(1, 0, 0, 0, 7, 0));
      assertCountersEqualFold(store, "after recovery dropped the orphans");
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  // ================================================================ generators

  /** Generated, shrinkable sequences of every queue transition, archiver runs included (case 1). */
  @Provide
  Arbitrary<List<QueueAction>> queueActions() {
    return transitions(true);
  }

  /**
   * The same without archiver runs (case 5): they touch no due row or marker, and leaving them out keeps
   * the retries and claims that can strand a marker as frequent as the marker case needs.
   */
  @Provide
  Arbitrary<List<QueueAction>> markerActions() {
    return transitions(false);
  }

  private static Arbitrary<List<QueueAction>> transitions(boolean withArchiverRuns) {
    Arbitrary<Integer> tenant = Arbitraries.integers().between(0, QueueDriver.TENANTS.size() - 1);
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 50);
    Arbitrary<QueueAction> ingest = Combinators.combine(tenant, Arbitraries.integers().between(1, 3),
        Arbitraries.integers().between(1, 3), Arbitraries.longs().between(-1500, 2500),
        Arbitraries.integers().between(0, 64)).as(QueueAction.Ingest::new);
    Arbitrary<QueueAction> tick = Combinators.combine(Arbitraries.longs().between(0, 3000),
        Arbitraries.integers().between(1, 8)).as(QueueAction.Tick::new);
    Arbitrary<QueueAction> deliver = pick.map(QueueAction.Deliver::new);
    Arbitrary<QueueAction> retry = Combinators.combine(pick, Arbitraries.longs().between(0, 4000)).as(QueueAction.Retry::new);
    Arbitrary<QueueAction> deadLetter = pick.map(QueueAction.DeadLetter::new);
    Arbitrary<QueueAction> revive = pick.map(QueueAction.Revive::new);
    Arbitrary<QueueAction> recover = Arbitraries.just(new QueueAction.RecoverInflight());
    Arbitrary<QueueAction> expand = pick.map(QueueAction.Expand::new);
    Arbitrary<QueueAction> purge = Combinators.combine(tenant, Arbitraries.integers().between(0, 2))
        .as((tn, kinds) -> new QueueAction.PurgeTenant(tn, kinds != 1, kinds != 0));
    Arbitrary<QueueAction> archive = Combinators.combine(pick, Arbitraries.of(false, true)).as(QueueAction.SettleArchive::new);
    Arbitrary<QueueAction> reclaim = Arbitraries.integers().between(1, 10).map(QueueAction.ReclaimHooks::new);
    List<Tuple.Tuple2<Integer, Arbitrary<QueueAction>>> mix = new ArrayList<>(List.of(
        Tuple.of(8, ingest), Tuple.of(6, tick), Tuple.of(3, deliver), Tuple.of(4, retry), Tuple.of(3, deadLetter),
        Tuple.of(3, revive), Tuple.of(1, recover), Tuple.of(2, expand), Tuple.of(1, purge), Tuple.of(2, archive),
        Tuple.of(1, reclaim)));
    if (withArchiverRuns) {
      mix.add(Tuple.of(2, archiverRuns()));
    }
    return Arbitraries.frequencyOf(mix).list().ofMinSize(1).ofMaxSize(30);
  }

  /** Ingest, dispatch, delivery and reclaim between archiver runs (the archive cases). */
  @Provide
  Arbitrary<List<QueueAction>> archiveActions() {
    Arbitrary<QueueAction> ingest = Combinators.combine(Arbitraries.integers().between(0, QueueDriver.TENANTS.size() - 1),
        Arbitraries.integers().between(1, 4), Arbitraries.integers().between(1, 2), Arbitraries.longs().between(-1500, 500),
        Arbitraries.integers().between(0, 40)).as(QueueAction.Ingest::new);
    Arbitrary<QueueAction> tick = Combinators.combine(Arbitraries.longs().between(0, 3000),
        Arbitraries.integers().between(1, 8)).as(QueueAction.Tick::new);
    Arbitrary<QueueAction> deliver = Arbitraries.integers().between(0, 50).map(QueueAction.Deliver::new);
    Arbitrary<QueueAction> reclaim = Arbitraries.integers().between(1, 10).map(QueueAction.ReclaimHooks::new);
    @SuppressWarnings("unchecked")
    Arbitrary<QueueAction> action = Arbitraries.frequencyOf(
        Tuple.of(6, ingest), Tuple.of(3, tick), Tuple.of(3, deliver), Tuple.of(2, reclaim), Tuple.of(6, archiverRuns()));
    return action.list().ofMinSize(1).ofMaxSize(30);
  }

  private static Arbitrary<QueueAction> archiverRuns() {
    return Combinators.combine(Arbitraries.integers().between(0, 6), Arbitraries.integers().between(1, 4),
        Arbitraries.of(false, true), Arbitraries.of(false, false, true), Arbitraries.of(false, false, false, true))
        .as(QueueAction.Archive::new);
  }

  // ================================================================ checks and helpers

  /**
   * Every tenant's counters and the aggregate equal a fold of the rows (a counter row that is missing
   * counts as zero), else fails naming {@code when} and every difference.
   */
  protected static void assertCountersEqualFold(ReadView view, String when) {
    Map<Long, TenantCounts> stored = Counters.readAll(view);
    Map<Long, TenantCounts> folded = CounterFold.fold(view);
    Set<Long> ords = new TreeSet<>(stored.keySet());
    ords.addAll(folded.keySet());
    List<String> differences = new ArrayList<>();
    for (long ord : ords) {
      TenantCounts s = stored.getOrDefault(ord, TenantCounts.ZERO);
      TenantCounts f = folded.getOrDefault(ord, TenantCounts.ZERO);
      if (!s.equals(f)) {
        differences.add((ord == 0 ? "aggregate (ord 0)" : "tenant ord " + ord) + ": counters " + s + " but the fold gives " + f);
      }
    }
    assertThat(differences).as("%s: counters equal a fold of the rows", when).isEmpty();
  }

  /** Every {@code 'D'} row has its {@code 'A' (at/1000) ord} marker, else fails naming {@code when} and the rows. */
  protected static void assertEveryDueRowHasAMarker(ReadView view, String when) {
    Set<ActiveKey> markers = new HashSet<>(ActiveIndex.all(view));
    List<String> missing = new ArrayList<>();
    CounterFold.foldFamily(view, KeyFamily.DUE, e -> {
      DueKey k = DueKey.decode(e.key());
      ActiveKey needed = new ActiveKey(ActiveKey.bucketOf(k.at()), k.ord());
      if (!markers.contains(needed)) {
        missing.add("due row " + k + " has no marker " + needed);
      }
    });
    assertThat(missing).as("%s: every due row has its active marker", when).isEmpty();
  }

  private static String describe(int i, List<QueueAction> actions, String did) {
    return "after action " + i + " (counting from 0) of " + actions.size() + ", " + actions.get(i) + " (" + did + ")";
  }

  private static HookEnvelope hook(QueueDriver d, String tenant) {
    return d.newHook(tenant, START, 1, 4);
  }

  private static void addHooks(QueueDriver d, List<HookEnvelope> into, String tenant, int n) {
    for (int i = 0; i < n; i++) {
      into.add(d.newHook(tenant, START + i * 10L, 1, 4));
    }
  }

  private static long ordOf(ReadView view, String tenant) {
    OptionalLong ord = Tenants.ord(view, TenantId.of(tenant));
    assertThat(ord).as("ordinal of tenant %s", TenantId.of(tenant).value()).isPresent();
    return ord.getAsLong();
  }

  private static void assertOrdinals(ReadView view, Map<String, Long> expected, long next, String when) {
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      assertThat(Tenants.ord(view, TenantId.of(e.getKey()))).as("%s: 'n' %s", when, e.getKey()).hasValue(e.getValue());
      assertThat(Tenants.name(view, e.getValue())).as("%s: 't' %d", when, e.getValue()).contains(TenantId.of(e.getKey()));
    }
    assertThat(Tenants.nextOrdinal(view)).as("%s: next_ord", when).isEqualTo(next);
    assertThat(Tenants.name(view, next)).as("%s: no 't' row at next_ord", when).isEmpty();
  }

  /** Claims every due row of {@code ord} directly (no cleanup), so its markers go stale. */
  private static void claimAllOf(QueueDriver d, long ord) {
    Transition t = new Transition();
    DueIndex.pendingForTenant(d.store(), ord, 10_000).forEach(r -> Deliveries.claim(t, r));
    d.write(t);
  }

  private static List<Long> scannedBuckets(ReadView view, long ord, long now) {
    List<Long> out = new ArrayList<>();
    for (ActiveKey m : ActiveIndex.activeTenants(view, now, ActiveIndex.DEFAULT_LIMIT)) {
      if (m.ord() == ord) {
        out.add(m.bucket());
      }
    }
    return out;
  }

  private static Set<Long> activeOrds(ReadView view, long now) {
    Set<Long> out = new TreeSet<>();
    ActiveIndex.activeTenants(view, now, ActiveIndex.DEFAULT_LIMIT).forEach(m -> out.add(m.ord()));
    return out;
  }

  private static Set<Long> tenantsWithDueRowsUpTo(ReadView view, long at) {
    Set<Long> out = new TreeSet<>();
    CounterFold.foldFamily(view, KeyFamily.DUE, e -> {
      DueKey k = DueKey.decode(e.key());
      if (k.at() <= at) {
        out.add(k.ord());
      }
    });
    return out;
  }

  private static List<InflightRow> inflightOf(ReadView view, long ord) {
    KeyRange range = Keys.inflightOf(ord);
    List<InflightRow> out = new ArrayList<>();
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        out.add(new InflightRow(InflightKey.decode(e.key()), InflightValue.decodeAt(e.key(), e.value())));
      }
    }
    return out;
  }

  /**
   * Everything of tenant {@code ord} a purge of another tenant must leave alone, as text: its
   * {@code 'D'}, {@code 'F'}, {@code 'X'} rows, its {@code 'x'} rows, their delivery rows and hooks,
   * and its counters.
   */
  private static String tenantState(ReadView view, Counters counters, long ord) {
    StringBuilder sb = new StringBuilder();
    Set<Long> seqs = new TreeSet<>();
    List<byte[]> deliveryKeys = new ArrayList<>();
    for (KeyRange r : List.of(Keys.dueOf(ord), Keys.inflightOf(ord), Keys.deadByTenantOf(ord))) {
      try (Scan scan = view.scan(r.columnFamily(), r.lo(), r.hi(), Direction.FORWARD)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          sb.append(Bytes.fullHex(e.key())).append('=').append(Bytes.fullHex(e.value())).append('\n');
        }
      }
    }
    CounterFold.foldFamily(view, KeyFamily.DEAD, e -> {
      if (DeadValue.decodeAt(e.key(), e.value()).ord() == ord) {
        DeadKey k = DeadKey.decode(e.key());
        sb.append(Bytes.fullHex(e.key())).append('=').append(Bytes.fullHex(e.value())).append('\n');
        seqs.add(k.seq());
        deliveryKeys.add(Keys.delivery(k.seq(), k.sink()));
      }
    });
    for (DueRow r : DueIndex.pendingForTenant(view, ord, 100_000)) {
      seqs.add(r.seq());
      deliveryKeys.add(Keys.delivery(r.seq(), r.key().sink()));
    }
    for (InflightRow r : inflightOf(view, ord)) {
      seqs.add(r.key().seq());
      deliveryKeys.add(Keys.delivery(r.key().seq(), r.key().sink()));
    }
    List<byte[]> rows = deliveryKeys.isEmpty() ? List.of() : view.multiGet(Format3.DELIVERIES, deliveryKeys);
    for (int i = 0; i < rows.size(); i++) {
      sb.append("delivery ").append(Bytes.fullHex(deliveryKeys.get(i))).append('=')
          .append(rows.get(i) == null ? "absent" : Bytes.fullHex(rows.get(i))).append('\n');
    }
    for (long seq : seqs) {
      sb.append("hook ").append(seq).append(view.get(Format3.HOOKS, Keys.hook(seq)) == null ? " absent" : " present").append('\n');
    }
    return sb.append("counters ").append(counters.read(view, ord)).toString();
  }

  /** Every recorded scan lies within one of {@code allowed} (same family, inside its bounds). */
  private static void assertScansWithin(RecordingStore rec, String call, KeyRange... allowed) {
    List<RecordingStore.ScanRead> scans = rec.scans();
    assertThat(scans).as("%s scans something", call).isNotEmpty();
    for (RecordingStore.ScanRead s : scans) {
      boolean inside = false;
      for (KeyRange r : allowed) {
        inside |= s.family().equals(r.columnFamily()) && Bytes.compare(s.lo(), r.lo()) >= 0
            && s.hi() != null && Bytes.compare(s.hi(), r.hi()) <= 0;
      }
      assertThat(inside).as("%s: scan %s lies within the tenant's ranges %s", call, s,
          Arrays.stream(allowed).map(r -> "[" + Bytes.hex(r.lo()) + ", " + Bytes.hex(r.hi()) + ")").toList())
          .isTrue();
    }
  }

  private static void assertNoHookRead(RecordingStore rec, String call) {
    assertThat(rec.reads()).as("%s reads no hook envelope", call).noneMatch(r -> r.family().equals(Format3.HOOKS));
  }

  /**
   * A queue with every kind of row over {@code tenants} tenants (the default among them): due rows of
   * both kinds in past and future seconds, inflight rows, dead rows, archive obligations, and stale
   * markers (rows claimed without a cleanup). Leaves the clock at a time with rows due.
   */
  private static void populateMixedState(QueueDriver d, int tenants) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      String tenant = i == 0 ? null : "tenant-" + i;
      hooks.add(d.newHook(tenant, START + i * 100L, 1 + i % 3, 5 + i));
      hooks.add(d.newHook(tenant, START + 20_000 + i * 100L, 1, 7));
    }
    d.ingest().ingest(hooks);
    d.advance(10_000);
    new Dispatcher(d.queue(), () -> Long.MAX_VALUE, tenants, Long.MAX_VALUE).tick(d.now());
    Transition t = new Transition();
    int i = 0;
    for (InflightRow row : d.inflightRows()) {
      switch (i++ % 3) {
        case 0:
          Deliveries.retry(t, row, d.deliveryRow(row.key().seq(), row.key().sink()), d.now() + 3_000, "503");
          break;
        case 1:
          Deliveries.deadLetter(t, row, d.deliveryRow(row.key().seq(), row.key().sink()), d.now(), "src", "h", "410");
          break;
        default:
          break;
      }
    }
    d.write(t);
    for (int k = 1; k < 5; k++) {
      claimAllOf(d, k);
    }
    d.advance(5_000);
  }
}
