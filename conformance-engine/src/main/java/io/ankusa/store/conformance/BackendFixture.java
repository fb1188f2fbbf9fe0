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
 * directory, what the backend claims, and hooks with defaults that fit most backends: a way to
 * damage a closed store's data files (by default {@link StoreFileDamage}), to force the engine to
 * move what it holds in memory into its files ({@link #flush}, one family alone: {@link
 * #flushFamily}), to damage its write-ahead log or cut it short ({@link #logDamageInjection},
 * {@link #damageLog}, {@link #logCuts}) and to forget a store. A backend's test class returns one
 * of these from each layer's abstract suite; that is the whole integration.
 *
 * <p>REQUIRES: a no-arg constructor (of any visibility) and a named class, not an anonymous one or
 * an inner class of a test, when the durability or migration layer runs against the fixture: their
 * child JVMs create the fixture again by its class name and open every store through its {@link
 * #open} with its {@link #options()} (conformance-tests' {@code ChildJvm}). The launcher's {@code
 * --fixture} creates it the same way.
 */
public interface BackendFixture {

  /** The provider under test. */
  StoreProvider provider();

  /**
   * Options for every store the suite opens, in the test JVM and in its child JVMs; override to
   * tune a backend for tests.
   */
  default StoreOptions options() {
    return StoreOptions.defaults();
  }

  /**
   * Opens the store in {@code dir}, creating it when missing; called again on the same dir to
   * reopen.
   */
  default Store open(Path dir, List<FamilySpec> families) {
    return open(dir, families, options());
  }

  /**
   * Opens the store in {@code dir} with {@code options} (one of {@link #optionSets()}); a fixture
   * that overrides {@link #open(Path, List)} and offers more than its default set overrides this
   * too.
   */
  default Store open(Path dir, List<FamilySpec> families, StoreOptions options) {
    return provider().open(dir, options, families);
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
   * the keys written to it meets corruption (property {@code scanNeverEndsEarlyOnCorruption}). The
   * suite calls it for every backend, whatever it claims: an engine that claims {@link
   * Capabilities#detectsDamage()} must then report the damage; for one that does not, the suite
   * reports what it did with it as unverified. The suite wrote enough data before calling this for
   * the backend to have persisted it to data files (a backend may also compact or flush here,
   * before damaging them).
   *
   * <p>Default: when the store lives in files ({@link Capabilities#filesInDirectory()}), {@link
   * StoreFileDamage#invertBytes} in the largest file under {@code dir}, from {@link
   * StoreFileDamage#seed()}. Override it with damage aimed at what the engine detects (a data
   * block, a stored value) when random bytes could hit structures the engine does not check, or
   * when the data lives elsewhere.
   *
   * @throws UnsupportedOperationException when this fixture cannot damage the store's data (it
   *     keeps no files, or they live on a server); the message says why, and the suite prints it as
   *     the reason the promise is unverified
   */
  default void corrupt(Path dir, List<FamilySpec> families, String family) {
    if (!capabilities().filesInDirectory()) {
      throw new UnsupportedOperationException(
          name() + " keeps no files under its store directory, so there is" + " nothing to damage");
    }
    StoreFileDamage.invertBytes(dir, StoreFileDamage.seed());
  }

  /**
   * Opens the store in {@code dir} as {@link #open} does but without the backend's open-time
   * integrity check, so that damage {@link #corrupt} did is met by reads (property {@code
   * scanNeverEndsEarlyOnCorruption}, after the checked open refused the store). Default: cannot.
   *
   * @throws UnsupportedOperationException when the backend has no such open; the message says why
   */
  default Store openWithoutOpenTimeCheck(Path dir, List<FamilySpec> families) {
    throw new UnsupportedOperationException(
        name() + "'s fixture cannot open a store without its open-time check");
  }

  /**
   * Damages the files of {@code store}, open on {@code dir} and just {@link #flush flushed}, so
   * that reading {@code family} meets the damage while the store stays open (property {@code
   * scanNeverEndsEarlyOnCorruption}, when the open refuses a damaged store). Default: cannot.
   *
   * @throws UnsupportedOperationException when this fixture cannot damage an open store; the
   *     message says why
   */
  default void corruptOpen(Store store, Path dir, List<FamilySpec> families, String family) {
    throw new UnsupportedOperationException(name() + "'s fixture cannot damage an open store");
  }

  /**
   * Makes the engine move what it holds in memory into its files (a memtable flush, a checkpoint),
   * so a case can check that its promises hold across that move (property {@code
   * snapshotHeldAcrossCommitsAndFlushes}; the model property also calls it between batches, {@link
   * Perturbation#FLUSH}, so merges and range deletes are checked over flushed data). Called on an
   * open store this fixture opened, from the thread of the case. Default: nothing, for engines that
   * write their files on every commit (or keep none).
   */
  default void flush(Store store) {}

  /**
   * Whether this fixture can damage its backend's write-ahead log in the middle ({@link
   * #damageLog}) and cut it short ({@link #logCuts}, {@link #copyWithLogCut}), so the durability
   * layer can check that the damage is reported and never recovered as a silently shorter history
   * (property {@code midLogDamageIsReportedNeverSilentlyDropped}), nor as batches split across
   * families (property {@code cutLogNeverSplitsABatchAcrossFamilies}). A claim about this fixture,
   * not the engine: whether the engine keeps a log is the backend's business; when this is false
   * both cases are reported unverified, saying the fixture offers no log damage. Default: false.
   */
  default boolean logDamageInjection() {
    return false;
  }

  /**
   * Damages the write-ahead log of the closed store in {@code dir} in its middle — not at its end,
   * where a record cut short by a crash is expected — the way a bad disk block would: typically one
   * flipped bit in a record half-way through the log. Called only when {@link
   * #logDamageInjection()} is true. The suite wrote and acknowledged its batches with {@code SYNC}
   * and closed the store; nothing was flushed out of the log on purpose.
   */
  default void damageLog(Path dir) {
    throw new UnsupportedOperationException(
        provider().name() + " does not damage a write-ahead log");
  }

  /**
   * Makes the engine move what it holds in memory for {@code family} alone into its files, leaving
   * the other families' writes in memory and in the log — what an engine with a write buffer per
   * family does when one fills — so the durability layer can cut the log behind a family whose
   * files are ahead of the others' (property {@code cutLogNeverSplitsABatchAcrossFamilies}). Called
   * on an open store this fixture opened. Default: {@link #flush(Store)}, for engines that flush
   * every family together (or write their files on every commit).
   */
  default void flushFamily(Store store, String family) {
    flush(store);
  }

  /**
   * The places where the write-ahead log of the closed store in {@code dir} can be cut short, in
   * log order: the start of every record and a point inside every record, in every log file the
   * store keeps (property {@code cutLogNeverSplitsABatchAcrossFamilies}). Called only when {@link
   * #logDamageInjection()} is true.
   *
   * @throws UnsupportedOperationException when this fixture cannot cut its backend's log; the
   *     message says why, and the suite prints it as the reason the promise is unverified
   */
  default List<LogCut> logCuts(Path dir) {
    throw new UnsupportedOperationException(name() + "'s fixture does not cut its write-ahead log");
  }

  /**
   * Makes {@code copy}, a directory that does not exist yet, a copy of the closed store in {@code
   * dir} with its log cut at {@code cut} (one of {@link #logCuts}), leaving {@code dir} as it was.
   * The suite then opens the copy through {@link #open}, closes it and {@link #discard}s it.
   *
   * @throws UnsupportedOperationException when this fixture cannot cut its backend's log
   */
  default void copyWithLogCut(Path dir, Path copy, LogCut cut) {
    throw new UnsupportedOperationException(name() + "'s fixture does not cut its write-ahead log");
  }

  /**
   * Forgets whatever the backend keeps about the closed store in {@code dir} outside of {@code dir}
   * itself (the memory backend keeps its data in the JVM under the directory's name). Called by the
   * suite after the store is closed, before it deletes {@code dir}. Default: nothing to forget.
   */
  default void discard(Path dir) {}

  // ---------------------------------------------------------------- crash simulation

  /**
   * Whether {@link #crash} can simulate, in this JVM, what a kill of the process leaves of an open
   * store. When true the engine layer's reopen properties crash the store with it before reopening;
   * when false they close it and reopen, and the crash case ({@code
   * crashKeepsAcknowledgedWritesAndWholeBatches}) writes in a child process and kills it instead
   * (which needs {@link Capabilities#durableAfterProcessKill()}). Default: false.
   */
  default boolean simulatesCrash() {
    return false;
  }

  /**
   * Abandons {@code store}, open on a directory this fixture opened it on, the way a kill of the
   * process would: nothing a clean close does may happen (no commit, no flush of buffers, no final
   * sync). Afterwards {@link #open} of the same directory must work and must find what the
   * backend's engine would find after a process kill: every {@code SYNC} write and every write
   * covered by a returned {@code syncWal()}, and of any other write either all of its batch or none
   * of it. A backend whose state lives in the JVM forgets what it had not synced; an engine that
   * can be dropped without closing its files (and release its locks) drops it. Called only when
   * {@link #simulatesCrash()} is true.
   */
  default void crash(Store store) {
    throw new UnsupportedOperationException(provider().name() + " does not simulate a crash");
  }

  /**
   * The stores of the power-cut case ({@code acknowledgedBatchesSurvivePowerCuts}): a target whose
   * fixture keeps every file of the stores it opens below {@code root}, a directory on the
   * power-cut file system ({@link PowerCutFileSystem}). Default: this fixture, for a backend whose
   * store lives in files under the store directory it is given (an embedded engine). A backend
   * whose data lives elsewhere (a server's data directory) returns a target that runs that server
   * with its data below {@code root}; one that cannot throws {@link UnsupportedOperationException}
   * saying why, and the case ends unverified with that reason.
   */
  default PowerCutTarget powerCutTarget(java.nio.file.Path root) {
    return () -> this;
  }

  // ---------------------------------------------------------------- injected faults

  /**
   * Wraps {@code store}, just opened by this fixture, in the {@link FaultInjectingStore} through
   * which the suite fails a write and a sync and then calls {@code reportWriteFailure} (property
   * {@code reportWriteFailureRecoversFromInjectedFaults}). Default: the failure is thrown before
   * the call reaches the engine, so what is checked is the recovery {@code reportWriteFailure}
   * makes on every backend; a fixture whose engine can be made to fail inside (and be left failed
   * until {@code reportWriteFailure} recovers it) returns a subclass that fails there.
   */
  default FaultInjectingStore injectFaults(Store store) {
    return new FaultInjectingStore(store);
  }

  // ---- option matrices and perturbation
  // -----------------------------------------------------------

  /**
   * The option sets the model property ({@code modelBasedRandomBatches}) and the transition layer's
   * concurrent case run under, the first being {@value NamedOptions#DEFAULT} ({@link #options()}).
   * A backend offers sets that change how its engine stores data (merge operands folded or not, a
   * tiny write buffer, a small starting map) so those paths meet the same checks; the set's name is
   * in every failure and in the op log. Default: the default set only.
   */
  default List<NamedOptions> optionSets() {
    return List.of(new NamedOptions(NamedOptions.DEFAULT, options()));
  }

  /**
   * This fixture with every store opened under {@code set}: itself for the default set, else a
   * fixture named {@code NAME[SET]} that opens through {@link #open(Path, List, StoreOptions)}.
   */
  default BackendFixture withOptions(NamedOptions set) {
    return set.isDefault() ? this : new OptionSetFixture(this, set);
  }

  /**
   * Flushes and compacts {@code store} (opened by this fixture) as the engine would in the
   * background: operands and tombstones meet the data they cover in one file ({@link
   * Perturbation#COMPACT}). Default: {@link #flush(Store)}.
   */
  default void compact(Store store) {
    flush(store);
  }

  /** The backend's name as the suite prints it in skip reasons and messages. */
  default String name() {
    return provider().name();
  }
}
