package io.ankusa.store.conformance;

import io.ankusa.store.spi.ForwardingStore;

/**
 * The engine suite against each {@link Mutant}, and against honest wrappers as controls. Nested
 * classes, so surefire (which skips {@code *$*} classes and runs only {@code *Test}) never runs them
 * directly: {@link MutantRejectionTest} runs them through the JUnit Platform Launcher.
 */
final class MutantSuites {
  private MutantSuites() {}

  /** The suite class that runs {@code mutant}. */
  static Class<? extends EngineConformance> suiteOf(Mutant mutant) {
    return switch (mutant) {
      case DROPS_LAST_OP -> DropsLastOpMutantSuite.class;
      case SCAN_STOPS_EARLY -> ScanStopsEarlyMutantSuite.class;
      case BIG_ENDIAN_COUNTERS -> BigEndianCountersMutantSuite.class;
      case INCLUSIVE_DELETE_RANGE -> InclusiveDeleteRangeMutantSuite.class;
      case SNAPSHOT_SEES_LATER_WRITES -> SnapshotSeesLaterWritesMutantSuite.class;
      case HALF_APPLIED_BATCH -> HalfAppliedBatchMutantSuite.class;
      case MULTIGET_DROPS_NULLS -> MultigetDropsNullsMutantSuite.class;
      case CLOSE_LEAVES_SCANS_OPEN -> CloseLeavesScansOpenMutantSuite.class;
      case SIGNED_KEY_ORDER -> SignedKeyOrderMutantSuite.class;
      case MERGE_READ_MODIFY_WRITE -> MergeReadModifyWriteMutantSuite.class;
      case CORRUPTION_ENDS_SCAN -> CorruptionEndsScanMutantSuite.class;
      case EMPTY_RANGE_HOLDS_LO -> EmptyRangeHoldsLoMutantSuite.class;
      case UNBOUNDED_HI_STOPS_AT_FF -> UnboundedHiStopsAtFfMutantSuite.class;
      case REVERSE_SCAN_INCLUDES_HI -> ReverseScanIncludesHiMutantSuite.class;
      case SCAN_READS_LIVE_STATE -> ScanReadsLiveStateMutantSuite.class;
      case BAD_BATCH_PARTLY_APPLIED -> BadBatchPartlyAppliedMutantSuite.class;
      case EMPTY_BATCH_REFUSED -> EmptyBatchRefusedMutantSuite.class;
      case KEEPS_CALLER_ARRAYS -> KeepsCallerArraysMutantSuite.class;
      case SHARES_RETURNED_ARRAYS -> SharesReturnedArraysMutantSuite.class;
      case DELETE_CROSSES_FAMILIES -> DeleteCrossesFamiliesMutantSuite.class;
      case SATURATING_MERGE -> SaturatingMergeMutantSuite.class;
      case MERGE_ONTO_ABSENT_IGNORED -> MergeOntoAbsentIgnoredMutantSuite.class;
      case COUNTER_OF_PLAIN_DECODES -> CounterOfPlainDecodesMutantSuite.class;
      case LENIENT_READS -> LenientReadsMutantSuite.class;
      case DROPS_EVERY_7TH_BATCH -> DropsEvery7thBatchMutantSuite.class;
      case REOPEN_LOSES_LAST_KEY -> ReopenLosesLastKeyMutantSuite.class;
      case REFUSAL_NAMES_NO_FAMILY -> RefusalNamesNoFamilyMutantSuite.class;
      case SYMLINK_BLIND_LOCK -> SymlinkBlindLockMutantSuite.class;
      case ADOPTING_PROVIDER -> AdoptingProviderMutantSuite.class;
    };
  }

  /** Control: a ForwardingStore that changes nothing. */
  static class HonestForwardingSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new WrappingFixture("memory through ForwardingStore", ForwardingStore::new);
    }
  }

  /**
   * Control: memory stores claiming real directories through the SPI, so the directory cases
   * (filesInDirectory) run and pass on a memory-based backend like the mutants below.
   */
  static class HonestDirectorySuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new DirectoryMemoryFixture(new DirectoryMemoryProvider(), "memory-in-directory");
    }
  }

  /** Control: damage reported honestly, so scanNeverEndsEarlyOnCorruption runs and passes. */
  static class HonestDamageSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new DamageableMemoryFixture(false);
    }
  }

  static class DropsLastOpMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.DROPS_LAST_OP.fixture();
    }
  }

  static class ScanStopsEarlyMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SCAN_STOPS_EARLY.fixture();
    }
  }

  static class BigEndianCountersMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.BIG_ENDIAN_COUNTERS.fixture();
    }
  }

  static class InclusiveDeleteRangeMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.INCLUSIVE_DELETE_RANGE.fixture();
    }
  }

  static class SnapshotSeesLaterWritesMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SNAPSHOT_SEES_LATER_WRITES.fixture();
    }
  }

  static class HalfAppliedBatchMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.HALF_APPLIED_BATCH.fixture();
    }
  }

  static class MultigetDropsNullsMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.MULTIGET_DROPS_NULLS.fixture();
    }
  }

  static class CloseLeavesScansOpenMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.CLOSE_LEAVES_SCANS_OPEN.fixture();
    }
  }

  static class SignedKeyOrderMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SIGNED_KEY_ORDER.fixture();
    }
  }

  static class MergeReadModifyWriteMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.MERGE_READ_MODIFY_WRITE.fixture();
    }
  }

  static class CorruptionEndsScanMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.CORRUPTION_ENDS_SCAN.fixture();
    }
  }

  static class EmptyRangeHoldsLoMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.EMPTY_RANGE_HOLDS_LO.fixture();
    }
  }

  static class UnboundedHiStopsAtFfMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.UNBOUNDED_HI_STOPS_AT_FF.fixture();
    }
  }

  static class ReverseScanIncludesHiMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.REVERSE_SCAN_INCLUDES_HI.fixture();
    }
  }

  static class ScanReadsLiveStateMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SCAN_READS_LIVE_STATE.fixture();
    }
  }

  static class BadBatchPartlyAppliedMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.BAD_BATCH_PARTLY_APPLIED.fixture();
    }
  }

  static class EmptyBatchRefusedMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.EMPTY_BATCH_REFUSED.fixture();
    }
  }

  static class KeepsCallerArraysMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.KEEPS_CALLER_ARRAYS.fixture();
    }
  }

  static class SharesReturnedArraysMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SHARES_RETURNED_ARRAYS.fixture();
    }
  }

  static class DeleteCrossesFamiliesMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.DELETE_CROSSES_FAMILIES.fixture();
    }
  }

  static class SaturatingMergeMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SATURATING_MERGE.fixture();
    }
  }

  static class MergeOntoAbsentIgnoredMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.MERGE_ONTO_ABSENT_IGNORED.fixture();
    }
  }

  static class CounterOfPlainDecodesMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.COUNTER_OF_PLAIN_DECODES.fixture();
    }
  }

  static class LenientReadsMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.LENIENT_READS.fixture();
    }
  }

  static class DropsEvery7thBatchMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.DROPS_EVERY_7TH_BATCH.fixture();
    }
  }

  static class ReopenLosesLastKeyMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.REOPEN_LOSES_LAST_KEY.fixture();
    }
  }

  static class RefusalNamesNoFamilyMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.REFUSAL_NAMES_NO_FAMILY.fixture();
    }
  }

  static class SymlinkBlindLockMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.SYMLINK_BLIND_LOCK.fixture();
    }
  }

  static class AdoptingProviderMutantSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return Mutant.ADOPTING_PROVIDER.fixture();
    }
  }
}
