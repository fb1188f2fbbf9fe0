package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import java.util.Arrays;

/**
 * The migration layer against a migration that records its aggregate layout only when it finishes,
 * as it did before each step recorded it: a memory store that drops the put of {@code
 * m:aggregate_shards} from every batch that also puts the migration cursor (a step that does not
 * finish). A run interrupted under one {@code counters.sharded_aggregate} setting then resumes
 * under the other unrefused. Must be rejected by {@code
 * anInterruptedMigrationResumesOnlyWithItsAggregateLayout} ({@link MigrationMutantRejectionTest}).
 * Not a surefire test by name: only the launcher runs it.
 */
class MigrationLayoutUnrecordedMutantSuite extends MigrationConformance {
  @Override
  protected BackendFixture fixture() {
    return new WrappingFixture(
        "memory migration mutant: the aggregate layout is recorded only by the last step",
        LayoutPutOnlyWhenFinished::new);
  }

  /** Drops {@code m:aggregate_shards} from batches that put {@code m:migrating:3}. */
  static final class LayoutPutOnlyWhenFinished extends ForwardingStore {
    LayoutPutOnlyWhenFinished(Store d) {
      super(d);
    }

    @Override
    public void write(Batch batch, Durability durability) {
      boolean unfinishedStep =
          batch.ops().stream()
              .anyMatch(
                  op ->
                      op instanceof Op.Put p
                          && p.family().equals(Format3.DEFAULT)
                          && Arrays.equals(p.key(), Keys.migrating(Format3.FORMAT)));
      if (!unfinishedStep) {
        super.write(batch, durability);
        return;
      }
      Batch kept = new Batch();
      for (Op op : batch.ops()) {
        if (!(op instanceof Op.Put p
            && p.family().equals(Format3.DEFAULT)
            && Arrays.equals(p.key(), Keys.aggregateShards()))) {
          kept.add(op);
        }
      }
      super.write(kept, durability);
    }
  }
}
