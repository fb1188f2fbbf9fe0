package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.util.Arrays;

/**
 * The layout suite against a store whose scans of the archive obligations ignore their upper bound
 * below the end of {@code 'a'} and run to that end: the archiver's stop at the durable watermark no
 * longer holds. Must be rejected by {@code archiveNeverGetsAHookAboveDurableSeq} ({@link
 * LayoutMutantRejectionTest}). Not a surefire test by name: only the launcher runs it.
 */
class ArchiveScanPastBoundMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: scans of 'a' run past their upper bound", ArchiveScanPastBound::new);
  }

  static final class ArchiveScanPastBound extends ForwardingStore {
    private static final byte[] ARCHIVE_END = Keys.realKeysOf(KeyFamily.ARCHIVE).hi();

    ArchiveScanPastBound(Store d) {
      super(d);
    }

    @Override
    public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
      boolean boundedArchiveScan =
          family.equals(Format3.INDEX)
              && lo != null
              && lo.length > 0
              && lo[0] == 'a'
              && hi != null
              && Arrays.compareUnsigned(hi, ARCHIVE_END) < 0;
      return delegate.scan(family, lo, boundedArchiveScan ? ARCHIVE_END : hi, direction);
    }
  }
}
