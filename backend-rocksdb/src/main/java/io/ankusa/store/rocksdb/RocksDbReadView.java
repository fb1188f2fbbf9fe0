package io.ankusa.store.rocksdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.EntryVisitor;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The read code of the RocksDB backend, written once and used by both the live {@link RocksDbStore}
 * and a frozen {@link RocksDbSnapshot}. A subclass says how to enter a read (which locks, which
 * closed checks), which {@link ReadOptions} point reads use, and which engine snapshot scans read.
 *
 * <p>Ownership: arrays passed in are read during the call only; every returned array is a fresh
 * copy made by RocksJava. Corruption met by any read is {@link
 * io.ankusa.store.spi.StoreCorruptionException} naming the family and key (properties {@code
 * scanNeverEndsEarlyOnCorruption}, and {@code CorruptionTest} in this module for point reads).
 */
abstract sealed class RocksDbReadView implements ReadView permits RocksDbStore, RocksDbSnapshot {

  /** The catalog used for argument checks. */
  abstract FamilyCatalog catalog();

  /**
   * Takes the locks a read needs and checks that this view is open; returns the engine to read.
   * Every successful call is paired with {@link #exit()}.
   *
   * @throws io.ankusa.store.spi.StoreClosedException if the view or its store is closed
   */
  abstract RocksDbEngine enter();

  /** Releases what {@link #enter()} took. */
  abstract void exit();

  /** Read options for point reads on {@code engine}, called between enter and exit. */
  abstract ReadOptions pointReads(RocksDbEngine engine);

  /** The engine snapshot this view is frozen at, or null for the live store. */
  abstract org.rocksdb.Snapshot frozenAt();

  /** Where scans opened on this view are tracked until they close. */
  abstract Set<OpenResource> openScans();

  /** The store all locks belong to. */
  abstract RocksDbStore store();

