package io.ankusa.store.spi;

/**
 * What a backend can do, so the conformance suite can skip — visibly, with the reason — what a
 * backend does not claim. A backend claims only what it passes.
 *
 * @param concurrentWriters {@link Store#write} may be called from several threads at once
 * @param snapshots {@link Store#snapshot()} gives a frozen view
 * @param durableAfterProcessKill a {@link Durability#SYNC} write (or a {@code NO_SYNC} write followed
 *     by a returned {@link Store#syncWal()}) survives kill -9 of the process and a reopen from a
 *     new process; for a backend whose files the suite can put on its power-cut file system, a power
 *     cut too (property {@code acknowledgedBatchesSurvivePowerCuts})
 * @param detectsDamage the engine detects damage to its data files: a read that meets damaged bytes
 *     throws {@link StoreCorruptionException} (or the open refuses the store with it), never returns
 *     the damage as data nor ends a scan early as if its range were exhausted (properties {@code
 *     damageIsRefusedAtOpenOrDetectedOnRead}, the detection, and {@code scanNeverEndsEarlyOnCorruption},
 *     the reads, past any check at open). A claim about the engine, not about its test fixture: the
 *     suite damages the files of every backend whose store lives in files, and for an engine that
 *     does not claim this it reports what the engine did with the damage as unverified. The backend's
 *     javadoc says which kinds of damage it detects
 * @param filesInDirectory the store lives in files under its directory: the backend claims the
 *     directory through {@link DirectoryClaim} (one open store per directory whatever path names it,
 *     in this JVM and across processes; a store marker; another backend's or a non-empty directory
 *     refused with nothing written), and a {@link StoreOptions#readOnly() read-only} open changes no
 *     file. False for a store that lives in the JVM (memory), where the directory is only a name
 * @param maxKeyBytes the largest key accepted
 * @param maxValueBytes the largest value accepted: a value of exactly this size is written and read
 *     back, one byte more is refused (property {@code valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused})
 * @param logDamageInjection the backend keeps a write-ahead log and its conformance fixture can
 *     damage that log in the middle and cut it short, so the suite can check that the damage is
 *     reported and never recovered as a silently shorter history (property {@code
 *     midLogDamageIsReportedNeverSilentlyDropped}), nor as batches split across families (property
 *     {@code cutLogNeverSplitsABatchAcrossFamilies}); false for engines without a log
 */
public record Capabilities(
    boolean concurrentWriters,
    boolean snapshots,
    boolean durableAfterProcessKill,
    boolean detectsDamage,
    boolean filesInDirectory,
    int maxKeyBytes,
    int maxValueBytes,
    boolean logDamageInjection) {

  public Capabilities {
    if (maxKeyBytes < 32 || maxValueBytes < 32) {
      throw new StoreArgumentException(
          "a backend must accept keys and values of at least 32 bytes (the format-3 layout needs them)");
    }
  }
}
