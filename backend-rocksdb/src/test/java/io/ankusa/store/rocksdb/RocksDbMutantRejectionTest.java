package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.PowerCutFileSystem;
import io.ankusa.store.conformance.queue.SuiteRun;
import io.ankusa.store.conformance.queue.SuiteRun.Outcome;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The suite's self-test on a real engine, for the breaks the memory backend cannot show ({@link
 * RocksDbMutants}): a missing fsync is caught by the durability layer's power cut, a {@code SYNC}
 * write committed only by the next {@code syncWal()} by the engine layer's crash case.
 */
class RocksDbMutantRejectionTest {
  private static final Map<String, String> NO_SHRINKING = Map.of("jqwik.shrinking.default", "OFF");

  @Test
  void noFsyncIsRejectedByThePowerCut() {
    PowerCutFileSystem.unavailable()
        .ifPresent(why -> Assumptions.abort("UNVERIFIED: the power cut cannot run: " + why));
    SuiteRun run =
        SuiteRun.runOnly(
            RocksDbMutants.NoFsyncDurabilitySuite.class,
            "acknowledgedBatchesSurvivePowerCuts",
            NO_SHRINKING);
    assertThat(run.named(Outcome.FAILED))
        .as("the power cut must reject RocksDB that never fsyncs: %s", run.cases())
        .contains("acknowledgedBatchesSurvivePowerCuts");
  }

  @Test
  void syncCommittedAtSyncWalIsRejectedByTheCrashCase() {
    SuiteRun run =
        SuiteRun.runOnly(
            RocksDbMutants.SyncAtSyncWalEngineSuite.class,
            "crashKeepsAcknowledgedWritesAndWholeBatches",
            NO_SHRINKING);
    assertThat(run.named(Outcome.FAILED))
        .as(
            "the crash case must reject a SYNC write committed only by the next" + " syncWal(): %s",
            run.cases())
        .contains("crashKeepsAcknowledgedWritesAndWholeBatches");
  }
}
