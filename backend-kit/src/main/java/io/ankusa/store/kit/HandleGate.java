package io.ankusa.store.kit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Guards a native handle that many threads use at once and that one thread now and then frees or
 * replaces (closing or reopening a store): the read-write lock an engine binding needs around its
 * handle, without the one shared counter that every caller of a {@link
 * java.util.concurrent.locks.ReentrantReadWriteLock} writes. With that lock, two threads reading at
 * once on two cores take turns owning one cache line twice per read; here each thread counts itself
 * in a stripe of its own, so readers the engine would let run in parallel stay parallel.
 *
 * <p>The shared side ({@link #enterShared}, {@link #exitShared}) adds one to the calling thread's
 * stripe (one of a few, each on its own cache lines, handed out to threads in turn) and then reads
 * the exclusive flag. It is reentrant: a thread that already holds it (a visitor reading its own
 * store) only counts the extra hold in a thread-local, and is let in even while an exclusive holder
 * waits, so a nested read never deadlocks against a waiting close. A thread holding the exclusive
 * side may also enter the shared side.
 *
 * <p>The exclusive side ({@link #lockExclusive}, {@link #unlockExclusive}) raises the flag, then
 * parks until every stripe is zero; from then until it unlocks no other thread holds the shared
 * side. A shared entry that sees the flag takes its count back, wakes the waiting exclusive holder
 * and waits on the exclusive lock (a {@link ReentrantLock}, so a waiting reader shows as parked on
 * it) before it tries again. Correctness rests on two sequentially consistent steps: a reader
 * writes its stripe then reads the flag, the exclusive holder writes the flag then reads the
 * stripes, so at least one of them sees the other. Exclusive holders are served one at a time; a
 * stream of readers cannot starve one (new readers step back as soon as the flag is up).
 *
 * <p>REQUIRES: every {@code enterShared} is paired with an {@code exitShared} on the same thread,
 * and every {@code lockExclusive} with an {@code unlockExclusive}; a thread holding the shared side
 * does not call {@code lockExclusive} (it would wait for itself, so it is refused with {@link
 * IllegalStateException}; a backend checks {@link #heldByCurrentThread} first and refuses with its
 * own message). Checked by {@code HandleGateTest}, which forces each interleaving, and by a random
 * concurrent property replayable with {@code -Dankusa.seed}.
 */
public final class HandleGate {
  /**
   * Longs per stripe: 128 bytes, so two stripes never share a cache line or its prefetched pair.
   */
  private static final int STRIDE = 16;

  private final int stripeMask;

  /**
   * Stripe {@code s} counts at index {@code (s + 1) * STRIDE}; the first and last stride are
   * padding.
   */
  private final AtomicLongArray stripes;

  private final AtomicInteger nextStripe = new AtomicInteger();

  /** Per thread: {@code [0]} how many shared holds it has, {@code [1]} its stripe. */
  private final ThreadLocal<int[]> mine;

  private final ReentrantLock exclusive = new ReentrantLock();

  /** Raised from the first {@code lockExclusive} until the last {@code unlockExclusive}. */
  private volatile boolean exclusiveWanted;

  /** The exclusive holder while it waits for readers to leave, or null. */
  private volatile Thread waitingForReaders;

  /** A gate with a stripe per available processor, times two, at least four. */
  public HandleGate() {
    int wanted = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    int stripes = Integer.highestOneBit(wanted - 1) << 1;
    int mask = stripes - 1;
    this.stripeMask = mask;
    this.stripes = new AtomicLongArray((stripes + 2) * STRIDE);
    this.mine = ThreadLocal.withInitial(() -> new int[] {0, nextStripe.getAndIncrement() & mask});
  }

  /**
   * Takes the shared side, waiting while another thread holds (or waits for) the exclusive side,
   * unless this thread already holds the shared or the exclusive side.
   */
  public void enterShared() {
    int[] holds = mine.get();
    if (holds[0] > 0) {
      holds[0]++;
      return;
    }
    int at = (holds[1] + 1) * STRIDE;
    while (true) {
      stripes.getAndIncrement(at);
      if (!exclusiveWanted || exclusive.isHeldByCurrentThread()) {
        holds[0] = 1;
        return;
      }
      stripes.getAndDecrement(at);
      wakeExclusive();
      exclusive.lock();
      exclusive.unlock();
    }
  }

  /**
   * Releases one shared hold of this thread.
   *
   * @throws IllegalStateException if this thread holds no shared side
   */
  public void exitShared() {
    int[] holds = mine.get();
    if (holds[0] <= 0) {
      throw new IllegalStateException(
          "exitShared on a thread that holds no shared side of this gate");
    }
    if (--holds[0] > 0) {
      return;
    }
    stripes.getAndDecrement((holds[1] + 1) * STRIDE);
    if (exclusiveWanted) {
      wakeExclusive();
    }
  }

  /** True while this thread holds the shared side (entered and not yet exited). */
  public boolean heldByCurrentThread() {
    return mine.get()[0] > 0;
  }

  /**
   * Takes the exclusive side: waits for other exclusive holders, then until no thread holds the
   * shared side. Reentrant. Ignores interrupts while it waits (like a lock's {@code lock()}), and
   * keeps the thread's interrupt status.
   *
   * @throws IllegalStateException if this thread holds the shared side (it would wait for itself)
   */
  public void lockExclusive() {
    if (heldByCurrentThread()) {
      throw new IllegalStateException(
          "lockExclusive on a thread that holds the shared side of this gate");
    }
    exclusive.lock();
    if (exclusive.getHoldCount() > 1) {
      return;
    }
    waitingForReaders = Thread.currentThread();
    exclusiveWanted = true;
    boolean interrupted = false;
    while (!noReaders()) {
      LockSupport.park(this);
      interrupted |= Thread.interrupted();
    }
    waitingForReaders = null;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Releases one exclusive hold; the last one lets readers in again. */
  public void unlockExclusive() {
    if (exclusive.isHeldByCurrentThread() && exclusive.getHoldCount() == 1) {
      exclusiveWanted = false;
    }
    exclusive.unlock();
  }

  private boolean noReaders() {
    for (int s = 0; s <= stripeMask; s++) {
      if (stripes.get((s + 1) * STRIDE) != 0) {
        return false;
      }
    }
    return true;
  }

  private void wakeExclusive() {
    Thread waiting = waitingForReaders;
    if (waiting != null) {
      LockSupport.unpark(waiting);
    }
  }
}
