package io.ankusa.store.conformance;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.counter.CounterFold;
import io.ankusa.store.queue.Deliveries;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.maintenance.QueueVerifier;
import io.ankusa.store.spi.Capabilities;
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
 *       lose unsynced appends: every hook is always an obligation or in the synced archive;
 *   <li>{@link #createdAndDuplicateAreAnsweredOnlyAfterTheSyncCoveringThem} — the writer's sync held
 *       at a gate: applied but not durable, nobody answered;
 *   <li>{@link #groupCommitKeepsEachProducersOrderAndAssignsEachSeqOnce} — four producers at once;
 *   <li>{@link #aGroupHoldsAtMostItsBoundsAndDedupesWithinItself} — requests queued behind a held write;
 *   <li>{@link #aFailedSyncOrWriteFailsExactlyTheAcksItCoversAndTheRetryStoresOnce} — faults from
 *       {@link BackendFixture#injectFaults}: a failed sync, a failed write applied or not;
 *   <li>{@link #aFailedRepairIsRetriedAndAStoreThatCannotRecoverIsRefusedUntilClosed};
 *   <li>{@link #closeAnswersEveryPendingRequestAndLeavesNoneHanging};
 *   <li>{@link #eachOutcomeIsWhatTheProducerIsPromised} — rejected, tenant limit, overloaded, duplicate;
 *   <li>{@link #anIdempotencyKeyIsRememberedForItsTtlAndForgottenAfterTheSweep} — the writer's clock;
 *   <li>{@link #writerConfigRefusesASettingOutOfBoundsNamingIt}.
 * </ol>
 *
 * <p>The cases live in one interface per promise, each a file of its own: {@link CounterCases},
 * {@link TenantDirectoryCases}, {@link ActiveIndexCases}, {@link ReadScopeCases}, {@link
 * MaintenanceCases}, {@link ArchiveCases} and {@link WriterCases}; the generators are {@link LayoutGenerators}, the shared
 * checks {@link LayoutAssertions}. This class ties them to one backend, so a backend author still
 * writes one class.
 *
 * <p>Tries per property come from {@code jqwik.tries.default} (60 in the default build, 1000 with
 * {@code -Pheavy}). A case needing a capability the backend does not claim is skipped with the
 * reason ({@link TestAbortedException}).
 */
public abstract class LayoutConformance extends LayoutGenerators
    implements CounterCases, TenantDirectoryCases, ActiveIndexCases,
    ReadScopeCases, MaintenanceCases, ArchiveCases, WriterCases {
  /**
   * The queue settings every case starts from (a case may add to them, e.g. the archive or a tenant
   * cap): the defaults. Override to run the whole layer in a second configuration, as {@code
   * MemoryShardedLayoutConformanceTest} does with {@code counters.sharded_aggregate} on.
   */
  @Override
  public QueueConfig queueConfig() {
    return QueueConfig.defaults();
  }

  @Override
  public final Capabilities capabilities() {
    return backend().capabilities();
  }

  /** A new store of the backend under test with the format-3 families, in a fresh temporary directory. */
  @Override
  public final TempDirStore openQueueStore() {
    return TempDirStore.open(backend(), Format3.families());
  }
}
