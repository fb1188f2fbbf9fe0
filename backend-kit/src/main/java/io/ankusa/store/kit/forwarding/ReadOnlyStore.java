package io.ankusa.store.kit.forwarding;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;

/**
 * The store a provider returns for {@link io.ankusa.store.spi.StoreOptions#readOnly()}: reads,
 * scans and snapshots go to the backend's store (opened by the backend so that it changes no file),
 * and every call of the write family — {@link #write}, {@link #syncWal}, {@link
 * #reportWriteFailure} — is refused with {@link StoreArgumentException} before it reaches the
 * backend (after close: {@link StoreClosedException}). One wrapper for every backend, so they all
 * refuse the same calls the same way (property {@code readOnlyOpenRefusesWrites}).
 *
 * <p>Ownership: owns the wrapped store; closing this closes it. Thread-safe as the wrapped store
 * is.
 */
public final class ReadOnlyStore extends ForwardingStore {
  private volatile boolean closed;

  public ReadOnlyStore(Store opened) {
    super(opened);
  }

  @Override
  public void write(Batch batch, Durability durability) {
    throw refused(
        "write of " + (batch == null ? "a null batch" : "a batch of " + batch.size() + " ops"));
  }

  @Override
  public void syncWal() {
    throw refused("syncWal");
  }

  @Override
  public void reportWriteFailure(Throwable cause) {
    throw refused(
        "reportWriteFailure (a read-only store writes nothing, so nothing can have failed)");
  }

  @Override
  public void close() {
    closed = true;
    delegate.close();
  }

  private StoreException refused(String what) {
    if (closed) {
      return new StoreClosedException(
          "read-only store " + delegate.directory() + " is closed; open it again");
    }
    return new StoreArgumentException(
        what
            + " refused: the store in "
            + delegate.directory()
            + " was opened read-only (StoreOptions.readOnly); open it read-write to change it");
  }

  @Override
  public String toString() {
    return "ReadOnlyStore[" + delegate + "]";
  }
}
