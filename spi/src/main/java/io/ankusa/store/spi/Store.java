package io.ankusa.store.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * An open storage engine: ordered families of byte keys, atomic batches, an int64-add merge, a WAL
 * that can be synced apart from writes, and snapshots. See the package documentation for the model.
 *
 * <p>Thread safety: every method may be called from any thread. Writes from several threads are
 * allowed when {@link Capabilities#concurrentWriters()} says so (property {@code
 * concurrentMergesLoseNoOperand}).
 */
public interface Store extends ReadView, AutoCloseable {

  /**
   * Applies {@code batch} atomically and in order (properties {@code batchOpsApplyInOrder}, {@code
   * batchIsAtomicToConcurrentReaders}, {@code modelBasedRandomBatches}; a batch of one op, {@code
   * aBatchOfOneOpAppliesLikeAnyOther}), and nothing but {@code batch}: no op of an earlier write is
   * applied again (property {@code consecutiveWritesApplyOnlyTheirOwnOps}). On return the batch is
   * visible to every later read, and durable as {@code durability} says — at once, not at close;
   * and a crash leaves the whole batch or none of it, however large (property {@code
   * crashKeepsAcknowledgedWritesAndWholeBatches}); so does a write-ahead log cut short, in every
   * family, or the reopen refuses the store with {@link StoreCorruptionException} (property {@code
   * cutLogNeverSplitsABatchAcrossFamilies}); for a {@code SYNC} write, durable means on disk: it
   * survives a power cut, which loses whatever the OS held unsynced (property {@code
   * acknowledgedBatchesSurvivePowerCuts}).
   *
   * <p>REQUIRES: every op names a family of this store; keys are non-empty and within {@link
   * Capabilities#maxKeyBytes()}; values within {@link Capabilities#maxValueBytes()}, which itself
   * is accepted (property {@code valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused}); merges target
   * counters families; puts into a counters family carry 8-byte values; deleteRange has {@code lo
   * <= hi}. A batch that breaks one is refused whole with {@link StoreArgumentException} and
   * nothing of it is applied (property {@code badBatchIsRefusedWhole}). An empty batch is a no-op.
   *
   * @throws StoreWriteFailedException when the engine failed to write; the batch may or may not be
   *     applied: call {@link #reportWriteFailure} and treat it as not acknowledged
   * @throws StoreFullException when there is no room; the batch was not applied
   */
  void write(Batch batch, Durability durability);

  /**
   * Makes every batch whose {@code write} returned before this call durable when it returns, not at
   * close (properties {@code noSyncWritesSurviveReopenAfterSyncWal}, {@code
   * crashKeepsAcknowledgedWritesAndWholeBatches}, and for process kills and power cuts the
   * durability layer, {@code acknowledgedBatchesSurvivePowerCuts}). May run concurrently with
   * writes; writes made during the call may or may not be covered.
   *
   * @throws StoreWriteFailedException when the sync failed; nothing written since the last good
   *     sync may be assumed durable
   */
  void syncWal();

  /**
   * A frozen view of the current state, held as long as it is open, across any number of later
   * commits and whatever the engine moves from memory to its files meanwhile (properties {@code
   * snapshotDoesNotSeeLaterWrites}, {@code snapshotHeldAcrossCommitsAndFlushes}).
   */
  Snapshot snapshot();

  /**
   * Tells the backend that a write or sync failed so it can recover: the RocksDB backend reopens
   * its engine, dropping unsynced writes the engine had not persisted. Open scans and snapshots are
   * closed by it, on every backend (property {@code reportWriteFailureClosesScansAndSnapshots}).
   * Afterwards the store holds every acknowledged write, the batch whose write failed wholly or not
   * at all, and writes again (property {@code reportWriteFailureRecoversFromInjectedFaults}); also
   * when part of that batch had reached the engine before it failed (property {@code
   * reportWriteFailureDiscardsAWriteHalfInTheEngine}). Calls made concurrently block until the
   * reopen ends, then proceed (property {@code otherThreadsProceedAfterReportWriteFailureAndClose},
   * which also checks that another thread is told the store is closed after {@link #close()}). If
   * the reopen fails, the store is closed and the cause is thrown as {@link
   * StoreWriteFailedException}. A read-only store refuses it with {@link StoreArgumentException}.
   */
  void reportWriteFailure(Throwable cause);

  /** What this backend promises; see {@link Capabilities}. */
  Capabilities capabilities();

  /**
   * The engine's own figures, for diagnostics only (benches, {@code inspect}): each a name the
   * backend documents and its value at the call, such as the bytes in memtables, the compaction
   * debt, or keys a scan stepped over. Nothing in the queue or the suite depends on them; no figure
   * is promised, and the default has none. Cheap enough to call once a second beside the queue's
   * work; may be called after {@link #close()}, when it answers with no figures.
   */
  default Map<String, Long> engineStatistics() {
    return Map.of();
  }

  /** The families the store was opened with, in the order given. */
  List<FamilySpec> families();

  /**
   * The directory the store lives in: the one it was opened on (property {@code
   * directoryIsTheOneOpened}).
   */
  Path directory();

  /**
   * Closes the store and every scan and snapshot still open on it, freeing native resources; no
   * implicit sync beyond what the engine does on a clean close. Idempotent. Afterwards every call
   * that touches the engine throws {@link StoreClosedException} (property {@code
   * everyCallAfterCloseThrows}), also one whose arguments would be refused (property {@code
   * aClosedStoreSaysSoBeforeJudgingArguments}) and scans left open after {@code NO_SYNC} writes no
   * sync covered, and the engine is let go so the directory can be opened again (property {@code
   * closeAfterNoSyncWritesClosesOpenScans}); the descriptive {@link #capabilities()}, {@link
   * #families()} and {@link #directory()} keep answering, so a tool can still say what it had open
   * (property {@code descriptiveGettersAnswerAfterClose}). A store closed cleanly opens again with
   * everything it held, whatever space its batches allocated and freed again (property {@code
   * batchesThatFreeWhatTheyWroteReopenWhole}).
   */
  @Override
  void close();
}
