package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The memory backend with every opened store passed through {@code wrap} (a mutant, or nothing).
 */
class WrappingFixture implements BackendFixture {
  private final MemoryFixture memory = new MemoryFixture();
  private final String name;
  private final UnaryOperator<Store> wrap;

  WrappingFixture(String name, UnaryOperator<Store> wrap) {
    this.name = name;
    this.wrap = wrap;
  }

  @Override
  public StoreProvider provider() {
    return memory.provider();
  }

  @Override
  public Store open(Path dir, List<FamilySpec> families) {
    return wrap.apply(memory.open(dir, families));
  }

  @Override
  public Capabilities capabilities() {
    return memory.capabilities();
  }

  @Override
  public void discard(Path dir) {
    MemoryStoreProvider.discard(dir);
  }

  @Override
  public String name() {
    return name;
  }
}
