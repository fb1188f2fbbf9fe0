package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.layout.TenantByOrdKey;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import java.util.Arrays;

/**
 * The layout suite against a writer whose fence repair rewinds ordinals instead of retiring them: a
 * memory store that rewrites the repair's batch (the one that puts {@code m:last_seq} and {@code
 * 't'} tombstones) so the tombstones become deletes and {@code m:next_ord} goes back to the first
 * of them, as the repair did before ordinals were retired. Must be rejected by {@code
 * aFenceNeverReusesAnOrdinal} ({@link LayoutMutantRejectionTest}). Not a surefire test by name:
 * only the launcher runs it.
 */
class OrdinalRewindMutantSuite extends LayoutConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory layout mutant: the fence repair rewinds m:next_ord", RewindsOrdinals::new);
  }

  /** Turns the repair's retired ordinals back into free ones. */
  static final class RewindsOrdinals extends ForwardingStore {
    private static final byte[] LAST_SEQ = Keys.lastSeq();
    private static final byte[] TENANT_BY_ORD_HI = Keys.family(KeyFamily.TENANT_BY_ORD).hi();

    RewindsOrdinals(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      if (!putsLastSeq(batch)) {
        delegate.write(batch, durability);
        return;
      }
      long firstRetired = Long.MAX_VALUE;
      Batch rewound = new Batch();
      for (Op op : batch.ops()) {
        if (op instanceof Op.Put p && isTombstone(p)) {
          firstRetired = Math.min(firstRetired, TenantByOrdKey.decode(p.key()).ord());
          rewound.delete(p.family(), p.key());
        } else if (!(op instanceof Op.Put p
            && p.family().equals(Format3.DEFAULT)
            && Arrays.equals(p.key(), Keys.nextOrd()))) {
          rewound.add(op);
        }
      }
      if (firstRetired != Long.MAX_VALUE) {
        rewound.put(Format3.DEFAULT, Keys.nextOrd(), new NextOrdinalValue(firstRetired).encode());
        delegate.write(rewound, durability);
      } else {
        delegate.write(batch, durability);
      }
    }

    private static boolean putsLastSeq(Batch batch) {
      return batch.ops().stream()
          .anyMatch(
              op ->
                  op instanceof Op.Put p
                      && p.family().equals(Format3.DEFAULT)
                      && Arrays.equals(p.key(), LAST_SEQ));
    }

    private static boolean isTombstone(Op.Put p) {
      return p.family().equals(Format3.TENANTS)
          && p.key().length == 5
          && p.key()[0] == 't'
          && p.value().length == 0
          && !Arrays.equals(
              p.key(), TENANT_BY_ORD_HI); // a new store's bootstrap puts the sentinel, empty too
    }
  }
}
