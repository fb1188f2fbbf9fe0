package io.ankusa.store.rocksdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.HandleGate;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link Store}: one RocksDB database, one column family per {@link FamilySpec}.
 *
 * <p>Concurrency: every read, write, sync and scan chunk holds the shared side of a {@link
 * HandleGate} around the engine handle, so writes and reads run concurrently (RocksDB is
 * thread-safe; property {@code concurrentMergesLoseNoOperand}) and threads on different cores write
 * no common cache line to do so; {@link #reportWriteFailure} and {@link #close()} take the
 * exclusive side, so they never free the handle under a running call, and calls made meanwhile
 * wait.
 *
 * <p>Durability: {@link Durability#SYNC} writes with {@code sync=true} (the WAL is fsynced before
 * return); {@code NO_SYNC} writes are visible at once and durable after the next returned {@link
 * #syncWal()} (properties {@code syncWritesSurviveReopen}, {@code
 * noSyncWritesSurviveReopenAfterSyncWal}).
 *
 * <p>Ownership: arrays in a batch are read during {@link #write} only (RocksDB copies them into its
 * write batch); returned arrays are fresh copies.
 *
 * <p>Owns its {@link DirectoryClaim} (the directory lock) and releases it after the engine closes.
 * Opened read-only ({@link DirectoryClaim#readOnly()}), the engine is RocksDB's read-only instance
 * and the provider hands the store out behind {@link io.ankusa.store.kit.forwarding.ReadOnlyStore}.
 *
 * <p>After {@link #close()}, every read, write, sync, snapshot, scan and reportWriteFailure throws
 * {@link StoreClosedException} (property {@code everyCallAfterCloseThrows}); {@link #families()},
 * {@link #directory()} and {@link #capabilities()} describe the store and keep answering.
 */
public final class RocksDbStore extends RocksDbReadView implements Store {
  /**
   * What this backend promises, checked by {@code RocksDbEngineConformanceTest} and {@code
   * RocksDbDurabilityConformanceTest}. Damage detected: block checksums of SST files (every read
   * verifies them), and damage in the middle of the write-ahead log, which fails the open (a record
   * cut short at the log's very end, as a crash mid-append leaves it, is dropped: it was never
   * acknowledged as durable).
   */
  public static final Capabilities CAPABILITIES =
      Capabilities.builder()
          .concurrentWriters(true)
          .snapshots(true)
          .durableAfterProcessKill(true)
          .detectsDamage(true)
          .filesInDirectory(true)
          .maxKeyBytes(8192)
          .maxValueBytes(64 << 20)
          .build();

  private static final Logger LOG = LoggerFactory.getLogger(RocksDbStore.class);

  private final Path dir;
  private final DirectoryClaim claim;
  private final FamilyCatalog catalog;
  private final boolean createIfMissing;
  private final RocksDbSettings settings;
  private final HandleGate gate = new HandleGate();

  /** Scans of the live store and snapshots, open until closed or invalidated. */
  private final Set<OpenResource> open = ConcurrentHashMap.newKeySet();

  /** The open engine; null once closed. Written under the exclusive side of {@link #gate}. */
  private volatile RocksDbEngine engine;

  /**
   * Opens the engine in the claimed directory. REQUIRES: the caller closes {@code claim} if this
   * throws.
   */
  RocksDbStore(
      DirectoryClaim claim,
      FamilyCatalog catalog,
      boolean createIfMissing,
      RocksDbSettings settings) {
    this.dir = claim.directory();
    this.claim = claim;
    this.catalog = catalog;
    this.createIfMissing = createIfMissing && !claim.readOnly();
    this.settings = settings;
    this.engine =
        RocksDbEngine.open(dir, catalog.specs(), this.createIfMissing, claim.readOnly(), settings);
  }

  // ---- the read-view hooks: the live store reads the newest state -------------------------------

  @Override
  FamilyCatalog catalog() {
    return catalog;
  }

  @Override
  RocksDbEngine enter() {
    gate.enterShared();
    RocksDbEngine e = engine;
    if (e == null) {
      gate.exitShared();
      throw closed();
    }
    return e;
  }

  @Override
  void exit() {
    gate.exitShared();
  }

  @Override
  ReadOptions pointReads(RocksDbEngine e) {
    return e.liveRead;
  }

  @Override
  org.rocksdb.Snapshot frozenAt() {
    return null;
  }

  @Override
  Set<OpenResource> openScans() {
    return open;
  }

  @Override
  RocksDbStore store() {
    return this;
  }

  /**
   * The handle's gate: scans and snapshots hold its shared side while they free their native
   * objects.
   */
  HandleGate gate() {
    return gate;
  }

  void untrack(OpenResource resource) {
    open.remove(resource);
  }

  // ---- writes ----------------------------------------------------------------------------------

  /**
   * One RocksDB {@link WriteBatch} holding every op: put, delete, deleteRange (skipped when {@code
   * lo >= hi}: it removes nothing) and merge with the {@link Int64Add} operand, added in {@link
   * WriteOrder} (by family and key, the ops on one key in the batch's order, which applies them
   * with the same outcome as the batch's order and inserts them into the memtables faster); a batch
   * of one op goes straight to the engine's single-op call instead (see {@link #writeOne}). The
   * native batch is made in one call from the batch's bytes, encoded here in one Java array ({@link
   * BatchEncoding}), not filled by one JNI call per op; a batch too long for one array is filled op
   * by op ({@link #filled}). The batch is checked whole by the {@link FamilyCatalog} first, so a
   * bad op refuses it before anything is applied (property {@code badBatchIsRefusedWhole}).
   *
   * @throws StoreWriteFailedException or {@link io.ankusa.store.spi.StoreFullException} (RocksDB
   *     status NoSpace) naming the directory and the first op's family
   */
  @Override
  public void write(Batch batch, Durability durability) {
    RocksDbEngine e = enter();
    try {
      catalog.validate(batch, durability);
      List<Op> ops = batch.ops();
      if (ops.isEmpty()) {
        return;
      }
      // Writes are what move a family to a new version, so they free the idle iterators pinning an
      // old one.
      e.keptIterators.expire(System.nanoTime());
      WriteOptions options = durability == Durability.SYNC ? e.syncWrite : e.noSyncWrite;
      if (ops.size() == 1) {
        writeOne(e, options, ops.get(0));
        return;
      }
      int[] order = WriteOrder.of(ops);
      byte[] encoded = BatchEncoding.encode(ops, order, e::familyId, maxEncodedBytes);
      try (WriteBatch wb =
          encoded != null ? new WriteBatch(encoded) : filled(e::handle, ops, order)) {
        e.writes.begin();
        try {
          e.db.write(options, wb);
        } finally {
          e.writes.end();
        }
      } catch (RocksDBException ex) {
        throw RocksDbFailures.write(
            ex, dir, ops.get(0).family(), "write of " + ops.size() + " ops");
      }
    } finally {
      exit();
    }
  }

  /**
   * Whether a range delete removes nothing ({@code lo} not below {@code hi}): every write path
   * leaves such an op out rather than hand RocksDB an empty or inverted range.
   */
  static boolean removesNothing(Op.DeleteRange r) {
    return Bytes.compare(r.lo(), r.hi()) >= 0;
  }

  /**
   * Test seam: the longest batch encoding {@link #write} makes; a longer batch is filled op by op
   * ({@link #filled}). {@link BatchEncoding#MAX_BYTES} in production.
   */
  static volatile long maxEncodedBytes = BatchEncoding.MAX_BYTES;

  /**
   * A new native batch filled op by op, in {@code order} (null: the ops' own), each op's family
   * through {@code handles}: the path of a batch too long to encode in one Java array, and what
   * {@code BatchEncodingTest} holds the encoding to. The caller closes it.
   */
  static WriteBatch filled(Function<String, ColumnFamilyHandle> handles, List<Op> ops, int[] order)
      throws RocksDBException {
    WriteBatch wb = new WriteBatch();
    try {
      OpHandler<RocksDBException> fill =
          new OpHandler<>() {
            @Override
            public void put(Op.Put p) throws RocksDBException {
              wb.put(handles.apply(p.family()), p.key(), p.value());
            }

            @Override
            public void delete(Op.Delete d) throws RocksDBException {
              wb.delete(handles.apply(d.family()), d.key());
            }

            @Override
            public void deleteRange(Op.DeleteRange r) throws RocksDBException {
              if (!removesNothing(r)) {
                wb.deleteRange(handles.apply(r.family()), r.lo(), r.hi());
              }
            }

            @Override
            public void merge(Op.Merge m) throws RocksDBException {
              wb.merge(handles.apply(m.family()), m.key(), Int64Add.encode(m.delta()));
            }
          };
      for (int i = 0; i < ops.size(); i++) {
        ops.get(order == null ? i : order[i]).handle(fill);
      }
      return wb;
    } catch (RocksDBException | RuntimeException ex) {
      wb.close();
      throw ex;
    }
  }

  /**
   * The single-op fast path: the engine's own {@code put}/{@code delete}/{@code deleteRange}/{@code
   * merge} with the same write options, which RocksDB applies as a one-entry batch, atomically and
   * with the same durability; no native {@link WriteBatch} is created, filled and closed. Counted
   * on the engine's {@link WriteTally}, as the batch path's write is. REQUIRES: the op was
   * validated, the caller entered the engine.
   */
  private void writeOne(RocksDbEngine e, WriteOptions options, Op op) {
    e.writes.begin();
    try {
      op.handle(
          new OpHandler<RocksDBException>() {
            @Override
            public void put(Op.Put p) throws RocksDBException {
              e.db.put(e.handle(p.family()), options, p.key(), p.value());
            }

            @Override
            public void delete(Op.Delete d) throws RocksDBException {
              e.db.delete(e.handle(d.family()), options, d.key());
            }

            @Override
            public void deleteRange(Op.DeleteRange r) throws RocksDBException {
              if (!removesNothing(r)) {
                e.db.deleteRange(e.handle(r.family()), options, r.lo(), r.hi());
              }
            }

            @Override
            public void merge(Op.Merge m) throws RocksDBException {
              e.db.merge(e.handle(m.family()), options, m.key(), Int64Add.encode(m.delta()));
            }
          });
    } catch (RocksDBException ex) {
      throw RocksDbFailures.write(ex, dir, op.family(), "write of 1 op");
    } finally {
      e.writes.end();
    }
  }

  /** {@code db.syncWal()}: every write that returned before this call is durable on return. */
  @Override
  public void syncWal() {
    RocksDbEngine e = enter();
    try {
      e.db.syncWal();
    } catch (RocksDBException ex) {
      throw RocksDbFailures.write(ex, dir, null, "WAL sync");
    } finally {
      exit();
    }
  }

  /**
   * Flushes every family's memtable to an SST file and waits for it; with {@code compact}, then
   * compacts each family's whole range (operands and tombstones meet the data they cover). What the
   * engine does on its own when a write buffer fills or levels grow; the conformance fixture calls
   * it between batches and across a held snapshot (property {@code
   * snapshotHeldAcrossCommitsAndFlushes}), so the suite checks reads across flushed data (not part
   * of {@link Store}).
   *
   * @throws StoreClosedException after close
   * @throws StoreWriteFailedException when RocksDB fails to flush or compact
   */
  void flush(boolean compact) {
    RocksDbEngine e = enter();
    try (org.rocksdb.FlushOptions fo = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      for (var h : e.handles.values()) {
        e.db.flush(fo, h);
        if (compact) {
          e.db.compactRange(h);
        }
      }
    } catch (RocksDBException ex) {
      throw RocksDbFailures.write(ex, dir, null, compact ? "compaction" : "flush");
    } finally {
      exit();
    }
  }

  /**
   * Flushes {@code family}'s memtable alone to an SST file and waits for it: what the engine does
   * on its own when that family's write buffer fills. The conformance fixture calls it to leave one
   * family's files ahead of the others' before it cuts the write-ahead log (property {@code
   * cutLogNeverSplitsABatchAcrossFamilies}; not part of {@link Store}). REQUIRES: {@code family} is
   * one this store was opened with.
   *
   * @throws StoreClosedException after close
   * @throws StoreWriteFailedException when RocksDB fails to flush
   */
  void flushFamily(String family) {
    RocksDbEngine e = enter();
    try (org.rocksdb.FlushOptions fo = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      catalog.require(family);
      e.db.flush(fo, e.handle(family));
    } catch (RocksDBException ex) {
      throw RocksDbFailures.write(ex, dir, family, "flush");
    } finally {
      exit();
    }
  }

  @Override
  public Snapshot snapshot() {
    RocksDbEngine e = enter();
    try {
      RocksDbSnapshot s = new RocksDbSnapshot(this, e);
      open.add(s);
      return s;
    } finally {
      exit();
    }
  }

  /**
   * Closes every open scan and snapshot (later use throws {@link StoreClosedException} saying why),
   * closes the engine and opens it again with the same families, dropping whatever RocksDB had not
   * persisted. Calls made meanwhile wait. Logged at WARN with the cause.
   *
   * @throws StoreWriteFailedException if the reopen fails; the store is then closed
   */
  @Override
  public void reportWriteFailure(Throwable cause) {
    refuseInsideAVisit("reportWriteFailure");
    gate.lockExclusive();
    try {
      if (engine == null) {
        throw closed();
      }
      FamilyCatalog.checkCause(cause);
      LOG.warn(
          "RocksDB store {}: write failure reported, closing open scans and snapshots and reopening",
          dir,
          cause);
      invalidateAll(
          "closed because RocksDB store "
              + dir
              + " was reopened after a write failure ("
              + cause
              + "); open a new one");
      engine.close();
      engine = null;
      try {
        engine =
            RocksDbEngine.open(dir, catalog.specs(), createIfMissing, claim.readOnly(), settings);
      } catch (StoreException e) {
        claim.close();
        throw new StoreWriteFailedException(
            "RocksDB store "
                + dir
                + " could not be reopened after a write failure ("
                + e.getMessage()
                + "); the store is closed: fix the cause (disk, permissions) and open it again",
            e);
      }
    } finally {
      gate.unlockExclusive();
    }
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public List<FamilySpec> families() {
    return catalog.specs();
  }

  /**
   * {@inheritDoc} Here: {@code memtableBytes}, {@code memtableDeletes}, {@code level0Files}, {@code
   * compactionDebtBytes}, and with {@code rocksdb.statistics=1} also {@code iteratorSeeks}, {@code
   * iteratorSteps}, {@code iteratorKeysSkipped} (internal keys an iterator stepped over: deletions
   * and overwritten versions), {@code compactionReadBytes} and {@code compactionWriteBytes},
   * running totals since the open (see {@link RocksDbEngine#statistics()}).
   */
  @Override
  public Map<String, Long> engineStatistics() {
    RocksDbEngine e;
    try {
      e = enter();
    } catch (StoreClosedException closed) {
      return Map.of();
    }
    try {
      return e.statistics();
    } finally {
      exit();
    }
  }

  @Override
  public Path directory() {
    return dir;
  }

  /** Closes open scans and snapshots, then every native object of the engine. Idempotent. */
  @Override
  public void close() {
    refuseInsideAVisit("close");
    gate.lockExclusive();
    try {
      if (engine == null) {
        return;
      }
      invalidateAll("closed because RocksDB store " + dir + " was closed; open the store again");
      engine.close();
      engine = null;
      claim.close();
    } finally {
      gate.unlockExclusive();
    }
  }

  /**
   * A visitor runs holding the shared side of the gate (see {@link RocksDbReadView#visit}); taking
   * the exclusive side from inside it would wait for itself forever, so it is refused.
   */
  private void refuseInsideAVisit(String call) {
    if (gate.heldByCurrentThread()) {
      throw new StoreArgumentException(
          call
              + " of RocksDB store "
              + dir
              + " called from inside a visit of it (or of one of its snapshots),"
              + " which holds the store open; nothing was done: call it after the visit returns");
    }
  }

  private void invalidateAll(String reason) {
    for (OpenResource r : List.copyOf(open)) {
      r.invalidate(reason);
    }
    open.clear();
  }

  private StoreClosedException closed() {
    return new StoreClosedException("RocksDB store " + dir + " is closed; open it again");
  }

  @Override
  public String toString() {
    return "RocksDbStore["
        + dir
        + ", "
        + catalog.specs().stream().map(FamilySpec::name).toList()
        + "]";
  }
}
