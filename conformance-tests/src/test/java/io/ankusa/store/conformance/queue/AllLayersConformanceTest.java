package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.CaseSelection;
import io.ankusa.store.conformance.Seeds;
import io.ankusa.store.conformance.queue.SuiteRun.CaseResult;
import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The starter's one class ({@link AllLayersConformance}) and the selection of cases ({@link
 * CaseSelection}, {@link io.ankusa.store.conformance.SelectedCasesFilter}): every layer runs as a
 * group, a failure names its layer and case and carries a replay that replays it, a selection that
 * names nothing fails loudly.
 */
class AllLayersConformanceTest {
  private static final Map<String, String> FEW_TRIES = Map.of("jqwik.tries.default", "3");

  /**
   * Every layer on the memory backend; run through the launcher (its name is not a test class's).
   */
  static class MemoryAllLayers extends AllLayersConformance {
    @Override
    protected BackendFixture fixture() {
      return new MemoryFixture();
    }
  }

  /** Every layer on a memory store whose batches drop their last op. */
  static class DropsLastOpAllLayers extends AllLayersConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.DROPS_LAST_OP.fixture();
    }
  }

  @Test
  void everyLayerRunsAsAGroupOfTheOneClass() {
    SuiteRun run =
        SuiteRun.run(
            MemoryAllLayers.class,
            CaseSelection.parse(
                String.join(
                    ",",
                    "Engine#everyCallAfterCloseThrows",
                    "Layout#tenantOrdinalIsAssignedOnceAndNeverReused",
                    "Transition#twoDispatchersClaimEachRowOnce",
                    "Dispatch#tenantLimitsAreInvisibleToEveryReadOfTheOlderFormatThree",
                    "Migration#allocatesEachOrdinalOnce",
                    "Durability#acknowledgedHooksSurviveSigkill")),
            FEW_TRIES);

    assertThat(run.named(Outcome.PASSED))
        .containsExactlyInAnyOrder(
            "everyCallAfterCloseThrows",
            "tenantOrdinalIsAssignedOnceAndNeverReused",
            "twoDispatchersClaimEachRowOnce",
            "tenantLimitsAreInvisibleToEveryReadOfTheOlderFormatThree",
            "allocatesEachOrdinalOnce");
    assertThat(run.cases())
        .filteredOn(c -> c.outcome() == Outcome.SKIPPED)
        .extracting(CaseResult::property, CaseResult::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "acknowledgedHooksSurviveSigkill",
                "memory does not claim durableAfterProcessKill: its stores do not outlive the process, so there is nothing to check after a kill"));
  }

  @Test
  void aWholeLayerIsSelectedByItsShortName() {
    SuiteRun run = SuiteRun.run(MemoryAllLayers.class, CaseSelection.parse("Dispatch"), FEW_TRIES);
    // every case of the dispatch layer (its own and its *Cases interfaces'), and nothing of another
    // layer
    List<String> dispatchCases =
        Arrays.stream(DispatchConformance.class.getMethods())
            .filter(
                m -> m.isAnnotationPresent(Property.class) || m.isAnnotationPresent(Example.class))
            .map(Method::getName)
            .toList();
    assertThat(dispatchCases)
        .contains(
            "everyBackloggedTenantGetsItsWeightedShare",
            "aTenantAtItsInflightLimitIsSkippedAndResumesWhenRowsComplete",
            "tenantLimitsAreInvisibleToEveryReadOfTheOlderFormatThree",
            "aRowPutBehindWhereTheLastTickStoppedIsClaimed",
            "aTickResumesItsScanAtTheLastRowItClaimed",
            "roundRobinResumesWhereTheLastTickStopped",
            "dispatchSettingsOutOfRangeAreRefused");
    assertThat(run.named(Outcome.PASSED)).containsExactlyInAnyOrderElementsOf(dispatchCases);
  }

  @Test
  void aFailureNamesItsLayerAndCaseAndItsReplayFailsTheSameWay() {
    SuiteRun run =
        SuiteRun.run(
            DropsLastOpAllLayers.class, CaseSelection.parse("batchOpsApplyInOrder"), FEW_TRIES);
    CaseResult failed =
        run.cases().stream().filter(c -> c.outcome() == Outcome.FAILED).findFirst().orElseThrow();
    assertThat(failed.property()).isEqualTo("batchOpsApplyInOrder");
    assertThat(failed.replay()).as("the replay hint of %s", failed).isNotNull();
    assertThat(failed.replay().caseName()).isEqualTo("Engine#batchOpsApplyInOrder");
    assertThat(failed.replay().getMessage())
        .contains("-Dankusa.conformance.only=Engine#batchOpsApplyInOrder")
        .contains("-Dankusa.seed=" + failed.replay().seed());
    String tries = System.getProperty("ankusa.conformance.tries");
    if (tries != null) {
      // A seed replays the same samples only under the same tries, so the hint carries them.
      assertThat(failed.replay().getMessage())
          .contains("-Dankusa.conformance.tries=" + tries)
          .contains("--tries " + tries);
    }

    // What the hint says, done: the one case with the printed seed fails again, with the same seed.
    String previous = System.getProperty(Seeds.PROPERTY);
    System.setProperty(Seeds.PROPERTY, failed.replay().seed());
    try {
      SuiteRun replay =
          SuiteRun.run(
              DropsLastOpAllLayers.class,
              CaseSelection.parse(failed.replay().caseName()),
              FEW_TRIES);
      assertThat(replay.cases())
          .extracting(CaseResult::property, CaseResult::outcome)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("batchOpsApplyInOrder", Outcome.FAILED));
      assertThat(replay.cases().get(0).replay().seed()).isEqualTo(failed.replay().seed());
    } finally {
      if (previous == null) {
        System.clearProperty(Seeds.PROPERTY);
      } else {
        System.setProperty(Seeds.PROPERTY, previous);
      }
    }
  }

  @Test
  void aSelectionThatNamesNoCaseFailsInsteadOfRunningNothing() {
    assertThatThrownBy(
            () ->
                SuiteRun.run(
                    MemoryAllLayers.class, CaseSelection.parse("Engine#noSuchCase"), FEW_TRIES))
        .hasStackTraceContaining("ankusa.conformance.only=Engine#noSuchCase selects no case");
  }

  @Test
  void selectionsParseTheirThreeForms() {
    assertThat(
            CaseSelection.parse(
                    " modelBasedRandomBatches , EngineConformance#batchOpsApplyInOrder,Durability")
                .items())
        .containsExactly(
            new CaseSelection.Item(null, "modelBasedRandomBatches"),
            new CaseSelection.Item("EngineConformance", "batchOpsApplyInOrder"),
            new CaseSelection.Item("Durability", null));
    assertThat(
            CaseSelection.parse("ModelCases#modelBasedRandomBatches")
                .matches(MemoryAllLayers.Engine.class, "modelBasedRandomBatches"))
        .isTrue();
    assertThat(
            CaseSelection.parse("Layout")
                .matches(MemoryAllLayers.Engine.class, "modelBasedRandomBatches"))
        .isFalse();
    for (String bad : List.of("", "#", "A#", "#b", "A#b#c", "a,,b")) {
      assertThatThrownBy(() -> CaseSelection.parse(bad))
          .as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
