package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.SuiteRun.Outcome;
import io.ankusa.store.conformance.WriteBufferMemoryFixture.Defect;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The option matrix and the perturbations earn their keep: flush mutants ({@link
 * WriteBufferMemoryFixture}) that behave exactly like the memory store until something flushes —
 * merge operands lost at a flush, a range delete that spares flushed keys — pass {@code
 * modelBasedRandomBatches} run the old way (default options, no perturbation), and must fail it once
 * the property flushes between batches, and again once it runs under an option set whose tiny buffer
 * flushes by itself. The honest buffer ({@link Defect#NONE}) must pass all three.
 */
class FlushMutantRejectionTest {
  private static final String PROPERTY = "modelBasedRandomBatches";
  private static final Map<String, String> NO_SHRINKING = Map.of("jqwik.shrinking.default", "OFF");

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Defect.class, names = {"FLUSH_LOSES_MERGE_OPERANDS", "RANGE_DELETE_SPARES_FLUSHED_KEYS"})
  void aFlushMutantIsCaughtOnlyAcrossFlushes(Defect defect) {
    assertThat(run(FlushMutantSuites.DefaultOptionsWithoutPerturbation.class, defect).named(Outcome.PASSED))
        .as("%s: with default options and no perturbation the mutant is the memory store; the old run passes it", defect)
        .contains(PROPERTY);
    assertThat(run(FlushMutantSuites.DefaultOptionsPerturbed.class, defect).named(Outcome.FAILED))
        .as("%s: flushes drawn between batches must reject it", defect).contains(PROPERTY);
    assertThat(run(FlushMutantSuites.OptionSetsWithoutPerturbation.class, defect).named(Outcome.FAILED))
        .as("%s: the tiny-buffer option set, flushing by itself, must reject it", defect).contains(PROPERTY);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Defect.class, names = "NONE")
  void anHonestBufferPassesEveryWay(Defect defect) {
    for (Class<?> suite : new Class<?>[] {FlushMutantSuites.DefaultOptionsWithoutPerturbation.class, FlushMutantSuites.DefaultOptionsPerturbed.class,
        FlushMutantSuites.OptionSetsWithoutPerturbation.class, FlushMutantSuites.OptionSetsPerturbed.class}) {
      SuiteRun run = run(suite, defect);
      assertThat(run.named(Outcome.PASSED)).as("%s under %s: %s", defect, suite.getSimpleName(), run.cases())
          .contains(PROPERTY);
    }
  }

  private static SuiteRun run(Class<?> suite, Defect defect) {
    String previous = System.setProperty(FlushMutantSuites.DEFECT_PROPERTY, defect.name());
    try {
      return SuiteRun.runOnly(suite, PROPERTY, NO_SHRINKING);
    } finally {
      if (previous == null) {
        System.clearProperty(FlushMutantSuites.DEFECT_PROPERTY);
      } else {
        System.setProperty(FlushMutantSuites.DEFECT_PROPERTY, previous);
      }
    }
  }
}
