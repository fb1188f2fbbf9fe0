package io.ankusa.store.conformance.queue;

import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * A provider registered (in test resources only) as {@value #NAME}: memory stores behind the
 * DROPS_LAST_OP mutant, so {@link ConformanceRunnerTest} can see the launcher report a failing
 * backend.
 */
public final class MutantStoreProvider implements StoreProvider {
  static final String NAME = "memory-mutant-drops-last-op";
  private final MemoryStoreProvider memory = new MemoryStoreProvider();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    return Mutant.DROPS_LAST_OP.wrap.apply(memory.open(dir, options, families));
  }
}
