package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.spi.Capabilities;

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
 * ({@link TempDirStore}), lays out the queue with {@link
 * io.ankusa.store.queue.internal.DeliveryQueue#open}, ingests with {@code DirectIngest}, dispatches
 * with {@link io.ankusa.store.queue.internal.dispatch.Dispatcher} (every row visible: {@code
 * visibleSeq = MAX}) and drives the other transitions through the {@link
 * io.ankusa.store.queue.internal.Deliveries} op builders with rows read from the store. Time is a
 * logical clock; nothing waits on the wall clock.
 *
 * <p>The cases, one method each, named for the promise each checks:
 *
 * <ol>
 *   <li>{@link #countersEqualAFoldAfterAnySequenceOfTransitions} — generated {@link QueueAction}
 *       sequences; after every action the counters equal {@link
 *       io.ankusa.store.queue.internal.counter.CounterFold#fold}; at the end {@link
 *       io.ankusa.store.queue.internal.maintenance.QueueVerifier} finds nothing;
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
 *   <li>{@link #reclaimProgressesPastOwedHooksAtTheHead} — owing hooks at the head of {@code 'c'}
 *       never block newer ones;
 *   <li>{@link #reclaimDeletesExactlyTheHooksNothingOwes} — owed by delivery rows (in a span dense
 *       with rows in flight) or by the archive; passes move a cursor and end laps;
 *   <li>{@link #recoveryDropsAnInflightRowWhoseHookIsGone};
 *   <li>{@link #recoveryCountsOnlyTheRowsItMoved} — a settle forced between recovery's scan and its
 *       batch;
 *   <li>{@link #verifierNamesEachBreachAndNothingOnACleanQueue} — each kind of damage, written
 *       through the store, reported exactly;
 *   <li>{@link #eraseRemovesOneTenantAndNothingOfItsNeighbours} — the store differs only in the
 *       erased tenant's keys; a returning tenant gets a new ordinal and dedupes afresh;
 *   <li>{@link #archiveNeverGetsAHookAboveDurableSeq} — generated ingest and archiver runs under a
 *       moving watermark (the archive scan stops at the writer's {@code durableSeq});
 *   <li>{@link #archiverSettlesOnlyWhatTheSinkSynced} — the same with refused syncs and restarts
 *       that lose unsynced appends: every hook is always an obligation or in the synced archive;
 *   <li>{@link #archiverReportsAddUpToWhatItArchived} — chunk reports and drain totals against the
 *       appends, gone hooks, the watermark;
 *   <li>{@link #aFailingSinkOrStoreSettlesNothingOfItsChunk} — refused syncs and a failing read;
 *   <li>{@link #everyCounterIsReadByItsField} — six different counters, each read by its field;
 *   <li>{@link #aFoldMissingASentinelIsRefused};
 *   <li>{@link #dueRowsAreReadFromTheFloorToNowInclusive} — the due index's range reads at their
 *       edges;
 *   <li>{@link #activeTenantsHonourTheLimitAndTheOldestAgeSkipsStaleMarkers};
 *   <li>{@link #repairAndCleanupRestoreAMissingHeadMarker};
 *   <li>{@link #deadLettersPageNewestFirstAndRevivedRowsLeaveThem} — the DLQ's pages, across
 *       tenants and per tenant, and reviving;
 *   <li>{@link #everyHookFieldReadsBackAsIngested} and {@link
 *       #deliveryRowFieldsReadBackAtTheirExtremes} — the queue's records at their edges;
 *   <li>{@link #aDamagedRecordIsRefusedNamingItsFamilyAndKey} — damaged records refused, naming
 *       their family and key;
 *   <li>{@link #runtimeStartsClosesOnceAndRefusesWorkAfterClose} — a {@code QueueRuntime}'s
 *       lifecycle;
 *   <li>{@link #closeStopsInReverseStartOrderAndDrainsTheArchive};
 *   <li>{@link #startRecoversAnUncleanStopBeforeTheFirstClaim};
 *   <li>{@link #rowsAboveTheDurableSeqAreNeverClaimed} — the dispatcher on the writer's watermark;
 *   <li>{@link #aFailingHandlerStopsEveryComponentAndCloseRethrowsIt} — fail-stop;
 *   <li>{@link #aStepOfCloseThatFailsDoesNotStopTheLaterSteps};
 *   <li>{@link #aFailureDuringCloseIsThrownWithTheFailedStepSuppressed};
 *   <li>{@link #startRefusesWhatCannotRunAndLeavesTheStoreFree};
 *   <li>{@link #runtimeSettingsRefuseEachValueBelowOneByName};
 *   <li>{@link #dedupeExpiryRemovesOnlyExpiredEntries};
 *   <li>{@link #theRuntimesWriterForgetsAnExpiredKey};
 *   <li>{@link #theMetricsOfARuntimeEqualWhatTheRowsSay} — {@code QueueMetrics} against the rows;
 *   <li>{@link #theTenantCapIsRefusedNamingTheTenantAndTheCap};
 *   <li>{@link #ordinalsAreCachedPerTenantYetCorrectAfterAnotherQueueAllocates};
 *   <li>{@link #createdAndDuplicateAreAnsweredOnlyAfterTheSyncCoveringThem} — the writer's sync
 *       held at a gate: applied but not durable, nobody answered;
 *   <li>{@link #groupCommitKeepsEachProducersOrderAndAssignsEachSeqOnce} — four producers at once;
 *   <li>{@link #aGroupHoldsAtMostItsBoundsAndDedupesWithinItself} — requests queued behind a held
 *       write;
 *   <li>{@link #aFailedSyncOrWriteFailsExactlyTheAcksItCoversAndTheRetryStoresOnce} — faults from
 *       {@link io.ankusa.store.conformance.BackendFixture#injectFaults}: a failed sync, a failed
 *       write applied or not;
 *   <li>{@link #aFailedRepairIsRetriedAndAStoreThatCannotRecoverIsRefusedUntilClosed};
 *   <li>{@link #closeAnswersEveryPendingRequestAndLeavesNoneHanging};
 *   <li>{@link #eachOutcomeIsWhatTheProducerIsPromised} — rejected, tenant limit, overloaded,
 *       duplicate;
 *   <li>{@link #anIdempotencyKeyIsRememberedForItsTtlAndForgottenAfterTheSweep} — the writer's
 *       clock;
 *   <li>{@link #aWriterStartedOnAKnownStoreReadsNoKnownTenantsRowAndADamagedRowDoesNotStopIt} — the
 *       ordinals read at start, through a {@link RecordingStore};
 *   <li>{@link #writerConfigRefusesASettingOutOfBoundsNamingIt}.
 * </ol>
 *
 * <p>The cases live in one interface per promise, each a file of its own: {@link CounterCases},
 * {@link TenantDirectoryCases}, {@link ActiveIndexCases}, {@link ReadScopeCases}, {@link
 * MaintenanceCases} (reclaim, recovery, the verifier), {@link TenantEraseCases}, {@link
 * ArchiveCases}, {@link RecordCases}, {@link RuntimeCases} (the runtime's lifecycle) and {@link
 * RuntimeWorkCases} (what its loops do; both stepped by {@link SteppedLoops} through {@link
 * SteppedRuntimes}), {@link WriterCases} (what the writer stores and acknowledges) and {@link
 * WriterRefusalCases} (what it refuses, its faults and close; both sharing {@link WriterChecks}),
 * and {@link FrontDoorCases} (the queue through {@link io.ankusa.store.queue.WebhookQueue}, its
 * threads running); the generators are {@link LayoutGenerators}, the shared checks {@link
 * LayoutAssertions}. This class ties them to one backend, so a backend author still writes one
 * class.
 *
 * <p>Tries per property come from {@code jqwik.tries.default} (60 in the default build, 1000 with
 * {@code -Pheavy}). A case needing a capability the backend does not claim is skipped with the
 * reason ({@link org.opentest4j.TestAbortedException}).
 */
public abstract class LayoutConformance extends LayoutGenerators
    implements CounterCases,
        TenantDirectoryCases,
        ActiveIndexCases,
        ReadScopeCases,
        MaintenanceCases,
        TenantEraseCases,
        ArchiveCases,
        RecordCases,
        RuntimeCases,
        RuntimeWorkCases,
        WriterCases,
        WriterRefusalCases,
        FrontDoorCases {
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

  /**
   * A new store of the backend under test with the format-3 families, in a fresh temporary
   * directory.
   */
  @Override
  public final TempDirStore openQueueStore() {
    return TempDirStore.open(backend(), Format3.families());
  }
}
