package io.ankusa.store.spi;

/**
 * What a backend can do, so the conformance suite can skip — visibly, with the reason — what a
 * backend does not claim. A backend claims only what it passes.
 *
 * <p>Build it with {@link #builder()}, naming each claim:
 *
 * <pre>{@code
 * static final Capabilities CAPABILITIES = Capabilities.builder()
 *     .concurrentWriters(true).snapshots(true).durableAfterProcessKill(true).filesInDirectory(true)
 *     .maxKeyBytes(4096).maxValueBytes(16 << 20)
 *     .build();
 * }</pre>
 *
 * <p>A claim left unset has its default, what a minimal backend claims: no concurrent writers, no
 * snapshots, not durable after a process kill, no damage detection, no files in its directory
 * ({@code false} for every flag), keys of up to {@value #DEFAULT_MAX_KEY_BYTES} bytes and values of
 * up to {@value #DEFAULT_MAX_VALUE_BYTES} bytes (2 MiB: room for a hook of the queue's default
 * largest payload, 1 MiB, with its envelope). A capability added in a later release gets a default
 * the same way, so a backend that builds its capabilities keeps compiling, and claims nothing new
 * until it says so.
 *
 * @param concurrentWriters {@link Store#write} may be called from several threads at once
 * @param snapshots {@link Store#snapshot()} gives a frozen view
 * @param durableAfterProcessKill a {@link Durability#SYNC} write (or a {@code NO_SYNC} write
 *     followed by a returned {@link Store#syncWal()}) survives kill -9 of the process and a reopen
 *     from a new process; for a backend whose files the suite can put on its power-cut file system,
 *     a power cut too (property {@code acknowledgedBatchesSurvivePowerCuts})
 * @param detectsDamage the engine detects damage to its data files: a read that meets damaged bytes
 *     throws {@link StoreCorruptionException} (or the open refuses the store with it), never
 *     returns the damage as data nor ends a scan early as if its range were exhausted (properties
 *     {@code damageIsRefusedAtOpenOrDetectedOnRead}, the detection, and {@code
 *     scanNeverEndsEarlyOnCorruption}, the reads, past any check at open). A claim about the
 *     engine, not about its test fixture: the suite damages the files of every backend whose store
 *     lives in files, and for an engine that does not claim this it reports what the engine did
 *     with the damage as unverified. The backend's javadoc says which kinds of damage it detects
 * @param filesInDirectory the store lives in files under its directory: the backend claims the
 *     directory (one open store per directory whatever path names it, in this JVM and across
 *     processes; a store marker; another backend's or a non-empty directory refused with nothing
 *     written; the backend kit's {@code DirectoryClaim} does all of it), and a {@link
 *     StoreOptions#readOnly() read-only} open changes no file. False for a store that lives in the
 *     JVM (memory), where the directory is only a name
 * @param maxKeyBytes the largest key accepted; at least 32
 * @param maxValueBytes the largest value accepted: a value of exactly this size is written and read
 *     back, one byte more is refused (property {@code
 *     valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused}); at least 32
 */
