package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;

/**
 * The layout suite against a dispatcher whose cleanup deletes and never verifies: a memory store
 * that drops every batch consisting of exactly one put of an {@code 'A'} key — cleanup's step 3
 * putting a marker back. Must be rejected by {@code cleanupDoesNotLoseAMarkerToAConcurrentEnqueue}
 * ({@link LayoutMutantRejectionTest}). Not a surefire test by name: only the launcher runs it.
 */
class CleanupWithoutVerifyMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: cleanup never puts a marker back", DropsMarkerPutBack::new);
  }

  /** Drops cleanup's put-back batch. */
  static final class DropsMarkerPutBack extends ForwardingStore {
    DropsMarkerPutBack(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (batch.size() == 1
          && batch.ops().get(0) instanceof Op.Put p
          && p.family().equals(Format3.INDEX)
          && p.key().length == 13
          && p.key()[0] == 'A') {
        return;
      }
      delegate.write(batch, durability);
    }
  }
}
