package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.EntryVisitor;
import io.ankusa.store.spi.FamilyCatalog;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import org.rocksdb.ByteBufferGetStatus;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

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
      catalog().require(family);
      catalog().checkKey(family, key);
      return engine.db.get(engine.handle(family), pointReads(engine), key);
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, key, "get");
    } finally {
      exit();
    }
  }

  /**
   * Reads at one engine snapshot (the view's own, or one pinned for the whole call on the live
   * store), so every answer comes from one state however many keys are asked (property {@code
   * multiGetKeepsOrderAndNulls}; {@code MultiGetTest} forces a write between the reads). Up to
   * {@value #POINT_READ_KEYS} keys are point reads at that state. More go to {@code
   * multiGetByteBuffers} in chunks of at most {@value #MULTI_GET_CHUNK_KEYS} keys and {@value
   * #MULTI_GET_CHUNK_KEY_BYTES} key bytes, through one direct buffer sized for the largest chunk and
   * reused for every chunk, and then kept for a later multiGet ({@link RocksDbEngine#multiGetArenas})
   * unless larger than {@value RocksDbEngine#KEPT_MULTI_GET_ARENA_BYTES} bytes: direct memory stays
   * bounded (at most about 1.5 MiB plus the largest key per call, a buffer not kept freed when it is
   * collected) and no size overflows an {@code int}, for any number of keys
   * (property {@code multiGetOfAMillionKeys}). Unlike {@code multiGetAsList}, which returns null both
   * for an absent key and for a key whose read failed, it returns each key's status: NotFound is
   * absent, any other non-OK status is thrown ({@code CorruptionTest.multiGetOfADamagedKeyThrows}).
   * Values larger than their {@value #MULTI_GET_VALUE_BYTES}-byte slot are read again with a point
   * read at the same snapshot.
   */
  @Override
  public final List<byte[]> multiGet(String family, List<byte[]> keys) {
    RocksDbEngine engine = enter();
    try {
      catalog().require(family);
      catalog().checkKeys(family, keys);
      if (keys.isEmpty()) {
        return new ArrayList<>();
      }
      ColumnFamilyHandle handle = engine.handle(family);
      org.rocksdb.Snapshot pinned = frozenAt() == null ? engine.db.getSnapshot() : null;
      ReadOptions options = pinned == null ? pointReads(engine) : new ReadOptions().setSnapshot(pinned);
      try {
        return keys.size() <= POINT_READ_KEYS
            ? pointReadsAtOneState(engine, handle, options, family, keys)
            : multiGetInChunks(engine, handle, options, family, keys);
      } finally {
        if (pinned != null) {
          options.close();
          engine.db.releaseSnapshot(pinned);
        }
      }
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, null, "multiGet of " + keys.size() + " keys");
    } finally {
      exit();
    }
  }

  /**
   * Up to this many keys, a multiGet is that many point reads at the one pinned state rather than
   * one native multiGet: the native call builds a Java status object per key (a class lookup each)
   * and a direct buffer per call, which for a handful of keys cost more than the reads themselves
   * (the gauge tick's six-counter read spent about half its time there). A point read returns
   * null only for NotFound and throws for any other status, so the per-key answer is as exact.
   * Measured per key against the native call, both at a pinned snapshot of 220 000 keys: point
   * reads took 0.69–0.91 of its time for 6 to 64 random keys (absent, present or half and half),
   * 0.77–1.04 for 102 and 128 (1.11 for 128 nearby present keys), and from 256 keys on the two are
   * within a few percent. The sharded aggregate's 102-key read made the gauge tick's p10 about a
   * fifth lower as point reads than through the native call.
   */
  static final int POINT_READ_KEYS = 128;

  /**
   * Test seam: given the index of each key of a small multiGet just read, with the view entered and
   * the state pinned. Null in production.
   */
  static volatile IntConsumer afterPointRead;

  private static List<byte[]> pointReadsAtOneState(RocksDbEngine engine, ColumnFamilyHandle handle,
      ReadOptions options, String family, List<byte[]> keys) {
    int n = keys.size();
    List<byte[]> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(pointRead(engine, handle, options, family, keys.get(i)));
      IntConsumer hook = afterPointRead;
      if (hook != null) {
        hook.accept(i);
      }
    }
    return values;
  }

  /** Bytes of direct buffer each value gets in a multiGet; larger values are re-read. */
  static final int MULTI_GET_VALUE_BYTES = 512;
  /** Most keys one native multiGet call reads. */
  static final int MULTI_GET_CHUNK_KEYS = 1024;
  /** Most key bytes one native multiGet call reads (a single larger key still goes alone). */
  static final int MULTI_GET_CHUNK_KEY_BYTES = 1 << 20;

  private static List<byte[]> multiGetInChunks(RocksDbEngine engine, ColumnFamilyHandle handle,
      ReadOptions options, String family, List<byte[]> keys) throws RocksDBException {
    int n = keys.size();
    // Chunk ends first, so the one buffer is as large as the largest chunk needs (rounded up to the
    // grain) and no larger: 200 keys take about 100 KiB, not the 1.5 MiB a full chunk would.
    List<Integer> ends = new ArrayList<>(n / MULTI_GET_CHUNK_KEYS + 1);
    int arenaBytes = 0;
    int from = 0;
    while (from < n) {
      int to = from;
      int keyBytes = 0;
      while (to < n && to - from < MULTI_GET_CHUNK_KEYS
          && (to == from || keyBytes + keys.get(to).length <= MULTI_GET_CHUNK_KEY_BYTES)) {
        keyBytes += keys.get(to).length;
        to++;
      }
      ends.add(to);
      arenaBytes = Math.max(arenaBytes, keyBytes + (to - from) * MULTI_GET_VALUE_BYTES);
      from = to;
    }
    ByteBuffer idle = engine.multiGetArenas.poll();
    // An idle buffer too small is dropped (the collector frees it); the larger new one is kept.
    ByteBuffer arena = idle != null && idle.capacity() >= arenaBytes
        ? idle : ByteBuffer.allocateDirect(roundUp(arenaBytes, MULTI_GET_ARENA_GRAIN));
    List<byte[]> values = new ArrayList<>(n);
    from = 0;
    for (int to : ends) {
      readChunk(engine, handle, options, family, keys.subList(from, to), arena, values);
      from = to;
    }
    // Every answer was copied out: what the buffer holds is never read again, only overwritten.
    if (arena.capacity() <= RocksDbEngine.KEPT_MULTI_GET_ARENA_BYTES) {
      engine.multiGetArenas.offer(arena);
    }
    return values;
  }

  /** Multiple a new multiGet buffer's size is rounded up to, so one of a similar size can reuse it. */
  static final int MULTI_GET_ARENA_GRAIN = 64 << 10;

  private static int roundUp(int bytes, int grain) {
    long rounded = ((long) bytes + grain - 1) / grain * grain;
    return (int) Math.min(rounded, Integer.MAX_VALUE);
  }

  /**
   * One native multiGet of {@code chunk} through {@code arena}; appends the answers to {@code values}.
   * REQUIRES: {@code arena} has room for the chunk's keys and a value slot per key; its content is
   * never read before RocksDB writes it (a key is written into its slice first, and a value is read
   * to the length RocksDB reports), so a reused buffer answers as a fresh one.
   */
  private static void readChunk(RocksDbEngine engine, ColumnFamilyHandle handle, ReadOptions options,
      String family, List<byte[]> chunk, ByteBuffer arena, List<byte[]> values) throws RocksDBException {
    int n = chunk.size();
    List<ByteBuffer> keyBuffers = new ArrayList<>(n);
    List<ByteBuffer> valueBuffers = new ArrayList<>(n);
    int at = 0;
    for (byte[] k : chunk) {
      ByteBuffer kb = arena.slice(at, k.length);
      kb.put(k).flip();
      keyBuffers.add(kb);
      at += k.length;
    }
    for (int i = 0; i < n; i++) {
      valueBuffers.add(arena.slice(at, MULTI_GET_VALUE_BYTES));
      at += MULTI_GET_VALUE_BYTES;
    }
    List<ByteBufferGetStatus> got =
        engine.db.multiGetByteBuffers(options, Collections.nCopies(n, handle), keyBuffers, valueBuffers);
    for (int i = 0; i < n; i++) {
      ByteBufferGetStatus r = got.get(i);
      Status.Code code = r.status.getCode();
      if (code == Status.Code.NotFound) {
        values.add(null);
      } else if (code != Status.Code.Ok) {
        throw RocksDbFailures.read(new RocksDBException(r.status), engine.dir, family, chunk.get(i), "multiGet");
      } else if (r.requiredSize > MULTI_GET_VALUE_BYTES) {
        values.add(pointRead(engine, handle, options, family, chunk.get(i)));
      } else {
        byte[] v = new byte[r.requiredSize];
        r.value.get(v);
        values.add(v);
      }
    }
  }

  private static byte[] pointRead(RocksDbEngine engine, ColumnFamilyHandle handle, ReadOptions options,
      String family, byte[] key) {
    try {
      return engine.db.get(handle, options, key);
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, key, "multiGet");
    }
  }

  /**
   * A lazy scan with RocksDB iterate bounds, reading one state (the view's snapshot, or the state the
   * iterator pins on the live store), read in chunks, tracked until closed. See {@link RocksDbScan}
   * for the guard and the end-of-range rule.
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
  public final void visit(String family, byte[] lo, byte[] hi, Direction direction, EntryVisitor visitor) {
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
      byte[] v = engine.db.get(engine.handle(family), pointReads(engine), key);
      return v == null ? 0 : Int64Add.decode(family, key, v);
    } catch (RocksDBException e) {
      throw RocksDbFailures.read(e, engine.dir, family, key, "counter read");
    } finally {
      exit();
    }
  }
}
