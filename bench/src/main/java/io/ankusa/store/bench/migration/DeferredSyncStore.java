package io.ankusa.store.bench.migration;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;

/**
 * A {@link Store} that writes every batch {@link Durability#NO_SYNC}, whatever the caller asks for:
 * lets the bench populate a store through {@code FormatTwoWriter} (which commits {@code SYNC}) in
 * large unsynced batches. Durability: nothing written through it is durable until {@link
 * #syncWal()} returns — the populator calls it once at the end. Only for building bench inputs.
 */
final class DeferredSyncStore extends ForwardingStore {
  DeferredSyncStore(Store delegate) {
    super(delegate);
  }

  @Override
  public void write(Batch batch, Durability durability) {
    delegate.write(batch, Durability.NO_SYNC);
  }
}
