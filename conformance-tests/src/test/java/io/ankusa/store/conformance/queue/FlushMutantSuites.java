package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.EngineConformance;
import io.ankusa.store.conformance.Perturbation;
import io.ankusa.store.conformance.queue.WriteBufferMemoryFixture.Defect;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * The engine suite against the {@link WriteBufferMemoryFixture} defect named by {@value
 * #DEFECT_PROPERTY}, four ways: default options or every option set, with or without perturbations;
 * and the transition layer with and without the option sets. Nested classes, so surefire never runs
 * them directly; {@link FlushMutantRejectionTest} runs them.
 */
final class FlushMutantSuites {
  /** The system property naming the {@link Defect}. */
  static final String DEFECT_PROPERTY = "ankusa.flush.mutant";

  private FlushMutantSuites() {}

  private static Defect selected() {
    return Defect.valueOf(System.getProperty(DEFECT_PROPERTY));
  }

  /** The model property as it ran before option sets and perturbations. */
  static class DefaultOptionsWithoutPerturbation extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new WriteBufferMemoryFixture(selected(), false);
    }

    @Override
    protected Arbitrary<Perturbation> perturbations() {
      return Arbitraries.just(Perturbation.NONE);
    }
  }

  /** Default options only; flushes, compactions and reopens drawn between batches. */
  static class DefaultOptionsPerturbed extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new WriteBufferMemoryFixture(selected(), false);
    }
  }

  /** No perturbation; half the tries under the tiny-buffer option set. */
  static class OptionSetsWithoutPerturbation extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new WriteBufferMemoryFixture(selected(), true);
    }

    @Override
    protected Arbitrary<Perturbation> perturbations() {
      return Arbitraries.just(Perturbation.NONE);
    }
  }

  /** Both: what a backend's test class runs. */
  static class OptionSetsPerturbed extends EngineConformance {
    @Override
    protected BackendFixture fixture() {
      return new WriteBufferMemoryFixture(selected(), true);
    }
  }

  /** The transition layer, default options only. */
  static class TransitionsUnderDefaultOptions extends TransitionConformance {
    @Override
    protected BackendFixture fixture() {
      return new WriteBufferMemoryFixture(selected(), false);
    }
  }

  /** The transition layer, its rounds cycling through the default and the tiny-buffer set. */
  static class TransitionsUnderEachOptionSet extends TransitionConformance {
    @Override
    protected BackendFixture fixture() {
      return new WriteBufferMemoryFixture(selected(), true);
    }
  }
}
