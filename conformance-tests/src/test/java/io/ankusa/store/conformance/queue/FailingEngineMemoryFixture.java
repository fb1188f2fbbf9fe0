package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.FaultInjectingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The memory backend with faults injected inside its pretend engine ({@link #injectFaults}): after
 * an injected write or sync failure the engine is left failed — every later write and sync throws
 * {@link StoreWriteFailedException}, as an engine does after a background I/O error — until {@code
 * reportWriteFailure} recovers it. A write can also fail half way through ({@code
 * failNextWriteMidway}): the first half of its puts reached the engine and are visible until the
 * recovery throws them away. How {@code reportWriteFailure} recovers is the fixture's {@link
 * Recovery}: honestly, or in the mutants by closing scans and snapshots and nothing more, or not at
 * all.
 */
final class FailingEngineMemoryFixture extends WrappingFixture {
  /** What reportWriteFailure does to the failed pretend engine. */
  enum Recovery {
    /**
     * Closes scans and snapshots, throws away the part of a failed write in the engine, reopens the
     * engine.
     */
    HONEST,
    /**
     * Closes scans and snapshots and nothing more (mutant REPORT_WRITE_FAILURE_RECOVERS_NOTHING).
     */
    CLOSES_ONLY,
    /** Nothing at all (mutant REPORT_WRITE_FAILURE_NOOP). */
    NOOP
  }

  private final Recovery recovery;

  FailingEngineMemoryFixture(boolean recovers) {
    this(recovers ? Recovery.HONEST : Recovery.CLOSES_ONLY);
  }

  FailingEngineMemoryFixture(Recovery recovery) {
    super(
        switch (recovery) {
          case HONEST -> "memory with an engine that fails";
          case CLOSES_ONLY -> "memory mutant REPORT_WRITE_FAILURE_RECOVERS_NOTHING";
          case NOOP -> "memory mutant REPORT_WRITE_FAILURE_NOOP";
        },
        UnaryOperator.identity());
    this.recovery = recovery;
  }

  @Override
  public FaultInjectingStore injectFaults(Store store) {
    return new FaultInjectingStore(store) {
      private volatile boolean failed;
      private volatile boolean midway;

      /**
       * The puts of a write that failed half way, each with the value it replaced (null: absent).
       */
      private final Map<byte[], byte[]> undo = new java.util.LinkedHashMap<>();

      private String undoFamily;

      @Override
      protected StoreWriteFailedException injectedWriteFailure(
          Batch batch, Durability durability, boolean applied) {
        failed = true;
        return super.injectedWriteFailure(batch, durability, applied);
      }

      @Override
      protected StoreWriteFailedException injectedSyncFailure() {
        failed = true;
        return super.injectedSyncFailure();
      }

      @Override
      public FaultInjectingStore failNextWriteMidway() {
        midway = true;
        return this;
      }

      @Override
      public void write(Batch batch, Durability durability) {
        refuseWhileFailed();
        if (midway) {
          midway = false;
          List<Op.Put> puts =
              batch.ops().stream()
                  .filter(Op.Put.class::isInstance)
                  .map(Op.Put.class::cast)
                  .toList();
          Batch half = new Batch();
          for (Op.Put p : puts.subList(0, puts.size() / 2)) {
            undo.put(p.key(), delegate.get(p.family(), p.key()));
            undoFamily = p.family();
            half.put(p.family(), p.key(), p.value());
          }
          delegate.write(half, Durability.NO_SYNC); // what reached the engine before it failed
          failed = true;
          throw new StoreWriteFailedException(
              "injected failure half way through a "
                  + durability
                  + " write of "
                  + batch.ops().size()
                  + " ops: "
                  + half.ops().size()
                  + " of them reached the engine");
        }
        super.write(batch, durability);
      }

      @Override
      public void syncWal() {
        refuseWhileFailed();
        super.syncWal();
      }

      @Override
      public void reportWriteFailure(Throwable cause) {
        if (recovery == Recovery.NOOP) {
          return;
        }
        delegate.reportWriteFailure(cause); // closes the scans and snapshots
        if (recovery == Recovery.HONEST) {
          Batch discard = new Batch();
          undo.forEach(
              (k, v) -> {
                if (v == null) {
                  discard.delete(undoFamily, k);
                } else {
                  discard.put(undoFamily, k, v);
                }
              });
          if (!discard.ops().isEmpty()) {
            delegate.write(discard, Durability.SYNC);
          }
          undo.clear();
          failed = false; // the engine reopened
        }
      }

      private void refuseWhileFailed() {
        if (failed) {
          throw new StoreWriteFailedException(
              "the engine of "
                  + directory()
                  + " stopped writing after an I/O"
                  + " error; call reportWriteFailure to reopen it");
        }
      }
    };
  }
}
