package io.ankusa.store.conformance;

import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;

/**
 * What the conformance suite needs from a backend: a way to open (and reopen) a store in a
 * directory, what the backend claims, and — if it claims {@link Capabilities#corruptionInjection()}
 * — a way to damage a closed store's data files. A backend's test class returns one of these from
 * each layer's abstract suite; that is the whole integration.
 *
 * <p>REQUIRES: a no-arg constructor (of any visibility) and a named class, not an anonymous one or an
 * inner class of a test, when the durability or migration layer runs against the fixture: their
 * child JVMs create the fixture again by its class name and open every store through its {@link
 * #open} with its {@link #options()} (conformance-tests' {@code ChildJvm}). The launcher's {@code
 * --fixture} creates it the same way.
 */
public interface BackendFixture {

  /** The provider under test. */
  StoreProvider provider();

  /** Options for every store the suite opens, in the test JVM and in its child JVMs; override to tune a backend for tests. */
  default StoreOptions options() {
    return StoreOptions.defaults();
  }

  /** Opens the store in {@code dir}, creating it when missing; called again on the same dir to reopen. */
  default Store open(Path dir, List<FamilySpec> families) {
    return provider().open(dir, options(), families);
  }

  /**
   * Opens the existing store in {@code dir} read-only ({@link StoreOptions#readOnly()}, with {@link
   * #options()}'s properties).
   */
  default Store openReadOnly(Path dir, List<FamilySpec> families) {
    return provider().open(dir, options().readOnly(true), families);
  }

  /** What the backend claims; properties needing more are skipped with the reason shown. */
  Capabilities capabilities();

  /**
   * Damages the data files of the closed store in {@code dir} so that reading {@code family} over
   * the keys written to it meets corruption. Called only when {@link #capabilities()} claims {@code
   * corruptionInjection}. The suite wrote enough data before calling this for the backend to have
   * persisted it to data files (a backend may also compact or flush here, before damaging them).
   */
  default void corrupt(Path dir, List<FamilySpec> families, String family) {
    throw new UnsupportedOperationException(provider().name() + " does not inject corruption");
  }

  /**
   * Damages the write-ahead log of the closed store in {@code dir} in its middle — not at its end,
   * where a record cut short by a crash is expected — the way a bad disk block would: typically one
   * flipped bit in a record half-way through the log. Called only when {@link #capabilities()}
   * claims {@code logDamageInjection}. The suite wrote and acknowledged its batches with {@code
   * SYNC} and closed the store; nothing was flushed out of the log on purpose.
   */
  default void damageLog(Path dir) {
    throw new UnsupportedOperationException(provider().name() + " does not damage a write-ahead log");
  }

  /**
   * Forgets whatever the backend keeps about the closed store in {@code dir} outside of {@code dir}
   * itself (the memory backend keeps its data in the JVM under the directory's name). Called by the
   * suite after the store is closed, before it deletes {@code dir}. Default: nothing to forget.
   */
  default void discard(Path dir) {}

  /** The backend's name as the suite prints it in skip reasons and messages. */
  default String name() {
    return provider().name();
  }
}
