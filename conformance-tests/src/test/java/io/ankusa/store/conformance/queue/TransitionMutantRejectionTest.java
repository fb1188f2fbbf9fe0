package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The transition layer's self-test: {@link TransitionConformance} against a queue that breaks the
 * guard on purpose must fail the case written for it. Mutant suite → the case that must catch it:
 *
 * <ul>
 *   <li>{@link PurgeWithoutGuardMutantSuite} (purge batches written without the re-check) →
 *       purgeBesideADispatcherTickKeepsCountersExact
 *   <li>{@link ClaimsNeverForgottenMutantSuite} (a settle trusted on a claim already consumed) →
 *       aSettleAfterItsClaimWasConsumedMovesNothing
 *   <li>{@link GuardlessMutantSuite} (nothing re-checked, no stripe taken: the queue before the
 *       guard) → every case that forces a transition into another's window ({@link #GUARD_CASES})
 * </ul>
 *
 * <p>The control is {@link MemoryTransitionConformanceTest}: the same suite on the honest queue
 * passes. The mutant must still pass {@code twoDispatchersClaimEachRowOnce}, which involves no
 * purge, so a harness that failed everything would not count as a rejection. The concurrent case
 * runs one round here: it may or may not catch this mutant, and the deterministic case must.
 */
class TransitionMutantRejectionTest {
  /** The cases that force a transition between another's read and its write. */
  static final List<String> GUARD_CASES =
      List.of(
          "purgeBesideADispatcherTickKeepsCountersExact",
          "twoDispatchersClaimEachRowOnce",
          "everyStepKindIsDroppedExactlyWhenItsRowMoved",
          "aStaleClaimBesideAnIngestInOneBatchWritesTheIngestOnly",
          "aBatchMarkedReadUnderStripesButWrittenWithoutThemIsRechecked",
          "aReviveBetweenAPurgesScanAndItsBatchIsLeftDue",
          "aReviveAfterPurgeAndReclaimWritesNothing",
          "aConflictingTransitionWaitsForAWriteUnderWayAndATransitionOfAnotherStripeDoesNot",
          "anExpandWaitsOutReclaimsCheckAndDeleteOfItsHook");

  @Test
  void theQueueWithoutItsGuardIsRejectedByEveryForcedInterleaving() {
    SuiteRun run = runOneRound(GuardlessMutantSuite.class);
    assertThat(run.named(Outcome.FAILED))
        .as(
            "the transition suite must fail GuardlessMutantSuite in every case that"
                + " forces an interleaving")
        .containsAll(GUARD_CASES);
  }

  @Test
  void purgeWithoutTheGuardIsRejected() {
    SuiteRun run = runOneRound(PurgeWithoutGuardMutantSuite.class);
    assertThat(run.named(Outcome.FAILED))
        .as(
            "the transition suite must fail PurgeWithoutGuardMutantSuite in purgeBesideADispatcherTickKeepsCountersExact")
        .contains("purgeBesideADispatcherTickKeepsCountersExact");
    assertThat(run.named(Outcome.PASSED))
        .as(
            "the mutant breaks nothing without a purge, so that case must still pass (else the harness fails everything)")
        .contains("twoDispatchersClaimEachRowOnce");
  }

  @Test
  void aGuardThatNeverForgetsAClaimIsRejected() {
    SuiteRun run = runOneRound(ClaimsNeverForgottenMutantSuite.class);
    assertThat(run.named(Outcome.FAILED))
        .as(
            "the transition suite must fail ClaimsNeverForgottenMutantSuite in aSettleAfterItsClaimWasConsumedMovesNothing")
        .contains("aSettleAfterItsClaimWasConsumedMovesNothing");
    assertThat(run.named(Outcome.PASSED))
        .as("the mutant breaks nothing without a consumed claim, so that case must still pass")
        .contains("purgeBesideADispatcherTickKeepsCountersExact");
  }

  /** Runs the whole suite class with one round of the concurrent case. */
  private static SuiteRun runOneRound(Class<?> suite) {
    String previous = System.getProperty("ankusa.transition.rounds");
    System.setProperty("ankusa.transition.rounds", "1");
    try {
      return SuiteRun.run(suite, Map.of());
    } finally {
      if (previous == null) {
        System.clearProperty("ankusa.transition.rounds");
      } else {
        System.setProperty("ankusa.transition.rounds", previous);
      }
    }
  }
}
