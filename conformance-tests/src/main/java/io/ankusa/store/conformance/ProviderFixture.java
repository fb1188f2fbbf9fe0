package io.ankusa.store.conformance;

import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * A generic fixture for any backend found by name with {@link StoreProvider#named(String)}: it opens
 * stores with the default options and reads the capabilities from a store it opens once in a
 * temporary directory. It damages data files only the generic way ({@link StoreFileDamage}, in any
 * store that lives in files; the backend's own fixture, in its test sources, may aim better) and
 * cannot damage a write-ahead log, so it reports {@code logDamageInjection} as false whatever the
 * backend claims; it names itself "NAME (generic fixture)" in skip reasons. Memory stores, which live in the JVM, are
 * discarded after use.
 */
public final class ProviderFixture implements BackendFixture {
  private final StoreProvider provider;
  private Capabilities capabilities;

  /**
   * @throws io.ankusa.store.spi.StoreArgumentException if no backend of that name is on the
   *     classpath; the message names the available ones
   */
  public ProviderFixture(String name) {
    this.provider = StoreProvider.named(name);
  }

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public synchronized Capabilities capabilities() {
    if (capabilities == null) {
      Capabilities claimed = probeCapabilities(this);
      capabilities = new Capabilities(claimed.concurrentWriters(), claimed.snapshots(),
          claimed.durableAfterProcessKill(), claimed.detectsDamage(), claimed.filesInDirectory(), claimed.maxKeyBytes(),
          claimed.maxValueBytes(), false);
    }
    return capabilities;
  }

  @Override
  public void discard(Path dir) {
    if (provider instanceof MemoryStoreProvider) {
      MemoryStoreProvider.discard(dir);
    }
  }

  @Override
  public String name() {
    return provider.name() + " (generic fixture)";
  }

  /** Opens a store in a temporary directory, asks it what it can do, and throws it away. */
  static Capabilities probeCapabilities(BackendFixture fixture) {
    try (TempDirStore probe = TempDirStore.open(fixture, List.of(FamilySpec.plain("probe")))) {
      return probe.store().capabilities();
    }
  }
}
