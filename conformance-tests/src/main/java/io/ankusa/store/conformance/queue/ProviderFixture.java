package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;

/**
 * A generic fixture for any backend found by name with {@link StoreProvider#named(String)}: it
 * opens stores with the default options (plus the launcher's {@code --option}s, {@link
 * #OPTION_PREFIX}) and reads the capabilities from a store it opens once in a temporary directory.
 * It damages no files ({@link #corrupt} says why, so the corruption case is reported unverified:
 * the backend's own fixture, with {@code --fixture}, checks damage detection) and cannot damage a
 * write-ahead log ({@link #logDamageInjection()} keeps its default, false, so the log-damage cases
 * are reported unverified); it names itself "NAME (generic fixture)" in skip reasons. Memory
 * stores, which live in the JVM, are discarded after use.
 */
public final class ProviderFixture implements BackendFixture {
  /**
   * System properties with this prefix become store options of the generic fixture, {@code
   * ankusa.conformance.option.KEY=VALUE} the option {@code KEY=VALUE}: how the launcher's {@code
   * --option} reaches it (a backend's server: {@code postgres.url}).
   */
  public static final String OPTION_PREFIX = "ankusa.conformance.option.";

  private final StoreProvider provider;
  private final StoreOptions options;
  private Capabilities capabilities;

  /**
   * A fixture that opens every store with the default options, plus the {@value #OPTION_PREFIX}
   * system properties set when it is made.
   *
   * @throws io.ankusa.store.spi.StoreArgumentException if no backend of that name is on the
   *     classpath; the message names the available ones
   */
  public ProviderFixture(String name) {
    this.provider = StoreProvider.named(name);
    StoreOptions o = StoreOptions.defaults();
    for (String key : new TreeSet<>(System.getProperties().stringPropertyNames())) {
      if (key.startsWith(OPTION_PREFIX)) {
        o = o.with(key.substring(OPTION_PREFIX.length()), System.getProperty(key));
      }
    }
    this.options = o;
  }

  @Override
  public StoreOptions options() {
    return options;
  }

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public synchronized Capabilities capabilities() {
    if (capabilities == null) {
      capabilities = probeCapabilities(this);
    }
    return capabilities;
  }

  /**
   * Refuses: the launcher runs the suite in its own JVM, and random bytes in an engine's files
   * ({@link io.ankusa.store.conformance.StoreFileDamage}) can abort that JVM when the engine trusts
   * its files' structure — LMDB's page pointers do (a get met a damaged branch page in native code
   * and the process died of SIGABRT). A backend's own fixture aims its damage at what its engine
   * checks.
   */
  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    throw new UnsupportedOperationException(
        name()
            + " does not damage files in the launcher's JVM: random bytes"
            + " can abort an engine that trusts its files' structure (LMDB does); the backend's own fixture checks"
            + " damage detection (its conformance test class, or --fixture for a backend loaded with --jar)");
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
