package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import io.ankusa.store.conformance.queue.WriteBufferMemoryFixture.Defect;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The option matrix and the perturbations earn their keep: flush mutants ({@link
 * WriteBufferMemoryFixture}) that behave exactly like the memory store until something flushes —
 * merge operands lost at a flush, a range delete that spares flushed keys — pass {@code
 * modelBasedRandomBatches} run the old way (default options, no perturbation), and must fail it
 * once the property flushes between batches, and again once it runs under an option set whose tiny
 * buffer flushes by itself. The honest buffer ({@link Defect#NONE}) must pass with both.
 */
class FlushMutantRejectionTest {
  private static final String PROPERTY = "modelBasedRandomBatches";
  private static final Map<String, String> NO_SHRINKING = Map.of("jqwik.shrinking.default", "OFF");

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Defect.class,
      names = {"FLUSH_LOSES_MERGE_OPERANDS", "RANGE_DELETE_SPARES_FLUSHED_KEYS"})
  void aFlushMutantIsCaughtOnlyAcrossFlushes(Defect defect) {
    assertThat(
            run(FlushMutantSuites.DefaultOptionsWithoutPerturbation.class, defect)
                .named(Outcome.PASSED))
        .as(
            "%s: with default options and no perturbation the mutant is the memory store; the old run passes it",
            defect)
        .contains(PROPERTY);
    assertThat(run(FlushMutantSuites.DefaultOptionsPerturbed.class, defect).named(Outcome.FAILED))
        .as("%s: flushes drawn between batches must reject it", defect)
        .contains(PROPERTY);
    assertThat(
            run(FlushMutantSuites.OptionSetsWithoutPerturbation.class, defect)
                .named(Outcome.FAILED))
        .as("%s: the tiny-buffer option set, flushing by itself, must reject it", defect)
        .contains(PROPERTY);
  }

  /**
   * The honest buffer under both option sets with every perturbation: what a backend's test class
   * runs.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Defect.class, names = "NONE")
  void anHonestBufferPasses(Defect defect) {
    SuiteRun run = run(FlushMutantSuites.OptionSetsPerturbed.class, defect);
    assertThat(run.named(Outcome.PASSED)).as("%s: %s", defect, run.cases()).contains(PROPERTY);
  }

  /**
   * The transition layer's concurrent rounds cycle through the option sets: a store that loses
   * merge operands when its tiny buffer flushes passes the rounds under default options (it never
   * flushes) and fails the round under the tiny buffer (its counters no longer equal a fold).
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Defect.class, names = "FLUSH_LOSES_MERGE_OPERANDS")
  void theTransitionRoundsRunUnderEachOptionSet(Defect defect) {
    String transitions = "conflictingTransitionsKeepCountersExact";
    assertThat(
            run(FlushMutantSuites.TransitionsUnderDefaultOptions.class, transitions, defect)
                .named(Outcome.PASSED))
        .as("%s under default options never flushes", defect)
        .contains(transitions);
    SuiteRun matrix =
        run(FlushMutantSuites.TransitionsUnderEachOptionSet.class, transitions, defect);
    assertThat(matrix.named(Outcome.FAILED))
        .as("%s: the round under the tiny buffer must fail", defect)
        .contains(transitions);
    assertThat(matrix.cases())
        .as("the failure names the option set")
        .anyMatch(
            c -> c.message() != null && c.message().contains(WriteBufferMemoryFixture.TINY_BUFFER));
  }

  private static SuiteRun run(Class<?> suite, Defect defect) {
    return run(suite, PROPERTY, defect);
  }

  /** Runs only {@code property} of {@code suite} against {@code defect}, without shrinking. */
  private static SuiteRun run(Class<?> suite, String property, Defect defect) {
    String previous = System.setProperty(FlushMutantSuites.DEFECT_PROPERTY, defect.name());
    try {
      return SuiteRun.runOnly(suite, property, NO_SHRINKING);
    } finally {
      if (previous == null) {
        System.clearProperty(FlushMutantSuites.DEFECT_PROPERTY);
      } else {
        System.setProperty(FlushMutantSuites.DEFECT_PROPERTY, previous);
      }
    }
  }
}
