package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import java.util.function.UnaryOperator;

/**
 * The engine suite against the {@link Mutant} named by the system property {@value
 * #MUTANT_PROPERTY} (one suite class per layer, not one per mutant), and against honest wrappers as
 * controls. Nested classes, so surefire (which skips {@code *$*} classes and runs only {@code
 * *Test}) never runs them directly: {@link MutantRejectionTest} runs them through the JUnit
 * Platform Launcher, with the property set for the run.
 */
final class MutantSuites {
  private MutantSuites() {}

  /** The system property naming the {@link Mutant} the mutant suites run against. */
  static final String MUTANT_PROPERTY = "ankusa.mutant";

  /**
   * The suite class that runs {@code mutant}: the durability layer for log damage and cuts, else
   * the engine layer.
   */
  static Class<?> suiteOf(Mutant mutant) {
    return mutant == Mutant.SILENT_WAL_DROP || mutant == Mutant.FAMILIES_RECOVER_APART
        ? MutantDurabilitySuite.class
        : MutantEngineSuite.class;
  }

  /** The mutant named by {@value #MUTANT_PROPERTY}; REQUIRES it is set. */
  static Mutant selected() {
    String name = System.getProperty(MUTANT_PROPERTY);
    if (name == null) {
      throw new IllegalStateException(
          "set -D" + MUTANT_PROPERTY + "=NAME to one of the Mutant constants");
    }
    return Mutant.valueOf(name);
  }

  /** The engine suite against the selected mutant. */
  static class MutantEngineSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return selected().fixture();
    }
  }

  /** The durability layer against the selected mutant (the log-damage and log-cut mutants). */
  static class MutantDurabilitySuite extends DurabilityConformance {
    @Override
    protected BackendFixture fixture() {
      return selected().fixture();
    }
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
      return new DamageableMemoryFixture(DamageableMemoryFixture.Report.HONESTLY);
    }
  }

  /**
   * Control: memory behind a journal committed honestly simulates crashes, so the reopen properties
   * and the crash case crash it, and pass.
   */
  static class HonestCrashSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new CrashableMemoryFixture(CrashableMemoryFixture.Commit.HONEST);
    }
  }

  /** Control: an engine left failed by an injected fault that reportWriteFailure recovers. */
  static class HonestFailingEngineSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new FailingEngineMemoryFixture(true);
    }
  }

  // ---- corruption as an engine claim

  /**
   * An engine honest about not detecting damage (damaged entries read back with altered values, no
   * claim of detectsDamage): its corruption case must end unverified with what it did.
   */
  /**
   * Control: damage refused at open by an open-time check, and reported honestly by the reads
   * behind it.
   */
  static class HonestDamageCheckedAtOpenSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new DamageableMemoryFixture(DamageableMemoryFixture.Report.HONESTLY, true, true, true);
    }
  }

  /**
   * An open-time check whose fixture cannot get past it: the read path must end unverified, not
   * pass.
   */
  static class OpenCheckOnlySuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new DamageableMemoryFixture(
          DamageableMemoryFixture.Report.HONESTLY, true, true, false);
    }
  }

  static class UnclaimedDamageSuite extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new DamageableMemoryFixture(DamageableMemoryFixture.Report.AS_DATA, false);
    }
  }

  /**
   * Control: log damage reported honestly at reopen, and a cut behind a flushed family refused, so
   * midLogDamageIsReportedNeverSilentlyDropped and cutLogNeverSplitsABatchAcrossFamilies run and
   * pass.
   */
  static class HonestLogDamageSuite extends DurabilityConformance {
    @Override
    protected BackendFixture fixture() {
      return new LogDamageableMemoryFixture(false);
    }
  }

  /**
   * Control: the plain memory fixture, which offers no log damage
   * (BackendFixture.logDamageInjection keeps its default), so both log cases end unverified, saying
   * so.
   */
  static class NoLogDamageSuite extends DurabilityConformance {
    @Override
    protected BackendFixture fixture() {
      return new WrappingFixture("memory without log damage", UnaryOperator.identity());
    }
  }
}
