package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.spi.Store;
import java.util.Collection;
import java.util.List;

/**
 * The transition suite against the queue as it was before the guard: every batch is written as its
 * builder read the rows, never re-checked, and no stripe is taken (not by the dispatcher, not by
 * reclaim). Must be rejected by every case that forces a transition between another's read and its
 * write ({@link TransitionMutantRejectionTest}). Not a surefire test by name: only the launcher
 * runs it.
 */
class GuardlessMutantSuite extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }

  @Override
  public DeliveryQueue openQueue(Store store, QueueConfig config) {
    return DeliveryQueue.open(store, config, new RechecksNothing());
  }

  /** A guard that re-checks nothing and holds no stripe. */
  static final class RechecksNothing extends TransitionGuard {
    /** Holds nothing: the hook stripes of no hook, of a guard no queue uses. */
    private static Held nothing() {
      return new TransitionGuard().lockHooks(List.of());
    }

    @Override
    protected boolean rechecks(Transition.Kind kind) {
      return false;
    }

    @Override
    public Held lockHooks(Collection<Long> seqs) {
      return nothing();
    }

    @Override
    public Held lockTenant(long ord) {
      return nothing();
    }

    @Override
    public Held tryLockTenant(long ord) {
      return nothing();
    }
  }
}
