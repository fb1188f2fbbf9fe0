package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The suite's self-test: run the engine suite against deliberately broken memory backends and check
 * that each is rejected by the property written for it. Mutant → the property that must catch it:
 *
 * <ul>
 *   <li>DROPS_LAST_OP (a batch drops its last op) → batchOpsApplyInOrder
 *   <li>SCAN_STOPS_EARLY (a scan silently stops after 3 entries) → scanRespectsHalfOpenBounds
 *   <li>VISIT_IGNORES_STOP (a visit goes on calling the visitor after it returned false) →
 *       visitSeesWhatScanSees
 *   <li>BIG_ENDIAN_COUNTERS (counter bytes are big-endian) → mergeBytesIdenticalOnEveryBackend
 *   <li>INCLUSIVE_DELETE_RANGE (deleteRange also removes hi) → deleteRangeIsHalfOpen
 *   <li>SNAPSHOT_SEES_LATER_WRITES (a snapshot reads the live store) →
 *       snapshotDoesNotSeeLaterWrites
 *   <li>HALF_APPLIED_BATCH (a batch is applied one op at a time, visible half-done) →
 *       batchIsAtomicToConcurrentReaders
 *   <li>MULTIGET_DROPS_NULLS (multiGet leaves out absent keys) → multiGetKeepsOrderAndNulls
 *   <li>CLOSE_LEAVES_SCANS_OPEN (close does not close open scans) → everyCallAfterCloseThrows
 *   <li>SIGNED_KEY_ORDER (scans order keys as signed bytes) → keysCompareAsUnsignedBytes
 *   <li>MERGE_READ_MODIFY_WRITE (merge is a get then a put, not atomic, a yield between them) →
 *       concurrentMergesLoseNoOperand, on every run ({@link #racyMergeIsCaughtOnEveryRun})
 *   <li>CORRUPTION_ENDS_SCAN (corruption met by a scan is reported as the end of the range) →
 *       scanNeverEndsEarlyOnCorruption
 *   <li>CORRUPTION_ENDS_SCAN_BEHIND_OPEN_CHECK (the same, behind an open-time check that refuses
 *       the damaged store) → scanNeverEndsEarlyOnCorruption, which reads past the check ({@link
 *       #openTimeCheckIsNotAReadCheck})
 *   <li>EMPTY_RANGE_HOLDS_LO (a scan of [k, k) returns k) → emptyRangeScansNothing
 *   <li>UNBOUNDED_HI_STOPS_AT_FF (hi == null is read as hi = ff) → unboundedHiScansToTheEnd
 *   <li>REVERSE_SCAN_INCLUDES_HI (a reverse scan starts at hi, inclusive) →
 *       reverseScanIsForwardReversed
 *   <li>SCAN_READS_LIVE_STATE (a scan reads the live store step by step) →
 *       scanSeesOneStateWhileWritesGoOn
 *   <li>BAD_BATCH_PARTLY_APPLIED (a refused batch leaves its valid prefix applied) →
 *       badBatchIsRefusedWhole
 *   <li>EMPTY_BATCH_REFUSED (an empty batch throws) → emptyBatchIsANoOp
 *   <li>KEEPS_CALLER_ARRAYS (get returns the array the caller put) → writeDoesNotKeepCallerArrays
 *   <li>SHARES_RETURNED_ARRAYS (get returns the same array to every caller) →
 *       readsReturnFreshCopies
 *   <li>REUSES_READ_ARRAYS (get returns one array per value length, overwritten by the next get) →
 *       readsDoNotReuseReturnedArrays
 *   <li>STALE_MULTIGET_SLOTS (a multiGet answers an absent key with what the previous multiGet
 *       answered in its slot) → consecutiveMultiGetsAnswerOnlyTheirOwnKeys
 *   <li>REPLAYS_PREVIOUS_BATCH (each write of several ops applies the previous such write's ops
 *       again first) → consecutiveWritesApplyOnlyTheirOwnOps
 *   <li>DELETE_CROSSES_FAMILIES (a delete in plain also deletes in counters) →
 *       familiesAreIndependent
 *   <li>SATURATING_MERGE (merge saturates at Long.MIN/MAX instead of wrapping) →
 *       mergeIsSigned64BitAdditionWithWrapAround
 *   <li>MERGE_ONTO_ABSENT_IGNORED (a merge onto an absent key is dropped) →
 *       mergeOntoAbsentKeyEqualsDelta
 *   <li>COUNTER_OF_PLAIN_DECODES (counter() decodes a plain family's value) →
 *       counterOfPlainFamilyIsRefused
 *   <li>LENIENT_READS (get of an empty key returns null) → badReadArgumentsAreRefused
 *   <li>DROPS_EVERY_7TH_BATCH (every 7th batch is silently dropped) → modelBasedRandomBatches
 *   <li>REOPEN_LOSES_LAST_KEY (reopening loses the last key of the plain family) →
 *       syncWritesSurviveReopen
 *   <li>REFUSAL_NAMES_NO_FAMILY (an unlisted family is refused without naming it) →
 *       openRefusesUnlistedFamilies
 *   <li>MULTIGET_CAPS_KEYS (multiGet fails above 65 536 keys) → multiGetOfAMillionKeys
 *   <li>DAMAGE_READ_AS_DATA (damaged entries read back with altered values, no error) →
 *       scanNeverEndsEarlyOnCorruption
 *   <li>SILENT_WAL_DROP (a reopen after mid-log damage drops every later batch; durability layer) →
 *       midLogDamageIsReportedNeverSilentlyDropped
 *   <li>FAMILIES_RECOVER_APART (a log cut short is recovered family by family, splitting batches;
 *       durability layer) → cutLogNeverSplitsABatchAcrossFamilies
 *   <li>SYMLINK_BLIND_LOCK (the directory lock is keyed by the path as given) →
 *       secondOpenThroughSymlinkIsRefused
 *   <li>ADOPTING_PROVIDER (the provider creates its store in any directory) →
 *       foreignOrNonEmptyDirectoryIsRefusedUntouched
 *   <li>SYNC_WAL_DOES_NOTHING (syncWal() commits nothing) → noSyncWritesSurviveReopenAfterSyncWal
 *   <li>SYNC_COMMITTED_AT_CLOSE (a SYNC write committed only at close) → syncWritesSurviveReopen
 *   <li>COMMITS_MID_BATCH (a batch above the write buffer committed in part) →
 *       crashKeepsAcknowledgedWritesAndWholeBatches
 *   <li>REPORT_WRITE_FAILURE_RECOVERS_NOTHING (an engine an I/O failure left failed is never
 *       recovered by reportWriteFailure) → reportWriteFailureRecoversFromInjectedFaults
 *   <li>REPORT_WRITE_FAILURE_NOOP (reportWriteFailure does nothing, after a write that failed half
 *       way through with part of it in the engine) →
 *       reportWriteFailureDiscardsAWriteHalfInTheEngine
 *   <li>CREATE_IF_MISSING_IGNORED (createIfMissing=false still creates a missing family) →
 *       createIfMissingFalseRefusesANewFamily
 *   <li>CLOSE_AFTER_NO_SYNC_LEAVES_SCANS_OPEN (with unsynced writes, scans outlive close) →
 *       closeAfterNoSyncWritesClosesOpenScans
 *   <li>MAX_VALUE_REFUSED (a value of exactly maxValueBytes is refused) →
 *       valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused
 *   <li>SNAPSHOT_RELEASED_AT_FLUSH (a snapshot reads the live store after a flush) →
 *       snapshotHeldAcrossCommitsAndFlushes
 *   <li>LOCK_KEPT_AFTER_FAILURE_REPORT (reportWriteFailure and close never release the exclusive
 *       lock they take) → otherThreadsProceedAfterReportWriteFailureAndClose
 *   <li>SINGLE_DELETE_DROPPED (a batch of one delete is not applied) →
 *       aBatchOfOneOpAppliesLikeAnyOther
 *   <li>VISIT_UNCHECKED (visit skips its argument checks) → badReadArgumentsAreRefused
 *   <li>VISIT_JUDGES_BEFORE_CLOSE (visit refuses a null visitor before it says the store is closed)
 *       → aClosedStoreSaysSoBeforeJudgingArguments
 *   <li>KEY_ORDER_PAST_RANGE_DELETES (a batch applied in key order although it holds a range
 *       delete) → batchOpsApplyInOrder
 *   <li>KEY_ORDER_UNSTABLE (a batch applied in key order, the ops on one key last first) →
 *       batchOpsApplyInOrder
 *   <li>KEPT_CURSOR_NOT_REFRESHED (a forward scan of a range read before reads the first scan's
 *       state) → aRescanSeesWritesSinceTheLastScanOfItsRange
 *   <li>MULTIGET_KEY_BY_KEY (a multiGet reads key by key, no common state) →
 *       batchIsAtomicToConcurrentReaders
 *   <li>RETAINS_SCAN_BOUNDS (a scan checks its entries against the caller's bound arrays as it
 *       reads them) → argumentArraysAreNeverRetained
 *   <li>FREED_SPACE_COUNTED_AT_REOPEN (the open counts large values a batch freed itself and
 *       refuses a cleanly closed store as truncated; {@link FreedSpaceCountingFixture}) →
 *       batchesThatFreeWhatTheyWroteReopenWhole
 * </ul>
 *
 * <p>SYNC_WAL_DOES_NOTHING, SYNC_COMMITTED_AT_CLOSE and COMMITS_MID_BATCH run on {@link
 * CrashableMemoryFixture}, memory behind a pretend journal that simulates crashes; a clean close
 * would commit what each of them left pending, so only a crash shows them. Its honest journal is a
 * control for the crash cases. REPORT_WRITE_FAILURE_RECOVERS_NOTHING runs on {@link
 * FailingEngineMemoryFixture}, whose faults are injected inside a pretend engine; the honest one,
 * recovered by reportWriteFailure, is a control.
 *
 * <p>SYMLINK_BLIND_LOCK and ADOPTING_PROVIDER are provider-level mutants ({@link
 * DirectoryMemoryProvider}): memory stores that claim real directories, so the directory cases
 * apply to them.
 *
 * <p>Four controls make sure the harness itself does not fail everything: the memory store behind a
 * ForwardingStore that changes nothing, the damageable memory store reporting damage honestly, and
 * the memory store claiming its directory honestly through the SPI pass the whole engine suite; the
 * memory store reporting log damage honestly passes the durability layer. Runs print nothing;
 * results go into assertion messages.
 */
class MutantRejectionTest {

  private static final String TABLE =
      Arrays.stream(Mutant.values())
          .map(m -> "  " + m + " (" + m.breaks + ") -> " + m.caughtBy)
          .collect(Collectors.joining("\n", "mutant -> property that must catch it:\n", ""));

  /** Finding a failure is enough here; shrinking it would only make the build slower. */
  private static final Map<String, String> NO_SHRINKING = Map.of("jqwik.shrinking.default", "OFF");

  /**
   * The honest directory control runs the whole suite, creating and opening real directories for
   * every try; its random properties run with few tries to keep the build short (the directory
   * cases are examples).
   */
  private static final Map<String, String> DIRECTORY_RUN =
      Map.of("jqwik.shrinking.default", "OFF", "jqwik.tries.default", "10");

  @ParameterizedTest(name = "{0} is rejected")
  @EnumSource(Mutant.class)
  void everyMutantIsRejectedByItsProperty(Mutant mutant) {
    String previous = System.setProperty(MutantSuites.MUTANT_PROPERTY, mutant.name());
    SuiteRun run;
    try {
      run = SuiteRun.runOnly(MutantSuites.suiteOf(mutant), mutant.caughtBy, NO_SHRINKING);
    } finally {
      if (previous == null) {
        System.clearProperty(MutantSuites.MUTANT_PROPERTY);
      } else {
        System.setProperty(MutantSuites.MUTANT_PROPERTY, previous);
      }
    }
    assertThat(run.named(Outcome.FAILED))
        .as(
            "the engine suite must fail %s (%s) in property %s; it failed %s\n%s",
            mutant, mutant.breaks, mutant.caughtBy, run.named(Outcome.FAILED), TABLE)
        .contains(mutant.caughtBy);
  }

  /**
   * A table-driven case names the row that failed: a call that should have been refused and
   * returned is named in the failure, not reported as AssertJ's bare "Expecting code to raise a
   * throwable".
   */
  @Test
  void aRefusalCaseNamesTheCallThatWasNotRefused() {
    String previous = System.setProperty(MutantSuites.MUTANT_PROPERTY, Mutant.LENIENT_READS.name());
    SuiteRun run;
    try {
      run =
          SuiteRun.runOnly(
              MutantSuites.suiteOf(Mutant.LENIENT_READS),
              "badReadArgumentsAreRefused",
              NO_SHRINKING);
    } finally {
      if (previous == null) {
        System.clearProperty(MutantSuites.MUTANT_PROPERTY);
      } else {
        System.setProperty(MutantSuites.MUTANT_PROPERTY, previous);
      }
    }
    assertThat(run.cases())
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.message())
                    .as("the failure of %s against %s", c.property(), Mutant.LENIENT_READS)
                    .contains("s.get(PLAIN, new byte[0])")
                    .contains("expected to throw"));
  }

  @Test
  void honestForwardingStorePassesTheWholeSuite() {
    SuiteRun run = SuiteRun.run(MutantSuites.HonestForwardingSuite.class, Map.of());
    assertThat(run.cases().stream().filter(c -> c.outcome() == Outcome.FAILED).toList())
        .as(
            "a ForwardingStore that changes nothing must pass; otherwise the mutants prove nothing\n%s",
            TABLE)
        .isEmpty();
    assertThat(run.count(Outcome.PASSED)).isGreaterThanOrEqualTo(25);
  }

  @Test
  void honestDirectoryClaimPassesTheWholeSuiteWithTheDirectoryCases() {
    SuiteRun run = SuiteRun.run(MutantSuites.HonestDirectorySuite.class, DIRECTORY_RUN);
    assertThat(run.cases().stream().filter(c -> c.outcome() == Outcome.FAILED).toList())
        .as("memory stores claiming their directory through the SPI must pass\n%s", TABLE)
        .isEmpty();
    assertThat(run.named(Outcome.PASSED))
        .as("the directory cases ran, not skipped")
        .contains(
            "secondOpenThroughSymlinkIsRefused",
            "refusedSecondOpenKeepsTheLock",
            "foreignOrNonEmptyDirectoryIsRefusedUntouched",
            "readOnlyOpenChangesNoFile");
  }

  @Test
  void honestlyReportedDamagePassesTheCorruptionProperty() {
    SuiteRun run = SuiteRun.run(MutantSuites.HonestDamageSuite.class, Map.of());
    assertThat(run.cases().stream().filter(c -> c.outcome() == Outcome.FAILED).toList())
        .as("the damageable memory store reporting corruption honestly must pass\n%s", TABLE)
        .isEmpty();
    assertThat(run.named(Outcome.PASSED))
        .as("the corruption property ran, not skipped")
        .contains("scanNeverEndsEarlyOnCorruption");
  }

  /**
   * A refusal at open is a detection, not a check of the reads: behind an honest open-time check
   * the reads are checked too (and pass), and where the fixture cannot get past the check the read
   * path ends unverified, saying the open refused the damage.
   */
  @Test
  void openTimeCheckIsNotAReadCheck() {
    SuiteRun honest =
        SuiteRun.runOnly(
            MutantSuites.HonestDamageCheckedAtOpenSuite.class,
            "scanNeverEndsEarlyOnCorruption",
            NO_SHRINKING);
    assertThat(honest.named(Outcome.PASSED))
        .as("honest reads behind an open-time check: %s", honest.cases())
        .contains("scanNeverEndsEarlyOnCorruption");
    SuiteRun blocked =
        SuiteRun.runOnly(
            MutantSuites.OpenCheckOnlySuite.class, "scanNeverEndsEarlyOnCorruption", NO_SHRINKING);
    assertThat(blocked.cases())
        .as("an open-time check the fixture cannot get past")
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.outcome()).isEqualTo(Outcome.SKIPPED);
              assertThat(c.message())
                  .contains("refused the damaged store at open")
                  .contains("read path is unverified");
            });
  }

  /**
   * An engine that does not claim detectsDamage and reads damage back as data is neither passed nor
   * failed: its corruption case ends unverified, and the reason says what it did.
   */
  @Test
  void unclaimedDamageDetectionIsReportedUnverifiedWithWhatTheEngineDid() {
    SuiteRun run =
        SuiteRun.runOnly(
            MutantSuites.UnclaimedDamageSuite.class, "scanNeverEndsEarlyOnCorruption", Map.of());
    assertThat(run.cases())
        .as("the corruption case of an engine that does not claim detectsDamage")
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.outcome()).isEqualTo(Outcome.SKIPPED);
              assertThat(c.message())
                  .contains("does not claim detectsDamage")
                  .contains("gets returned wrong values");
            });
  }

  /**
   * The racy read-modify-write merge (MERGE_READ_MODIFY_WRITE: the window between its read and its
   * write widened by a yield, as a descheduled thread would) is caught on every run of {@code
   * concurrentMergesLoseNoOperand}: {@value #MERGE_RUNS_PROPERTY} runs, default 3
   * (docs/measurements/suite.md has the catch rate measured over many runs).
   */
  @Test
  void racyMergeIsCaughtOnEveryRun() {
    int runs = Integer.getInteger(MERGE_RUNS_PROPERTY, 3);
    String previous =
        System.setProperty(MutantSuites.MUTANT_PROPERTY, Mutant.MERGE_READ_MODIFY_WRITE.name());
    int caught = 0;
    try {
      for (int i = 0; i < runs; i++) {
        SuiteRun run =
            SuiteRun.runOnly(
                MutantSuites.MutantEngineSuite.class,
                "concurrentMergesLoseNoOperand",
                NO_SHRINKING);
        caught += run.named(Outcome.FAILED).contains("concurrentMergesLoseNoOperand") ? 1 : 0;
      }
    } finally {
      if (previous == null) {
        System.clearProperty(MutantSuites.MUTANT_PROPERTY);
      } else {
        System.setProperty(MutantSuites.MUTANT_PROPERTY, previous);
      }
    }
    assertThat(caught)
        .as("runs of concurrentMergesLoseNoOperand that caught the racy merge, of %d", runs)
        .isEqualTo(runs);
  }

  /** How many runs {@link #racyMergeIsCaughtOnEveryRun} makes. */
  static final String MERGE_RUNS_PROPERTY = "ankusa.mutant.mergeRuns";

  @Test
  void honestJournalPassesTheCrashCases() {
    for (String property : CRASH_CASES) {
      SuiteRun run = SuiteRun.runOnly(MutantSuites.HonestCrashSuite.class, property, NO_SHRINKING);
      assertThat(run.named(Outcome.FAILED))
          .as("memory behind an honest journal must pass %s\n%s", property, TABLE)
          .isEmpty();
      assertThat(run.named(Outcome.PASSED))
          .as("%s ran after a simulated crash, not skipped", property)
          .contains(property);
    }
  }

  @Test
  void honestlyRecoveredEnginePassesTheReportWriteFailureCases() {
    for (String property :
        List.of(
            "reportWriteFailureRecoversFromInjectedFaults",
            "reportWriteFailureClosesScansAndSnapshots",
            "reportWriteFailureDiscardsAWriteHalfInTheEngine")) {
      SuiteRun run =
          SuiteRun.runOnly(MutantSuites.HonestFailingEngineSuite.class, property, NO_SHRINKING);
      assertThat(run.named(Outcome.FAILED))
          .as("an engine reportWriteFailure recovers must pass %s\n%s", property, TABLE)
          .isEmpty();
      assertThat(run.named(Outcome.PASSED)).as("%s ran", property).contains(property);
    }
  }

  /** The cases that crash a store when the fixture simulates crashes. */
  private static final List<String> CRASH_CASES =
      List.of(
          "syncWritesSurviveReopen",
          "noSyncWritesSurviveReopenAfterSyncWal",
          "crashKeepsAcknowledgedWritesAndWholeBatches");

  @Test
  void honestlyReportedLogDamagePassesTheLogDamageProperty() {
    SuiteRun run = SuiteRun.run(MutantSuites.HonestLogDamageSuite.class, Map.of());
    assertThat(run.cases().stream().filter(c -> c.outcome() == Outcome.FAILED).toList())
        .as(
            "the memory store reporting log damage honestly must pass the durability layer\n%s",
            TABLE)
        .isEmpty();
    assertThat(run.named(Outcome.PASSED))
        .as("the log-damage and log-cut properties ran, not skipped")
        .contains(
            "midLogDamageIsReportedNeverSilentlyDropped", "cutLogNeverSplitsABatchAcrossFamilies");
  }

  /**
   * A fixture that offers no log damage ends both log cases unverified, and the reason says what is
   * true: the fixture did no log damage. Not that the engine keeps no log, which is the backend's
   * business.
   */
  @Test
  void aFixtureWithoutLogDamageLeavesTheLogCasesUnverifiedSayingSo() {
    for (String property :
        List.of(
            "midLogDamageIsReportedNeverSilentlyDropped",
            "cutLogNeverSplitsABatchAcrossFamilies")) {
      SuiteRun run = SuiteRun.runOnly(MutantSuites.NoLogDamageSuite.class, property, Map.of());
      assertThat(run.cases())
          .as("%s against a fixture without log damage", property)
          .singleElement()
          .satisfies(
              c -> {
                assertThat(c.outcome()).isEqualTo(Outcome.SKIPPED);
                assertThat(c.message())
                    .contains(
                        "the fixture of memory without log damage offers no log damage",
                        "BackendFixture.logDamageInjection()")
                    .doesNotContain("keeps no write-ahead log");
              });
    }
  }
}
