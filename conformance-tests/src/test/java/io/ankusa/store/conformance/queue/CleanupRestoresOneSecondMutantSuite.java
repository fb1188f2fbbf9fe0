package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;

/**
 * The layout suite against a dispatcher whose cleanup puts back the marker of one second only, as
 * it did when it re-read just the tenant's first due row: a memory store that keeps only the first
 * op of a {@code NO_SYNC} batch made of {@code 'A'} puts alone (cleanup's put-back). Must be
 * rejected by {@code cleanupKeepsTheMarkersOfConcurrentEnqueuesInTwoSeconds} ({@link
 * LayoutMutantRejectionTest}). Not a surefire test by name: only the launcher runs it.
 */
class CleanupRestoresOneSecondMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: cleanup puts back one second's marker", RestoresOneSecond::new);
  }

  /** Drops every marker of a put-back batch but the first. */
  static final class RestoresOneSecond extends ForwardingStore {
    RestoresOneSecond(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (durability == Durability.NO_SYNC
          && batch.size() > 1
          && batch.ops().stream().allMatch(RestoresOneSecond::putsAMarker)) {
        delegate.write(new Batch().add(batch.ops().get(0)), durability);
        return;
      }
      delegate.write(batch, durability);
    }

    private static boolean putsAMarker(Op op) {
      return op instanceof Op.Put p
          && p.family().equals(Format3.INDEX)
          && p.key().length == 13
          && p.key()[0] == 'A';
    }
  }
}
