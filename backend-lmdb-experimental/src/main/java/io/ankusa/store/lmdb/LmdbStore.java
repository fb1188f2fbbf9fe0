package io.ankusa.store.lmdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.HandleGate;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFullException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbNativeException;
import org.lmdbjava.Txn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Store} on one LMDB environment: each family is a named database (DBI), keys in LMDB's
 * default order ({@code memcmp}, i.e. unsigned bytes — property {@code
 * keysCompareAsUnsignedBytes}).
 *
 * <h2>Writes</h2>
 *
 * <p>One write transaction per batch, ops applied in order inside it, committed once: atomic to
 * readers, who see the old or the new state (properties {@code batchOpsApplyInOrder}, {@code
 * batchIsAtomicToConcurrentReaders}). A merge is a read-modify-write of the 8-byte little-endian
 * value ({@link Int64Add}) inside that transaction; LMDB has one writer at a time, so no operand is
 * lost (property {@code concurrentMergesLoseNoOperand}). A deleteRange walks a cursor over {@code
 * [lo, hi)}. Writers take a lock in this class before LMDB's own writer mutex, so concurrent
 * callers wait in Java rather than inside the native library, and a writer that must grow the map
 * does so while no other writer can begin a transaction. The lock is not fair, as LMDB's mutex is
 * not: a writer that finds it free takes it, where a fair lock would hand it to a parked writer and
 * leave it idle until that one woke up (the fair lock showed in the mixed read-mostly bench against
 * raw lmdbjava; see docs/measurements/spi-overhead.md).
 *
 * <h2>Durability — what survives what</h2>
 *
 * <p>The environment runs with {@code MDB_NOSYNC}: a commit writes the transaction's pages and the
 * new meta page into the data file through the OS page cache, without fsync. Hence:
 *
 * <ul>
 *   <li><b>Process kill</b> (kill -9, crash of the JVM): every committed batch survives, {@code
 *       SYNC} or {@code NO_SYNC}, because the kernel holds the pages and writes them back whatever
 *       happens to the process. {@link Capabilities#durableAfterProcessKill()} is claimed.
 *   <li><b>Power loss or OS crash</b>: only what was synced survives — a {@link Durability#SYNC}
 *       write (commit, then {@code env.sync(true)}, i.e. fdatasync, before returning) or anything
 *       committed before a returned {@link #syncWal()}. Batches committed after the last sync are
 *       lost, and LMDB documents that with {@code MDB_NOSYNC} a system crash can also damage the
 *       database if the filesystem does not keep write order. This backend is experimental: do not
 *       rely on it for power-loss safety; keep backups.
 * </ul>
 *
 * <h2>Map size</h2>
 *
 * <p>The map starts at {@code lmdb.mapSizeBytes} and doubles when a write finds it full ({@code
 * MDB_MAP_FULL}): the write transaction is aborted, the map grown, the batch retried, up to {@code
 * lmdb.mapSizeMaxBytes}; past that the write fails with {@link StoreFullException} and nothing of
 * the batch is applied. LMDB forbids remapping while any transaction of the process is active, so
 * growth (1) blocks new scans and snapshots and waits up to {@code lmdb.mapGrowWaitMillis} for the
 * open ones to close, (2) takes this store's exclusive lock, which waits for in-flight point reads
 * and keeps new ones out, (3) calls {@code mdb_env_set_mapsize}. If scans or snapshots stay open
 * past the wait, the write fails with {@link StoreWriteFailedException} (nothing applied); {@link
 * #reportWriteFailure} closes them, and a retry then grows the map. A scan that has reached the end
 * of its range has already given its transaction back. Pitfall: a thread that holds a scan or
 * snapshot open while it writes a batch that needs more map waits out the whole {@code
 * lmdb.mapGrowWaitMillis} and fails; keep scans and snapshots short-lived, or start with a map
 * large enough (the map is only address space until pages are written).
 *
 * <h2>Locking</h2>
 *
 * <p>{@code envGate} (the backend kit's {@link HandleGate}, a read-write gate whose readers on
 * different cores write no common cache line): every use of the environment holds its shared side —
 * point reads for their transaction, each chunk a scan reads, each snapshot read, the write
 * transaction, syncs; its exclusive side is taken to remap, reopen and close. Order: a scan's or
 * snapshot's monitor, then {@code envGate}. Long-lived read transactions are counted by {@link
 * LongLivedReaders}.
 *
 * <p>Thread-safe. {@link #close()} closes open scans and snapshots, every DBI and the environment,
 * and releases the directory claim (the kit's lock); idempotent; afterwards every call that touches
 * the environment throws {@link StoreClosedException} (property {@code everyCallAfterCloseThrows}),
 * while {@link #capabilities()}, {@link #families()} and {@link #directory()} keep answering
 * (property {@code descriptiveGettersAnswerAfterClose}).
 */
final class LmdbStore extends LmdbReadView implements Store {
  /**
   * What this backend claims. Keys up to LMDB's compiled-in maximum of 511 bytes; values up to 16
   * MiB (LMDB's own limit is far higher; values that large belong in another store).
   *
   * <p>{@code detectsDamage} is claimed for what this backend detects, and only that:
   *
   * <ul>
   *   <li>at open, before LMDB maps {@code data.mdb}, {@link DataFileCheck} reads the meta page
   *       LMDB will use and walks every page of every tree it reaches: a file cut short before one
   *       of those pages, and any page, node, key order, node flag, overflow page or free list
   *       record LMDB never writes, is refused, so damage in the file when it is opened cannot make
   *       LMDB read outside the file or its map or fail one of its assertions (no SIGBUS, SIGSEGV
   *       or abort);
   *   <li>in a store with checksums (the default for new stores, {@code lmdb.checksums}), a flipped
   *       or zeroed byte in a stored key or value is reported by the read that meets it ({@link
   *       ValueChecksums});
   *   <li>structural damage LMDB's own bounds checks see while the store is open ({@code
   *       MDB_PAGE_NOTFOUND}, {@code MDB_CORRUPTED}) is reported, never read as a clean end of a
   *       scan.
   * </ul>
   *
   * <p>Not detected, or not prevented: damage done while the store is open (the file changed or cut
   * by another program or a failing disk after the check; LMDB reads it unchecked and may still
   * crash the process on it); bytes that are wrong but well-formed — a value, or a key changed
   * without breaking the key order — in a store without checksums, which read back as data; counts
   * LMDB keeps only for statistics; pages no tree reaches. After a power loss under {@code
   * MDB_NOSYNC} a meta page may reach pages whose writes were lost: refused when what they hold is
   * malformed, read as stale data when it is well-formed. The conformance fixture damages values
   * (checksums); the module's tests damage every structure the check reads. Keep backups.
   */
  static final Capabilities CAPABILITIES =
      Capabilities.builder()
          .concurrentWriters(true)
          .snapshots(true)
          .durableAfterProcessKill(true)
          .detectsDamage(true)
          .filesInDirectory(true)
          .maxKeyBytes(511)
          .maxValueBytes(16 << 20)
          .build();

  private static final Logger LOG = LoggerFactory.getLogger(LmdbStore.class);
  private static final int ENOSPC = 28;

  private final Path dir;

  /** "lmdb store DIR", named in messages. */
  private final String description;

  private final LmdbSettings settings;
  private final DirectoryClaim claim;
  private final LongLivedReaders readers;
  private final HandleGate envGate = new HandleGate();
  private final ReentrantLock writerLock = new ReentrantLock();
  private final AtomicBoolean closeStarted = new AtomicBoolean();

  /** Replaced by a reopen; guarded by {@link #envGate}. */
  private LmdbEnvironment environment;

  /** Current map size; written under the exclusive side of {@link #envGate}. */
  private volatile long mapSize;

  private volatile boolean closed;

  /**
   * The environment's current life; ended (and, on a reopen, replaced) under {@link #writerLock}.
   */
  private volatile EnvironmentEpoch epoch = new EnvironmentEpoch();

  private LmdbStore(
      DirectoryClaim claim,
      LmdbSettings settings,
      FamilyCatalog catalog,
      LmdbEnvironment environment) {
    super(catalog);
    this.dir = claim.directory();
    this.description = "lmdb store " + dir;
    this.settings = settings;
    this.claim = claim;
    this.environment = environment;
    this.mapSize = environment.mapSize();
    this.readers = new LongLivedReaders(describe());
  }

  /**
   * Opens the store in the claimed directory; read-only when the claim is. REQUIRES: the directory
   * holds a store, or {@code create}; the caller closes {@code claim} if this throws, and otherwise
   * the store owns it.
   */
  static LmdbStore open(
      DirectoryClaim claim, LmdbSettings settings, FamilyCatalog catalog, boolean create) {
    LmdbEnvironment env =
        LmdbEnvironment.open(
            claim.directory(),
            settings,
            catalog,
            settings.mapSizeBytes(),
            create,
            claim.readOnly());
    if (env.env().getMaxKeySize() < CAPABILITIES.maxKeyBytes()) {
      env.close();
      throw new StoreException(
          "the bundled LMDB library accepts keys of at most "
              + env.env().getMaxKeySize()
              + " bytes, below the "
              + CAPABILITIES.maxKeyBytes()
              + " this backend promises");
    }
    if (!claim.readOnly()) {
      claim.syncDirectory(); // LMDB creates data.mdb and lock.mdb but never syncs their directory
      // entries
    }
    return new LmdbStore(claim, settings, catalog, env);
  }

  // ---------------------------------------------------------------- writes

  /**
   * Applies {@code batch} in one LMDB write transaction, growing the map and retrying when it is
   * full. {@code SYNC}: fdatasync of the data file after the commit, before returning. The batch's
   * arrays are copied into native memory during the call and not retained.
   *
   * @throws StoreFullException when the map is at {@code lmdb.mapSizeMaxBytes}, the batch is too
   *     large for one transaction, or the disk is full; the batch was not applied
   * @throws StoreWriteFailedException when LMDB failed to write or sync, or the map could not grow
   *     because scans or snapshots stayed open; call {@link #reportWriteFailure}
   */
  @Override
  public void write(Batch batch, Durability durability) {
    checkOpen();
    catalog.validate(batch, durability);
    if (batch.isEmpty()) {
      return;
    }
    writerLock.lock();
    try {
      while (true) {
        boolean committed;
        envGate.enterShared();
        try {
          checkOpen();
          committed = commitOnce(environment, batch);
          if (committed && durability == Durability.SYNC) {
            sync("after a SYNC write of " + batch.size() + " ops");
          }
        } finally {
          envGate.exitShared();
        }
        if (committed) {
          return;
        }
        grow(batch);
      }
    } finally {
      writerLock.unlock();
    }
  }

  /** One attempt: true when committed, false when the map is full (the transaction was aborted). */
  private boolean commitOnce(LmdbEnvironment env, Batch batch) {
    Txn<MapBytes> txn;
    try {
      txn = env.env().txnWrite();
    } catch (RuntimeException e) {
      throw writeFailed(batch, e);
    }
    try {
      batch.forEach(applier(env, txn));
      txn.commit();
      return true;
    } catch (Env.MapFullException e) {
      return false;
    } catch (Txn.TxFullException e) {
      throw new StoreFullException(
          "batch of "
              + batch.size()
              + " ops (~"
              + batch.approximateBytes()
              + " bytes, first op on family '"
              + batch.ops().get(0).family()
              + "') is too large for one LMDB transaction in "
              + dir
              + ": nothing was applied; split it into smaller batches",
          e);
    } catch (StoreException e) {
      throw e;
    } catch (LmdbNativeException e) {
      if (e.getResultCode() == ENOSPC) {
        throw new StoreFullException(
            "the disk holding "
                + dir
                + " is full: the batch of "
                + batch.size()
                + " ops was not applied;"
                + " free space and retry",
            e);
      }
      throw writeFailed(batch, e);
    } catch (RuntimeException e) {
      throw writeFailed(batch, e);
    } finally {
      txn.close(); // aborts unless committed
    }
  }

  /** The write transaction's handler: each op on its DBI, values sealed with their checksum. */
  private OpHandler<RuntimeException> applier(LmdbEnvironment env, Txn<MapBytes> txn) {
    ValueChecksums checksums = env.checksums();
    return new OpHandler<>() {
      @Override
      public void put(Op.Put p) {
        env.dbi(p.family()).put(txn, MapBytes.of(p.key()), checksums.seal(p.key(), p.value()));
      }

      @Override
      public void delete(Op.Delete d) {
        env.dbi(d.family()).delete(txn, MapBytes.of(d.key()));
      }

      @Override
      public void deleteRange(Op.DeleteRange r) {
        LmdbStore.deleteRange(env.dbi(r.family()), txn, r.lo(), r.hi());
      }

      @Override
      public void merge(Op.Merge m) {
        Dbi<MapBytes> dbi = env.dbi(m.family());
        MapBytes old = dbi.get(txn, MapBytes.of(m.key()));
        long current =
            old == null
                ? 0
                : Int64Add.decode(
                    m.family(), m.key(), checksums.open(describe(), m.family(), m.key(), old));
        dbi.put(
            txn,
            MapBytes.of(m.key()),
            checksums.seal(m.key(), Int64Add.encode(Int64Add.apply(current, m.delta()))));
      }
    };
  }

  /**
   * Deletes {@code [lo, hi)} with a cursor: after a delete, {@code next} lands on the following
   * key.
   */
  private static void deleteRange(Dbi<MapBytes> dbi, Txn<MapBytes> txn, byte[] lo, byte[] hi) {
    if (Bytes.compare(lo, hi) >= 0) {
      return;
    }
    try (Cursor<MapBytes> c = dbi.openCursor(txn)) {
      boolean found = lo.length == 0 ? c.first() : c.get(MapBytes.of(lo), GetOp.MDB_SET_RANGE);
      while (found && Bytes.compare(c.key().copy(), hi) < 0) {
        c.delete();
        found = c.next();
      }
    }
  }

  /**
   * Grows the map one step, following LMDB's rule that no transaction is active during a remap.
   * REQUIRES: the caller holds {@link #writerLock} and not {@link #envGate}.
   */
  private void grow(Batch batch) {
    long current = mapSize;
    if (current >= settings.mapSizeMaxBytes()) {
      throw new StoreFullException(
          "the LMDB map of "
              + dir
              + " is full at "
              + current
              + " bytes, the maximum set by option "
              + LmdbSettings.MAP_SIZE_MAX
              + "="
              + settings.mapSizeMaxBytes()
              + ": the batch of "
              + batch.size()
              + " ops (~"
              + batch.approximateBytes()
              + " bytes) was not applied; raise "
              + LmdbSettings.MAP_SIZE_MAX
              + " or delete data");
    }
    long next = settings.grownFrom(current);
    if (!readers.awaitNoneOpen(settings.mapGrowWaitMillis())) {
      if (closeStarted.get()) {
        throw new StoreClosedException(describe() + " is closed; open it again");
      }
      throw new StoreWriteFailedException(
          "the LMDB map of "
              + dir
              + " is full at "
              + current
              + " bytes and must grow to "
              + next
              + ", but "
              + readers.openCount()
              + " scans/snapshots stayed open for "
              + settings.mapGrowWaitMillis()
              + " ms (option "
              + LmdbSettings.MAP_GROW_WAIT
              + ") and LMDB"
              + " cannot remap under a read transaction: the batch was not applied; close scans and"
              + " snapshots promptly, or call reportWriteFailure (it closes them) and retry, or raise "
              + LmdbSettings.MAP_SIZE);
    }
    try {
      envGate.lockExclusive();
      try {
        checkOpen();
        environment.env().setMapSize(next);
        mapSize = environment.mapSize();
        LOG.info(
            "grew the LMDB map of {} from {} to {} bytes (max {})",
            dir,
            current,
            mapSize,
            settings.mapSizeMaxBytes());
      } catch (StoreException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new StoreWriteFailedException(
            "growing the LMDB map of "
                + dir
                + " from "
                + current
                + " to "
                + next
                + " bytes failed: "
                + e
                + "; the batch was not applied; call reportWriteFailure to reopen the store",
            e);
      } finally {
        envGate.unlockExclusive();
      }
    } finally {
      readers.unblock();
    }
  }

  private StoreWriteFailedException writeFailed(Batch batch, RuntimeException e) {
    return new StoreWriteFailedException(
        "LMDB write of a batch of "
            + batch.size()
            + " ops (first op on family '"
            + batch.ops().get(0).family()
            + "') to "
            + dir
            + " failed: "
            + e
            + "; treat it as not acknowledged, call reportWriteFailure and retry",
        e);
  }

  /**
   * fdatasync of the data file: everything committed before the call is durable on return. Runs
   * concurrently with writes. REQUIRES: the shared side of {@link #envGate} is held.
   */
  private void sync(String what) {
    try {
      environment.env().sync(true);
    } catch (RuntimeException e) {
      throw new StoreWriteFailedException(
          "LMDB sync of "
              + dir
              + " "
              + what
              + " failed: "
              + e
              + "; nothing written since the last good sync"
              + " may be assumed durable; call reportWriteFailure",
          e);
    }
  }

  @Override
  public void syncWal() {
    shared(
        env -> {
          sync("(syncWal)");
          return null;
        });
  }

  // ---------------------------------------------------------------- reads

  @Override
  void checkOpen() {
    if (closed) {
      throw new StoreClosedException(describe() + " is closed; open it again");
    }
  }

  @Override
  <R> R inReadTxn(TxnRead<R> work) {
    return shared(
        env -> {
          Txn<MapBytes> txn = env.pointReads().begin(describe());
          boolean wentWell = false;
          try {
            R result = work.apply(env, txn);
            wentWell = true;
            return result;
          } finally {
            env.pointReads().end(txn, wentWell);
          }
        });
  }

  /** Begins a read transaction, mapping a full reader table to a clear error. */
  static Txn<MapBytes> beginRead(LmdbEnvironment env, String where) {
    return beginRead(env.env(), where);
  }

  /** {@link #beginRead(LmdbEnvironment, String)} on the lmdbjava environment itself. */
  static Txn<MapBytes> beginRead(Env<MapBytes> env, String where) {
    try {
      return env.txnRead();
    } catch (Env.ReadersFullException e) {
      throw LmdbErrors.readersFull(where, e);
    } catch (RuntimeException e) {
      throw new StoreException("cannot begin an LMDB read transaction on " + where + ": " + e, e);
    }
  }

  /**
   * A scan that owns a read transaction until it reaches its end or is closed. While it is open the
   * map cannot grow; close it promptly.
   */
  @Override
  public Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    checkOpen();
    catalog.checkScan(family, lo, hi, direction);
    return LmdbScan.onStore(this, family, lo, hi, direction);
  }

  @Override
  public Snapshot snapshot() {
    checkOpen();
    return LmdbSnapshot.open(this);
  }

  /** Runs {@code work} under the shared side of {@link #envGate}, with the store open. */
  <R> R shared(Function<LmdbEnvironment, R> work) {
    envGate.enterShared();
    try {
      checkOpen();
      return work.apply(environment);
    } finally {
      envGate.exitShared();
    }
  }

  /**
   * Runs {@code release} (closing cursors and read transactions) while the environment is still
   * open.
   */
  void releasing(Runnable release) {
    envGate.enterShared();
    try {
      if (!environment.isClosed()) {
        release.run();
      }
    } finally {
      envGate.exitShared();
    }
  }

  LongLivedReaders readers() {
    return readers;
  }

  /** The environment's current life, which a scan keeps so it learns of a close after its end. */
  EnvironmentEpoch epoch() {
    return epoch;
  }

  /**
   * One life of the environment, from an open or reopen to the next reopen or the close. A scan
   * that reached the end of its range has given its transaction back and is no longer among the
   * open readers the close walks; it checks its epoch instead, so it too throws {@link
   * StoreClosedException} after the close (property {@code everyCallAfterCloseThrows}).
   */
  static final class EnvironmentEpoch {
    private volatile String endedBecause;

    void end(String reason) {
      endedBecause = reason;
    }

    /** Null while the environment lives; why it ended otherwise. */
    String endedBecause() {
      return endedBecause;
    }
  }

  /**
   * Built once: every read passes it to the calls that may fail, so it must cost nothing to get.
   */
  @Override
  String describe() {
    return description;
  }

  /** The current map size in bytes (for tests and tools). */
  long mapSize() {
    return mapSize;
  }

  /** LMDB's reader slots, as the library rounded {@code lmdb.maxReaders} (for tests and tools). */
  int maxReaders() {
    return shared(env -> env.env().info().maxReaders);
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Closes every open scan and snapshot (later use throws {@link StoreClosedException} saying why),
   * then closes and reopens the environment with the same families. LMDB has no write-ahead log to
   * replay: committed batches are in the data file, so nothing committed is lost. Concurrent calls
   * wait for the reopen. Logged at WARN with {@code cause}.
   *
   * @throws StoreWriteFailedException if the reopen fails; the store is then closed
   */
  @Override
  public void reportWriteFailure(Throwable cause) {
    checkOpen();
    FamilyCatalog.checkCause(cause);
    LOG.warn("reopening the LMDB environment of {} after a failed write or sync", dir, cause);
    writerLock.lock();
    try {
      List<LongLivedReaders.Reader> open = readers.blockAndList(false);
      try {
        String reason =
            "closed by reportWriteFailure on "
                + describe()
                + ": the store reopened its LMDB environment; open a new scan or snapshot";
        epoch.end(reason);
        epoch = new EnvironmentEpoch();
        for (LongLivedReaders.Reader r : open) {
          r.closeBecause(reason);
        }
        envGate.lockExclusive();
        try {
          checkOpen();
          environment.close();
          try {
            environment =
                LmdbEnvironment.open(
                    dir, settings, catalog, mapSize, !claim.readOnly(), claim.readOnly());
            mapSize = environment.mapSize();
          } catch (RuntimeException e) {
            closed = true;
            closeStarted.set(true);
            readers.blockAndList(true);
            claim.close();
            throw new StoreWriteFailedException(
                "reopening the LMDB environment of "
                    + dir
                    + " after a write failure failed: "
                    + e
                    + "; the store is closed; fix the cause and open it again",
                e);
          }
        } finally {
          envGate.unlockExclusive();
        }
      } finally {
        readers.unblock();
      }
    } finally {
      writerLock.unlock();
    }
  }

  /** Answers after close too. */
  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  /** Answers after close too. */
  @Override
  public List<FamilySpec> families() {
    return catalog.specs();
  }

  /** Answers after close too. */
  @Override
  public Path directory() {
    return dir;
  }

  /**
   * Closes open scans and snapshots, every DBI and the environment, and releases the directory
   * lock. No sync beyond LMDB's own on close (none, under {@code MDB_NOSYNC}): committed data stays
   * in the OS page cache and survives the process; call {@link #syncWal()} first for power-loss
   * durability.
   */
  @Override
  public void close() {
    if (!closeStarted.compareAndSet(false, true)) {
      return;
    }
    String reason = describe() + " is closed; open it again";
    epoch.end(reason);
    for (LongLivedReaders.Reader r : readers.blockAndList(true)) {
      r.closeBecause(reason);
    }
    envGate.lockExclusive();
    try {
      closed = true;
      environment.close();
    } finally {
      envGate.unlockExclusive();
      claim.close();
    }
  }
}