public record Capabilities(
    boolean concurrentWriters,
    boolean snapshots,
    boolean durableAfterProcessKill,
    boolean detectsDamage,
    boolean filesInDirectory,
    int maxKeyBytes,
    int maxValueBytes) {

  /** The {@link #maxKeyBytes()} of a builder that was not given one. */
  public static final int DEFAULT_MAX_KEY_BYTES = 1024;

  /** The {@link #maxValueBytes()} of a builder that was not given one. */
  public static final int DEFAULT_MAX_VALUE_BYTES = 2 << 20;

  /**
   * Every claim, by position. Prefer {@link #builder()}: this constructor's arguments change
   * whenever a capability is added, and each change breaks every backend that calls it.
   *
   * @throws StoreArgumentException if {@code maxKeyBytes} or {@code maxValueBytes} is below 32
   * @deprecated use {@link #builder()}, which names each claim and gives the ones not named their
   *     defaults
   */
  @Deprecated
  public Capabilities {
    if (maxKeyBytes < 32 || maxValueBytes < 32) {
      throw new StoreArgumentException(
          "a backend must accept keys and values of at least 32 bytes (the format-3 layout needs them)");
    }
  }

  /**
   * The constructor of the release whose capabilities had an eighth flag, {@code
   * logDamageInjection}; kept so a backend that calls it still compiles. That flag was about the
   * backend's test fixture, not its engine, and is now the fixture's: the conformance suite's
   * {@code BackendFixture.logDamageInjection()}. The value given here is ignored: a fixture that
   * can damage its backend's log says so by overriding that method, or the log-damage cases are
   * reported unverified.
   *
   * @deprecated use {@link #builder()}, and override {@code BackendFixture.logDamageInjection()} in
   *     the backend's conformance fixture
   */
  @Deprecated
  public Capabilities(
      boolean concurrentWriters,
      boolean snapshots,
      boolean durableAfterProcessKill,
      boolean detectsDamage,
      boolean filesInDirectory,
      int maxKeyBytes,
      int maxValueBytes,
      boolean logDamageInjection) {
    this(
        concurrentWriters,
        snapshots,
        durableAfterProcessKill,
        detectsDamage,
        filesInDirectory,
        maxKeyBytes,
        maxValueBytes);
  }

  /** A builder with every claim at its default (see the class javadoc). */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these capabilities, to build a copy with some claims changed. */
  public Builder toBuilder() {
    return new Builder()
        .concurrentWriters(concurrentWriters)
        .snapshots(snapshots)
        .durableAfterProcessKill(durableAfterProcessKill)
        .detectsDamage(detectsDamage)
        .filesInDirectory(filesInDirectory)
        .maxKeyBytes(maxKeyBytes)
        .maxValueBytes(maxValueBytes);
  }

  /**
   * Capabilities, one named claim at a time; each setter documents its claim on the record's
   * component of the same name. Not thread-safe; {@link #build()} may be called more than once.
   */
  public static final class Builder {
    private boolean concurrentWriters;
    private boolean snapshots;
    private boolean durableAfterProcessKill;
    private boolean detectsDamage;
    private boolean filesInDirectory;
    private int maxKeyBytes = DEFAULT_MAX_KEY_BYTES;
    private int maxValueBytes = DEFAULT_MAX_VALUE_BYTES;

    private Builder() {}

    /** {@link Capabilities#concurrentWriters()}; default false. */
    public Builder concurrentWriters(boolean claimed) {
      this.concurrentWriters = claimed;
      return this;
    }

    /** {@link Capabilities#snapshots()}; default false. */
    public Builder snapshots(boolean claimed) {
      this.snapshots = claimed;
      return this;
    }

    /** {@link Capabilities#durableAfterProcessKill()}; default false. */
    public Builder durableAfterProcessKill(boolean claimed) {
      this.durableAfterProcessKill = claimed;
      return this;
    }

    /** {@link Capabilities#detectsDamage()}; default false. */
    public Builder detectsDamage(boolean claimed) {
      this.detectsDamage = claimed;
      return this;
    }

    /** {@link Capabilities#filesInDirectory()}; default false. */
    public Builder filesInDirectory(boolean claimed) {
      this.filesInDirectory = claimed;
      return this;
    }

    /** {@link Capabilities#maxKeyBytes()}; default {@value Capabilities#DEFAULT_MAX_KEY_BYTES}. */
    public Builder maxKeyBytes(int bytes) {
      this.maxKeyBytes = bytes;
      return this;
    }

    /**
     * {@link Capabilities#maxValueBytes()}; default {@value Capabilities#DEFAULT_MAX_VALUE_BYTES}.
     */
    public Builder maxValueBytes(int bytes) {
      this.maxValueBytes = bytes;
      return this;
    }

    /**
     * The capabilities claimed so far.
     *
     * @throws StoreArgumentException if the largest key or value is below 32 bytes
     */
    public Capabilities build() {
      return new Capabilities(
          concurrentWriters,
          snapshots,
          durableAfterProcessKill,
          detectsDamage,
          filesInDirectory,
          maxKeyBytes,
          maxValueBytes);
    }
  }
}
