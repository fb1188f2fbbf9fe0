package io.ankusa.store.spi;

/**
 * What a backend can do, so the conformance suite can skip — visibly, with the reason — what a
 * backend does not claim. A backend claims only what it passes.
 *
 * @param concurrentWriters {@link Store#write} may be called from several threads at once
 * @param snapshots {@link Store#snapshot()} gives a frozen view
 * @param durableAfterProcessKill a {@link Durability#SYNC} write (or a {@code NO_SYNC} write followed
 *     by a returned {@link Store#syncWal()}) survives kill -9 of the process and a reopen from a
 *     new process
 * @param corruptionInjection the backend's conformance fixture can damage its data files, so the
 *     suite can check that corruption is reported and never read as a clean end of scan
 * @param filesInDirectory the store lives in files under its directory: the backend claims the
 *     directory through {@link DirectoryClaim} (one open store per directory whatever path names it,
 *     in this JVM and across processes; a store marker; another backend's or a non-empty directory
 *     refused with nothing written), and a {@link StoreOptions#readOnly() read-only} open changes no
 *     file. False for a store that lives in the JVM (memory), where the directory is only a name
 * @param maxKeyBytes the largest key accepted
 * @param maxValueBytes the largest value accepted
 */
public record Capabilities(
    boolean concurrentWriters,
    boolean snapshots,
    boolean durableAfterProcessKill,
    boolean corruptionInjection,
    boolean filesInDirectory,
    int maxKeyBytes,
    int maxValueBytes) {

  public Capabilities {
    if (maxKeyBytes < 32 || maxValueBytes < 32) {
      throw new StoreArgumentException(
          "a backend must accept keys and values of at least 32 bytes (the format-3 layout needs them)");
    }
  }
}
