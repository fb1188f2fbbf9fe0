package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.THREAD_WAIT_SECONDS;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.FaultInjectingStore;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The store a writer case runs on: the fixture's {@link FaultInjectingStore} (to fail a write or a
 * sync), with gates that hold every {@code syncWal()}, or every {@code NO_SYNC} write of the writer
 * thread, until the case releases them, a count of {@code reportWriteFailure} calls, and on demand
 * a {@code reportWriteFailure} that throws (a store that cannot recover). Closing it closes the
 * store.
 */
final class WriterGates extends ForwardingStore {
  /** A held call arrives at {@code arrived} and waits for {@code open}. */
  private record Gate(CountDownLatch arrived, CountDownLatch open) {
    static Gate closed() {
      return new Gate(new CountDownLatch(1), new CountDownLatch(1));
    }

    void pass() {
      arrived.countDown();
      try {
        if (!open.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS)) {
          throw new AssertionError(
              "a held call was not released within " + THREAD_WAIT_SECONDS + " s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private final FaultInjectingStore faults;
  private final AtomicInteger reported = new AtomicInteger();
  private volatile Gate syncGate;
  private volatile Gate writeGate;
  private volatile boolean loseStoreOnReport;

  private WriterGates(FaultInjectingStore faults) {
    super(faults);
    this.faults = faults;
  }

  static WriterGates over(BackendFixture backend, TempDirStore t) {
    return new WriterGates(backend.injectFaults(t.store()));
  }

  FaultInjectingStore faults() {
    return faults;
  }

  void holdSyncs() {
    syncGate = Gate.closed();
  }

  void awaitHeldSync() {
    awaitLatch(syncGate.arrived(), "a syncWal() held at the gate");
  }

  void releaseSyncs() {
    Gate g = syncGate;
    syncGate = null;
    if (g != null) {
      g.open().countDown();
    }
  }

  void holdWriterWrites() {
    writeGate = Gate.closed();
  }

  void awaitHeldWriterWrite() {
    awaitLatch(writeGate.arrived(), "a write of the writer thread held at the gate");
  }

  void releaseWriterWrites() {
    Gate g = writeGate;
    writeGate = null;
    if (g != null) {
      g.open().countDown();
    }
  }

  void releaseAll() {
    releaseSyncs();
    releaseWriterWrites();
  }

  /** The next {@code NO_SYNC} write of the writer thread fails (applied first, or not at all). */
  void failNextWriterWrite(boolean applyFirst) {
    failNextWriterWrite(Durability.NO_SYNC, applyFirst);
  }

  void failNextWriterWrite(Durability durability, boolean applyFirst) {
    faults.failNextWrite((batch, d) -> d == durability && onWriterThread(), applyFirst);
  }

  /** From now on {@code reportWriteFailure} throws, as a store whose recovery failed. */
  void loseStoreOnReport() {
    loseStoreOnReport = true;
  }

  int reportedFailures() {
    return reported.get();
  }

  @Override
  public void syncWal() {
    Gate g = syncGate;
    if (g != null) {
      g.pass();
    }
    delegate.syncWal();
  }

  @Override
  public void write(Batch batch, Durability durability) {
    Gate g = writeGate;
    if (g != null && durability == Durability.NO_SYNC && onWriterThread()) {
      g.pass();
    }
    delegate.write(batch, durability);
  }

  @Override
  public void reportWriteFailure(Throwable cause) {
    reported.incrementAndGet();
    if (loseStoreOnReport) {
      throw new StoreWriteFailedException(
          "the store at "
              + delegate.directory()
              + " could not recover (refused by the conformance suite's writer cases)",
          cause);
    }
    delegate.reportWriteFailure(cause);
  }

  private static boolean onWriterThread() {
    return Thread.currentThread().getName().equals(QueueWriter.WRITER_THREAD);
  }

  private static void awaitLatch(CountDownLatch latch, String what) {
    try {
      if (!latch.await(THREAD_WAIT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("not reached within " + THREAD_WAIT_SECONDS + " s: " + what);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
