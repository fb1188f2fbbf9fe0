package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.SuiteRun.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The transition layer's self-test: {@link TransitionConformance} against a queue that breaks the
 * guard on purpose must fail the case written for it. Mutant suite → the case that must catch it:
 *
 * <ul>
 *   <li>{@link PurgeWithoutGuardMutantSuite} (purge batches written without the re-check) →
 *       purgeBesideADispatcherTickKeepsCountersExact
 * </ul>
 *
 * <p>The control is {@link MemoryTransitionConformanceTest}: the same suite on the honest queue passes.
 * The mutant must still pass {@code twoDispatchersClaimEachRowOnce}, which involves no purge, so a
 * harness that failed everything would not count as a rejection. The concurrent case runs one round
 * here: it may or may not catch this mutant, and the deterministic case must.
 */
class TransitionMutantRejectionTest {
  @Test
  void purgeWithoutTheGuardIsRejected() {
    String previous = System.getProperty("ankusa.transition.rounds");
    System.setProperty("ankusa.transition.rounds", "1");
    SuiteRun run;
    try {
      run = SuiteRun.run(PurgeWithoutGuardMutantSuite.class, Map.of());
    } finally {
      if (previous == null) {
        System.clearProperty("ankusa.transition.rounds");
      } else {
        System.setProperty("ankusa.transition.rounds", previous);
      }
    }
    assertThat(run.named(Outcome.FAILED))
        .as("the transition suite must fail PurgeWithoutGuardMutantSuite in purgeBesideADispatcherTickKeepsCountersExact")
        .contains("purgeBesideADispatcherTickKeepsCountersExact");
    assertThat(run.named(Outcome.PASSED))
        .as("the mutant breaks nothing without a purge, so that case must still pass (else the harness fails everything)")
        .contains("twoDispatchersClaimEachRowOnce");
  }
}
