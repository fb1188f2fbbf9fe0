package io.ankusa.store.rocksdb;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Up to {@code maxIdle} objects kept between calls for the next call to reuse, so a hot path does not
 * allocate, fill and free a large native buffer each time. Callers take one with {@link
 * #poll()} (null when none is idle: the caller makes a new one), own it alone until they hand it back
 * with {@link #offer}, and never touch it after. An object offered while {@code maxIdle} are idle is
 * discarded at once. Lock-free: a take and a hand-back contend only on a queue's compare-and-set, never
 * on a lock, so the pool serialises no callers.
 *
 * <p>Owned by one {@link RocksDbEngine}. REQUIRES for {@link #close()}: no caller holds or offers an
 * object any more (the store closes its engine under its write lock, which waits out every call).
 *
 * @param <T> what is pooled
 */
final class IdlePool<T> implements AutoCloseable {
  private final int maxIdle;
  private final Consumer<T> discard;
  private final Queue<T> idle = new ConcurrentLinkedQueue<>();
  private final AtomicInteger idleCount = new AtomicInteger();

  /**
   * @param maxIdle most objects kept idle, at least 1
   * @param discard frees an object the pool does not keep (closes a native one)
   */
  IdlePool(int maxIdle, Consumer<T> discard) {
    if (maxIdle < 1) {
      throw new IllegalArgumentException("maxIdle " + maxIdle + " is below 1");
    }
    this.maxIdle = maxIdle;
    this.discard = discard;
  }

  /** An idle object, now the caller's; null when none is idle. */
  T poll() {
    T t = idle.poll();
    if (t != null) {
      idleCount.decrementAndGet();
    }
    return t;
  }

  /**
   * Hands {@code t} back: kept for a later {@link #poll()} when fewer than {@code maxIdle} are idle,
   * discarded otherwise. REQUIRES: the caller took or made {@code t}, is done with it, and left it in
   * the state a next user expects (a cleared batch).
   */
  void offer(T t) {
    if (idleCount.incrementAndGet() <= maxIdle) {
      idle.offer(t);
    } else {
      idleCount.decrementAndGet();
      discard.accept(t);
    }
  }

  /** How many objects are idle now. */
  int idle() {
    return idleCount.get();
  }

  /** Discards every idle object. */
  @Override
  public void close() {
    for (T t = poll(); t != null; t = poll()) {
      discard.accept(t);
    }
  }
}
