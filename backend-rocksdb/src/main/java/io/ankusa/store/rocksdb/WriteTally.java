package io.ankusa.store.rocksdb;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the writes begun and the writes ended on one engine, so that a reader can tell that no
 * write overlapped its reads and that they therefore all saw one state, without asking RocksDB for
 * a snapshot. The logical state of the database changes only inside a write call (a write is
 * visible when the engine's write returns; flushes and compactions change files, not what a read
 * answers, and the backend sets no compaction filter), so reads that ran while no write call was
 * between its {@link #begin} and its {@link #end} read one state. The check is a sequence lock's:
 * {@link #quietStamp} before the reads, {@link #unchangedSince} after each.
 *
 * <p>Why not a snapshot: every RocksDB snapshot is two calls into the engine that take the
 * database's mutex, and releasing the oldest one makes RocksDB look for bottommost files to
 * rewrite, which it then does in a background compaction (in a young store, its first flushed files
 * whole). Those rewrites also dropped the deletions such files held; files full of deletions are
 * now compacted on purpose ({@link DeletionTriggeredCompaction}).
 *
 * <p>REQUIRES: every call that changes what a read answers is bracketed by {@code begin()} and
 * {@code end()} on the same tally, {@code end()} in a finally block. Checked by {@code
 * MultiGetTest}, which forces a write between two reads and a write in flight when the reads begin.
 */
final class WriteTally {
  /** What {@link #quietStamp} returns while a write is in flight. */
  static final long BUSY = -1;

  private final AtomicLong begun = new AtomicLong();
  private final AtomicLong ended = new AtomicLong();

  /** Called before the engine's write call. */
  void begin() {
    begun.incrementAndGet();
  }

  /** Called after the engine's write call returned or threw. */
  void end() {
    ended.incrementAndGet();
  }

  /**
   * A stamp to check reads against, or {@link #BUSY} when a write is in flight (reads begun now
   * could see part of the state before it and part after).
   */
  long quietStamp() {
    long e = ended.get();
    long b = begun.get();
    return b == e ? b : BUSY;
  }

  /**
   * Whether no write has begun since {@code stamp} was taken: then every read made since saw the
   * state of the stamp. REQUIRES: {@code stamp} is from {@link #quietStamp} and not {@link #BUSY}.
   */
  boolean unchangedSince(long stamp) {
    // The reads made so far happen before the count is read again, as in StampedLock.validate.
    VarHandle.acquireFence();
    return begun.get() == stamp;
  }
}
