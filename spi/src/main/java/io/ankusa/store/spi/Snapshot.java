package io.ankusa.store.spi;

/**
 * A read-only view of the store frozen at the moment {@link Store#snapshot()} returned: writes made
 * after it are never visible through it (property {@code snapshotDoesNotSeeLaterWrites}).
 *
 * <p>Holds engine resources until {@link #close()}. Safe to use from several threads. Closing the
 * store closes its open snapshots; any later call throws {@link StoreClosedException}.
 */
public interface Snapshot extends ReadView, AutoCloseable {
  /** Releases the snapshot. Idempotent. */
  @Override
  void close();
}
