package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dispatch layer's self-test: {@link DispatchConformance} against the oldest-first dispatcher
 * ({@link OldestFirstDispatchMutantSuite}) must fail {@code
 * everyBackloggedTenantGetsItsWeightedShare}. The control is {@link MemoryDispatchConformanceTest}:
 * the same suite on the fair dispatcher passes. The mutant must still pass {@code
 * aTenantAtItsInflightLimitIsSkippedAndResumesWhenRowsComplete} (limits apply in either order), so
 * a harness that failed everything would not count as a rejection. Tries are raised to 400 for the
 * generated property, as for the layout mutants: a caught mutant stops at its first failing try.
 */
class DispatchMutantRejectionTest {
  @Test
  void theOldestFirstDispatcherIsRejected() {
    SuiteRun run =
        SuiteRun.runOnly(
            OldestFirstDispatchMutantSuite.class,
            "everyBackloggedTenantGetsItsWeightedShare",
            Map.of("jqwik.shrinking.default", "OFF", "jqwik.tries.default", "400"));
    assertThat(run.named(Outcome.FAILED))
        .as(
            "the dispatch suite must fail OldestFirstDispatchMutantSuite in everyBackloggedTenantGetsItsWeightedShare")
        .contains("everyBackloggedTenantGetsItsWeightedShare");
    SuiteRun control =
        SuiteRun.runOnly(
            OldestFirstDispatchMutantSuite.class,
            "aTenantAtItsInflightLimitIsSkippedAndResumesWhenRowsComplete",
            Map.of());
    assertThat(control.named(Outcome.PASSED))
        .as(
            "limits hold in either order, so that case must still pass (else the harness fails everything)")
        .contains("aTenantAtItsInflightLimitIsSkippedAndResumesWhenRowsComplete");
  }
}
