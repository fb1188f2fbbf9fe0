package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;

/**
 * The layout suite against a reclaim without progress: a memory store whose scans of the cleared
 * markers {@code 'c'} ignore their lower bound and start at the head of the range, so every reclaim
 * pass reads the same first markers, as a reclaim without a cursor does. Must be rejected by {@code
 * reclaimProgressesPastOwedHooksAtTheHead} ({@link LayoutMutantRejectionTest}). Not a surefire test
 * by name: only the launcher runs it.
 */
class ReclaimWithoutProgressMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: reclaim always starts at the head of 'c'", ClearedScanFromHead::new);
  }

  /** Scans of {@code 'c'} start at the head of the range, whatever their lower bound. */
  static final class ClearedScanFromHead extends ForwardingStore {
    private static final byte[] CLEARED_HEAD = Keys.realKeysOf(KeyFamily.CLEARED).lo();

    ClearedScanFromHead(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      boolean clearedScan =
          family.equals(Format3.INDEX) && lo != null && lo.length > 0 && lo[0] == 'c';
      return delegate.scan(family, clearedScan ? CLEARED_HEAD : lo, hi, direction);
    }
  }
}
