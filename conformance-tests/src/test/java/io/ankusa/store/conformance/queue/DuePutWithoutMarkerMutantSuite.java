package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;

/**
 * The layout suite against a queue whose retry writes the due row without its marker: a memory
 * store that drops every {@code 'A'} put from a batch that puts a {@code 'D'} key of kind 1
 * (retry). Must be rejected by {@code noDueRowWithoutAMarker} ({@link LayoutMutantRejectionTest}).
 * Not a surefire test by name: only the launcher runs it.
 */
class DuePutWithoutMarkerMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: a retry puts its due row without a marker", RetryWithoutMarker::new);
  }

  /** Drops the marker puts of every batch that puts a retry due row. */
  static final class RetryWithoutMarker extends ForwardingStore {
    RetryWithoutMarker(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (!putsARetryDueRow(batch)) {
        delegate.write(batch, durability);
        return;
      }
      Batch withoutMarkers = new Batch();
      for (Op op : batch.ops()) {
        if (!(op instanceof Op.Put p && isIndexKey(p, 'A'))) {
          withoutMarkers.add(op);
        }
      }
      delegate.write(withoutMarkers, durability);
    }

    private static boolean putsARetryDueRow(Batch batch) {
      for (Op op : batch.ops()) {
        if (op instanceof Op.Put p
            && isIndexKey(p, 'D')
            && p.key().length == 23
            && DueValue.decodeAt(p.key(), p.value()).kind() == DueKind.RETRY) {
          return true;
        }
      }
      return false;
    }

    private static boolean isIndexKey(Op.Put p, char prefix) {
      return p.family().equals(Format3.INDEX) && p.key().length > 0 && p.key()[0] == prefix;
    }
  }
}
