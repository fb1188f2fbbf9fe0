package io.ankusa.store.queue.internal;

import io.ankusa.store.conformance.FaultInjectingStore;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link FaultInjectingStore} for writer tests: fails the next WAL sync or the next {@code
 * NO_SYNC} write of the writer thread with {@link StoreWriteFailedException}, holds syncs at a gate
 * the test opens, slows syncs, and can make {@link #reportWriteFailure} behave like an engine
 * reopen that drops every write made since the start of the last successful sync (what a crash of
 * an unsynced WAL looks like).
 */
public final class WriterFaultStore extends FaultInjectingStore {
  private final ReentrantReadWriteLock reopen = new ReentrantReadWriteLock();
  private volatile Semaphore syncGate;
  private volatile Semaphore writerWriteGate;
  private final AtomicInteger syncsWaiting = new AtomicInteger();
  private final AtomicInteger syncCalls = new AtomicInteger();
  private final AtomicInteger reportedFailures = new AtomicInteger();
  private final AtomicLong syncDelayNanos = new AtomicLong();
  private volatile boolean dropUnsyncedOnReopen;

  /** The state as of the start of the last successful sync (drop mode only). */
  private Snapshot durableState;

  public WriterFaultStore(Store delegate) {
    super(delegate);
  }

  /**
   * The next {@code NO_SYNC} write of the writer thread ({@value QueueWriter#WRITER_THREAD}; a
   * dispatcher's claims are not counted) throws; with {@code applyFirst} it is applied before
   * throwing (a failure reported after the engine took the batch), otherwise not at all.
   */
  public WriterFaultStore failNextNoSyncWrite(boolean applyFirst) {
    failNextWrite(
        (batch, durability) ->
            durability == Durability.NO_SYNC
                && Thread.currentThread().getName().equals(QueueWriter.WRITER_THREAD),
        applyFirst);
    return this;
  }

  /** From now on every {@code syncWal()} waits at a gate until {@link #openSyncGate}. */
  public WriterFaultStore holdSyncs() {
    syncGate = new Semaphore(0);
    return this;
  }

  /** Lets every held and later sync through. */
  public void openSyncGate() {
    Semaphore g = syncGate;
    syncGate = null;
    if (g != null) {
      g.release(Integer.MAX_VALUE / 2);
    }
  }

  /**
   * From now on the writer thread's {@code NO_SYNC} writes wait until {@link #openWriterWriteGate}.
   */
  public WriterFaultStore holdWriterWrites() {
    writerWriteGate = new Semaphore(0);
    return this;
  }

  /** Lets every held and later writer write through. */
  public void openWriterWriteGate() {
    Semaphore g = writerWriteGate;
    writerWriteGate = null;
    if (g != null) {
      g.release(Integer.MAX_VALUE / 2);
    }
  }

  /** Waits until a sync is held at the gate. */
  public void awaitHeldSync() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (syncsWaiting.get() == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no syncWal() reached the gate within 30 s");
      }
      Thread.sleep(1);
    }
  }

  /** Every sync sleeps this long first (a slow disk). */
  public WriterFaultStore syncDelay(long nanos) {
    syncDelayNanos.set(nanos);
    return this;
  }

  /** {@link #reportWriteFailure} restores the state of the start of the last successful sync. */
  public WriterFaultStore dropUnsyncedOnReopen() {
    reopen.writeLock().lock();
    try {
      dropUnsyncedOnReopen = true;
      durableState = delegate.snapshot();
    } finally {
      reopen.writeLock().unlock();
    }
    return this;
  }

  int syncCalls() {
    return syncCalls.get();
  }

  public int reportedFailures() {
    return reportedFailures.get();
  }

  @Override
  public void write(Batch batch, Durability durability) {
    Semaphore gate = writerWriteGate;
    if (gate != null
        && durability == Durability.NO_SYNC
        && Thread.currentThread().getName().equals(QueueWriter.WRITER_THREAD)) {
      gate.acquireUninterruptibly();
    }
    reopen.readLock().lock();
    try {
      super.write(batch, durability);
    } finally {
      reopen.readLock().unlock();
    }
  }

  @Override
  public void syncWal() {
    syncCalls.incrementAndGet();
    Semaphore gate = syncGate;
    if (gate != null) {
      syncsWaiting.incrementAndGet();
      try {
        gate.acquireUninterruptibly();
      } finally {
        syncsWaiting.decrementAndGet();
      }
    }
    long delay = syncDelayNanos.get();
    if (delay > 0) {
      LockSupport.parkNanos(delay);
    }
    reopen.readLock().lock();
    try {
      Snapshot startOfSync = dropUnsyncedOnReopen ? delegate.snapshot() : null;
      try {
        super.syncWal();
      } catch (StoreWriteFailedException e) {
        if (startOfSync != null) {
          startOfSync.close();
        }
        throw e;
      }
      if (startOfSync != null) {
        synchronized (this) {
          durableState.close();
          durableState = startOfSync;
        }
      }
    } finally {
      reopen.readLock().unlock();
    }
  }

  @Override
  public void reportWriteFailure(Throwable cause) {
    reportedFailures.incrementAndGet();
    reopen.writeLock().lock();
    try {
      if (dropUnsyncedOnReopen) {
        restore();
      }
      delegate.reportWriteFailure(cause);
    } finally {
      reopen.writeLock().unlock();
    }
  }

  /** Replaces every family's content with the durable state, in one batch. */
  private synchronized void restore() {
    byte[] top = new byte[1024];
    Arrays.fill(top, (byte) 0xFF);
    Batch batch = new Batch();
    for (FamilySpec f : delegate.families()) {
      batch.deleteRange(f.name(), new byte[0], top);
      try (Scan scan = durableState.scan(f.name(), new byte[0], null, Direction.FORWARD)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          batch.put(f.name(), e.key(), e.value());
        }
      }
    }
    delegate.write(batch, Durability.SYNC);
  }

  @Override
  public void close() {
    synchronized (this) {
      if (durableState != null) {
        durableState.close();
      }
    }
    delegate.close();
  }

  /** Waits for {@code latch}, failing the test after 30 s. */
  static void await(CountDownLatch latch) throws InterruptedException {
    if (!latch.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("latch not released within 30 s");
    }
  }
}
