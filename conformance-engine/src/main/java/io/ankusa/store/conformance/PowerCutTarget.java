package io.ankusa.store.conformance;

/**
 * What the power-cut case cuts the power of: a fixture whose stores keep every file they write
 * below the power-cut file system's root, and whatever else writes there (a database server) to
 * stop before the cut and start again after it. {@link BackendFixture#powerCutTarget} makes one per
 * case.
 *
 * <p>Ownership: the case closes it after its last cut, before it unmounts the file system.
 */
public interface PowerCutTarget extends AutoCloseable {
  /** Opens (in this JVM and in the case's child JVMs) stores whose files live below the root. */
  BackendFixture fixture();

  /**
   * Called after the writing child was killed and before the cut: kills whatever else still writes
   * below the root, the way a power cut stops it (SIGKILL, no shutdown). Default: nothing else
   * writes.
   */
  default void beforeCut() {}

  /** Called after the cut: starts again what {@link #beforeCut()} stopped, on what the cut left. */
  default void afterCut() {}

  /**
   * Releases what the target started (a server); called once, before the file system is unmounted.
   */
  @Override
  default void close() {}
}
