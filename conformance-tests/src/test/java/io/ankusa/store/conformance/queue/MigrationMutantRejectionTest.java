package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The migration layer's self-test: {@link MigrationLayoutUnrecordedMutantSuite} (a migration whose
 * unfinished steps do not record the aggregate layout, so a resume under the other {@code
 * counters.sharded_aggregate} setting goes unrefused) must fail {@code
 * anInterruptedMigrationResumesOnlyWithItsAggregateLayout} and still pass {@code
 * everyRowKindMigratesWithAllItsFieldsAndTheResultCountsTheRows}, which it does not touch (so a
 * harness failing everything would not count). The control is {@link
 * MemoryMigrationConformanceTest}.
 */
class MigrationMutantRejectionTest {
  @Test
  void aMigrationThatRecordsItsLayoutOnlyAtTheEndIsRejected() {
    String property = "anInterruptedMigrationResumesOnlyWithItsAggregateLayout";
    SuiteRun run = SuiteRun.runOnly(MigrationLayoutUnrecordedMutantSuite.class, property, Map.of());
    assertThat(run.named(Outcome.FAILED))
        .as("the migration suite must fail the mutant in %s", property)
        .contains(property);
    String control = "everyRowKindMigratesWithAllItsFieldsAndTheResultCountsTheRows";
    SuiteRun untouched =
        SuiteRun.runOnly(MigrationLayoutUnrecordedMutantSuite.class, control, Map.of());
    assertThat(untouched.named(Outcome.PASSED))
        .as("the mutant breaks nothing %s checks", control)
        .contains(control);
  }
}