  @Override
  public final byte[] get(String family, byte[] key) {
    RocksDbEngine engine = enter();
    try {
      boolean counters = catalog().require(family).counters();
      catalog().checkKey(family, key);
      return read(engine, engine.handle(family), pointReads(engine), counters, key);
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, key, "get");
    } finally {
      exit();
    }
  }

  /**
   * Reads every key at one state, one point read per key, in order (property {@code
   * multiGetKeepsOrderAndNulls}; {@code MultiGetTest} forces a write between the reads, and one in
   * flight when they begin). On a snapshot that state is the snapshot's. On the live store one key
   * is one read, and up to {@link #MAX_KEYS_UNPINNED} keys are read first with no engine snapshot,
   * checking after each read against the engine's {@link WriteTally} that no write has overlapped
   * the reads so far; the first time one has (or when a write is in flight at the start) the reads
   * stop and all keys are read again at an engine snapshot pinned for the rest of the call. More
   * keys are read at a snapshot pinned from the start. The common short call, no write during a few
   * reads (the gauges' six counters), so costs no snapshot: a RocksDB snapshot is two calls that
   * take the database's mutex, a fair part of a read of six keys (see {@link WriteTally}).
   *
   * <p>A point read returns null only for NotFound and throws for any other status ({@code
   * CorruptionTest.multiGetOfADamagedKeyThrows}), so each key's answer is exact; {@code
   * multiGetAsList} is not used because it returns null both for an absent key and for a key whose
   * read failed. Nor is {@code multiGetByteBuffers}, which does return each key's status: it builds
   * a Java status object per key (a class lookup each), and that costs more than it saves: point
   * reads came out cheaper per key at every call size tried, absent keys and present ones
   * (docs/measurements/ingest.md). No direct memory is used, so any number of keys reads in bounded
   * memory besides the answers themselves (property {@code multiGetOfAMillionKeys}; {@code
   * MultiGetOfManyKeysTest}).
   */
  @Override
  public final List<byte[]> multiGet(String family, List<byte[]> keys) {
    RocksDbEngine engine = enter();
    try {
      boolean counters = catalog().require(family).counters();
      catalog().checkKeys(family, keys);
      if (keys.isEmpty()) {
        return new ArrayList<>();
      }
      ColumnFamilyHandle handle = engine.handle(family);
      if (frozenAt() != null || keys.size() == 1) {
        return readEach(engine, handle, pointReads(engine), family, counters, keys, null, 0);
      }
      long stamp = keys.size() <= MAX_KEYS_UNPINNED ? engine.writes.quietStamp() : WriteTally.BUSY;
      if (stamp != WriteTally.BUSY) {
        List<byte[]> values =
            readEach(
                engine, handle, pointReads(engine), family, counters, keys, engine.writes, stamp);
        if (values != null) {
          return values;
        }
      }
      org.rocksdb.Snapshot pinned = engine.db.getSnapshot();
      try (ReadOptions options = new ReadOptions().setVerifyChecksums(true).setSnapshot(pinned)) {
        return readEach(engine, handle, options, family, counters, keys, null, 0);
      } finally {
        engine.db.releaseSnapshot(pinned);
      }
    } finally {
      exit();
    }
  }

  /**
   * The most keys a multiGet of the live store reads without an engine snapshot first. Past a few
   * keys the snapshot is a small part of the call, and a write that lands late in a long call would
   * throw away most of its reads; so longer calls pin one from the start, as they always did.
   */
  static final int MAX_KEYS_UNPINNED = 16;

  /**
   * Test seam: given the index of each key of a multiGet just read, with the view entered, before
   * the read is checked against the write tally. Null in production.
   */
  static volatile IntConsumer afterPointRead;

  /**
   * One point read per key with {@code options}, in order; with a {@code tally}, null as soon as a
   * write has begun since {@code stamp} (the reads so far may not be of one state).
   */
  private static List<byte[]> readEach(
      RocksDbEngine engine,
      ColumnFamilyHandle handle,
      ReadOptions options,
      String family,
      boolean counters,
      List<byte[]> keys,
      WriteTally tally,
      long stamp) {
    int n = keys.size();
    List<byte[]> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(pointRead(engine, handle, options, family, counters, keys.get(i)));
      IntConsumer hook = afterPointRead;
      if (hook != null) {
        hook.accept(i);
      }
      if (tally != null && !tally.unchangedSince(stamp)) {
        return null;
      }
    }
    return values;
  }

  private static byte[] pointRead(
      RocksDbEngine engine,
      ColumnFamilyHandle handle,
      ReadOptions options,
      String family,
      boolean counters,
      byte[] key) {
    try {
      return read(engine, handle, options, counters, key);
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, key, "multiGet");
    }
  }

  /**
   * The value of {@code key}, or null when absent, in a fresh array the caller owns. A counters
   * family's values are {@value Int64Add#WIDTH} bytes, so a read of one goes into an array of that
   * size made here: RocksJava then copies the value into it instead of making the array in native
   * code, which is a noticeable part of a read as short as a counter's (docs/measurements/gate.md).
   * A value of any other length, which only damage leaves in a counters family, is read again
   * whole, so the caller's decoding reports it as it would have.
   */
  private static byte[] read(
      RocksDbEngine engine,
      ColumnFamilyHandle handle,
      ReadOptions options,
      boolean counters,
      byte[] key)
      throws RocksDBException {
    if (counters) {
      byte[] value = new byte[Int64Add.WIDTH];
      int length = engine.db.get(handle, options, key, value);
      if (length == RocksDB.NOT_FOUND) {
        return null;
      }
      if (length == Int64Add.WIDTH) {
        return value;
      }
    }
    return engine.db.get(handle, options, key);
  }

  /**
   * A lazy scan with RocksDB iterate bounds, reading one state (the view's snapshot, or the state
   * the iterator pins on the live store), read in chunks, tracked until closed. See {@link
   * RocksDbScan} for the guard and the end-of-range rule.
   */
  @Override
  public final Scan scan(String family, byte[] lo, byte[] hi, Direction direction) {
    RocksDbEngine engine = enter();
    try {
      catalog().checkScan(family, lo, hi, direction);
      return RocksDbScan.open(this, engine, family, lo, hi, direction, frozenAt(), openScans());
    } finally {
      exit();
    }
  }

  /**
   * A scan handed straight to the visitor: no {@link io.ankusa.store.spi.Entry} per entry, keys and
   * values copied into arrays reused while their length matches (see {@link
   * RocksDbScan#visitRest}). The visitor runs under the view's guard, taken once per chunk: it may
   * read and write, but closing this view or the store from inside it is refused with {@link
   * io.ankusa.store.spi.StoreArgumentException} (it would wait for itself).
   */
  @Override
  public final void visit(
      String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
    RocksDbScan scan;
    RocksDbEngine engine = enter();
    try {
      catalog().checkScan(family, lo, hi, direction);
      FamilyCatalog.checkVisitor(family, visitor);
      scan = RocksDbScan.open(this, engine, family, lo, hi, direction, frozenAt(), openScans());
    } finally {
      exit();
    }
    try (scan) {
      scan.visitRest(visitor);
    }
  }

  @Override
  public final long counter(String family, byte[] key) {
    RocksDbEngine engine = enter();
    try {
      catalog().requireCounters(family);
      catalog().checkKey(family, key);
      byte[] v = read(engine, engine.handle(family), pointReads(engine), true, key);
      return v == null ? 0 : Int64Add.decode(family, key, v);
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, key, "counter read");
    } finally {
      exit();
    }
  }
}
