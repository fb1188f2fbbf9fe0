package io.ankusa.store.conformance;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;

/**
 * A store whose next write or sync fails on demand with {@link StoreWriteFailedException}, the way
 * an engine's failed I/O does: what the engine layer's {@code
 * reportWriteFailureRecoversFromInjectedFaults} injects on every backend ({@link
 * BackendFixture#injectFaults}), and the base of the queue's tests that fail the writer's writes
 * and syncs.
 *
 * <p>Here the failure is thrown before the call reaches the store it wraps, so that store stays
 * healthy and {@link #reportWriteFailure} reaches it as after a real failure; a fixture whose
 * engine can fail inside (and be left failed until {@code reportWriteFailure} recovers it)
 * overrides {@link #injectedWriteFailure} and {@link #injectedSyncFailure}. Each armed failure
 * fires once. Thread-safe.
 */
public class FaultInjectingStore extends ForwardingStore {
  private record ArmedWrite(BiPredicate<Batch, Durability> which, boolean applyFirst) {}

  private final AtomicReference<ArmedWrite> nextWrite = new AtomicReference<>();
  private final AtomicBoolean nextSync = new AtomicBoolean();
  private final AtomicInteger injected = new AtomicInteger();

  public FaultInjectingStore(Store delegate) {
    super(delegate);
  }

  /** The next write fails, and nothing of its batch is applied. */
  public FaultInjectingStore failNextWrite() {
    return failNextWrite((batch, durability) -> true, false);
  }

  /**
   * The next write for which {@code which} holds fails; with {@code applyFirst} its batch is
   * applied before the failure is thrown (an engine that took the batch and failed after),
   * otherwise not at all.
   */
  public FaultInjectingStore failNextWrite(
      BiPredicate<Batch, Durability> which, boolean applyFirst) {
    nextWrite.set(new ArmedWrite(which, applyFirst));
    return this;
  }

  /**
   * The next write fails after part of its batch reached the engine (a buffer filled, an I/O error
   * half way through), leaving the engine failed until {@code reportWriteFailure} recovers it
   * without that part (property {@code reportWriteFailureDiscardsAWriteHalfInTheEngine}). Only an
   * engine's own fixture can fail a write there: by default this throws.
   *
   * @throws UnsupportedOperationException when this store cannot fail a write inside the engine;
   *     the message says why
   */
  public FaultInjectingStore failNextWriteMidway() {
    throw new UnsupportedOperationException(
        "its fixture's injectFaults fails writes before they reach the engine;"
            + " a fixture whose engine can fail half way through a write overrides failNextWriteMidway");
  }

  /** The next {@code syncWal()} fails without syncing. */
  public FaultInjectingStore failNextSync() {
    nextSync.set(true);
    return this;
  }

  /** Failures thrown so far (a case that injected nothing proves nothing). */
  public int injected() {
    return injected.get();
  }

  @Override
  public void write(Batch batch, Durability durability) {
    ArmedWrite armed = nextWrite.get();
    if (armed != null
        && armed.which().test(batch, durability)
        && nextWrite.compareAndSet(armed, null)) {
      if (armed.applyFirst()) {
        delegate.write(batch, durability);
      }
      injected.incrementAndGet();
      throw injectedWriteFailure(batch, durability, armed.applyFirst());
    }
    delegate.write(batch, durability);
  }

  @Override
  public void syncWal() {
    if (nextSync.compareAndSet(true, false)) {
      injected.incrementAndGet();
      throw injectedSyncFailure();
    }
    delegate.syncWal();
  }

  /** The failure an armed write throws; an engine that fails inside does so here. */
  protected StoreWriteFailedException injectedWriteFailure(
      Batch batch, Durability durability, boolean applied) {
    return new StoreWriteFailedException(
        "injected failure of a "
            + durability
            + " write of "
            + batch.ops().size()
            + " ops (applied: "
            + applied
            + ")");
  }

  /** The failure an armed sync throws; an engine that fails inside does so here. */
  protected StoreWriteFailedException injectedSyncFailure() {
    return new StoreWriteFailedException("injected failure of syncWal()");
  }
}
