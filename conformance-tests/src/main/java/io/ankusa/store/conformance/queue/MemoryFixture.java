package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;

/**
 * The {@code memory} backend as the suite sees it. Capabilities are read from a store it opens once
 * (the memory backend claims concurrent writers and snapshots; no process-kill durability, no
 * corruption injection, so those properties are skipped with that reason). Stores are forgotten
 * with {@link MemoryStoreProvider#discard(Path)} when the suite is done with them.
 */
public final class MemoryFixture implements BackendFixture {
  private final StoreProvider provider = new MemoryStoreProvider();
  private Capabilities capabilities;

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public synchronized Capabilities capabilities() {
    if (capabilities == null) {
      capabilities = ProviderFixture.probeCapabilities(this);
    }
    return capabilities;
  }

  @Override
  public void discard(Path dir) {
    MemoryStoreProvider.discard(dir);
  }
}
