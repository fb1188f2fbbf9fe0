package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.spi.Store;

/**
 * The transition suite against a queue whose purge runs without the guard: its batches are written
 * as the purge read its rows, never re-checked, as before the guard existed; every other transition
 * is guarded. Must be rejected by {@code purgeBesideADispatcherTickKeepsCountersExact} ({@link
 * TransitionMutantRejectionTest}). Not a surefire test by name: only the launcher runs it.
 */
class PurgeWithoutGuardMutantSuite extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }

  @Override
  public DeliveryQueue openQueue(Store store, QueueConfig config) {
    return DeliveryQueue.open(store, config, new PurgeUnguarded());
  }

  /** The guard, except that purge steps are written blind. */
  static final class PurgeUnguarded extends TransitionGuard {
    @Override
    protected boolean rechecks(Transition.Kind kind) {
      return kind != Transition.Kind.PURGE_DUE && kind != Transition.Kind.PURGE_DEAD;
    }
  }
}
