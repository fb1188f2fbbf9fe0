package io.ankusa.store.conformance;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.function.UnaryOperator;

/**
 * The memory backend with faults injected inside its pretend engine ({@link #injectFaults}): after an
 * injected write or sync failure the engine is left failed — every later write and sync throws
 * {@link StoreWriteFailedException}, as an engine does after a background I/O error — until {@code
 * reportWriteFailure} recovers it (honest), or never (the mutant, whose {@code reportWriteFailure}
 * closes scans and snapshots and nothing more).
 */
final class FailingEngineMemoryFixture extends WrappingFixture {
  private final boolean recovers;

  FailingEngineMemoryFixture(boolean recovers) {
    super(recovers ? "memory with an engine that fails" : "memory mutant REPORT_WRITE_FAILURE_RECOVERS_NOTHING",
        UnaryOperator.identity());
    this.recovers = recovers;
  }

  @Override
  public FaultInjectingStore injectFaults(Store store) {
    return new FaultInjectingStore(store) {
      private volatile boolean failed;

      @Override
      protected StoreWriteFailedException injectedWriteFailure(Batch batch, Durability durability, boolean applied) {
        failed = true;
        return super.injectedWriteFailure(batch, durability, applied);
      }

      @Override
      protected StoreWriteFailedException injectedSyncFailure() {
        failed = true;
        return super.injectedSyncFailure();
      }

      @Override
      public void write(Batch batch, Durability durability) {
        refuseWhileFailed();
        super.write(batch, durability);
      }

      @Override
      public void syncWal() {
        refuseWhileFailed();
        super.syncWal();
      }

      @Override
      public void reportWriteFailure(Throwable cause) {
        delegate.reportWriteFailure(cause); // closes the scans and snapshots
        if (recovers) {
          failed = false; // the engine reopened
        }
      }

      private void refuseWhileFailed() {
        if (failed) {
          throw new StoreWriteFailedException("the engine of " + directory() + " stopped writing after an I/O"
              + " error; call reportWriteFailure to reopen it");
        }
      }
    };
  }
}
