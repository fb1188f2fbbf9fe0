package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;

/**
 * The layout suite against a queue whose claim forgets its inflight +1: a memory store that drops
 * every merge into an {@code inflight} counter (key {@code ord:32 field:8} with field 3) from any
 * batch that also deletes a {@code 'D'} key. Must be rejected by {@code
 * countersEqualAFoldAfterAnySequenceOfTransitions} ({@link LayoutMutantRejectionTest}). Not a
 * surefire test by name: only the launcher runs it.
 */
class ForgetsCounterDeltaMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: a claim forgets its inflight delta", ForgetsInflightDelta::new);
  }

  /** Drops the inflight merges of every batch that deletes a due row. */
  static final class ForgetsInflightDelta extends ForwardingStore {
    ForgetsInflightDelta(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (!deletesADueRow(batch)) {
        delegate.write(batch, durability);
        return;
      }
      Batch forgetful = new Batch();
      for (Op op : batch.ops()) {
        if (!(op instanceof Op.Merge m && isInflightCounter(m.key()))) {
          forgetful.add(op);
        }
      }
      delegate.write(forgetful, durability);
    }

    private static boolean deletesADueRow(Batch batch) {
      for (Op op : batch.ops()) {
        if (op instanceof Op.Delete d
            && d.family().equals(Format3.INDEX)
            && d.key().length > 0
            && d.key()[0] == 'D') {
          return true;
        }
      }
      return false;
    }

    private static boolean isInflightCounter(byte[] key) {
      return key.length == 5 && key[4] == CounterField.INFLIGHT.code();
    }
  }
}
