package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.spi.Store;

/**
 * The transition suite against a queue whose guard remembers every claim its dispatcher made and
 * never forgets one when a transition consumes the row: a settle after recovery, or a second
 * settle, is then trusted without a read and written blind. Must be rejected by {@code
 * aSettleAfterItsClaimWasConsumedMovesNothing} ({@link TransitionMutantRejectionTest}). Not a
 * surefire test by name: only the launcher runs it.
 */
class ClaimsNeverForgottenMutantSuite extends TransitionConformance {
  @Override
  protected BackendFixture fixture() {
    return new MemoryFixture();
  }

  @Override
  public DeliveryQueue openQueue(Store store, QueueConfig config) {
    return DeliveryQueue.open(store, config, new NeverForgets());
  }

  /** The guard, except that a consumed claim stays known. */
  static final class NeverForgets extends TransitionGuard {
    @Override
    protected boolean forgetsConsumedClaims() {
      return false;
    }
  }
}
