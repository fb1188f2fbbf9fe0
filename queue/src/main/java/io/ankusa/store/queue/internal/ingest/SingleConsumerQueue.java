package io.ankusa.store.queue.internal.ingest;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A hand-off from any number of producers to one consumer thread that parks while there is nothing
 * to do. Producers never block and never take a lock: {@link #offer} is a lock-free append plus,
 * when the consumer is parked, an {@code unpark}. Unbounded: the writer bounds its input with a
 * counter of its own. Package-private plumbing of {@link QueueWriter} and {@link WalSyncer}.
 */
public final class SingleConsumerQueue<T> {
  private final ConcurrentLinkedQueue<T> items = new ConcurrentLinkedQueue<>();
  private volatile Thread consumer;
  private volatile boolean consumerWaiting;

  /** Names the thread that {@link #awaitItems} and {@link #wakeConsumer} concern. */
  void bindConsumer(Thread thread) {
    this.consumer = thread;
  }

  /** Appends {@code item}; wakes the consumer if it waits. Any thread. */
  void offer(T item) {
    items.offer(item);
    if (consumerWaiting) {
      wakeConsumer();
    }
  }

  /** The next item, or null. Consumer thread only. */
  T poll() {
    return items.poll();
  }

  /** The next item without taking it, or null. Consumer thread only. */
  T peek() {
    return items.peek();
  }

  boolean isEmpty() {
    return items.isEmpty();
  }

  /**
   * Parks the consumer until an item arrives, {@link #wakeConsumer} is called or {@code maxNanos}
   * pass; may return early. Consumer thread only. Clears the thread's interrupt flag (the writer's
   * threads stop through {@link QueueWriter#close()}, not interrupts).
   */
  void awaitItems(long maxNanos) {
    consumerWaiting = true;
    try {
      if (items.isEmpty()) {
        LockSupport.parkNanos(this, Math.max(1, maxNanos));
      }
    } finally {
      consumerWaiting = false;
      Thread.interrupted();
    }
  }

  /**
   * Parks the consumer until {@link #wakeConsumer} is called or {@code maxNanos} pass, whether or
   * not items wait; may return early. For a consumer that may not take items yet (the writer at its
   * bound of applied but unsynced hooks), so it waits for the signal it needs instead of spinning
   * over a queue that is not empty. A new item does not wake it. Consumer thread only; clears the
   * interrupt flag like {@link #awaitItems}.
   */
  void awaitWake(long maxNanos) {
    try {
      LockSupport.parkNanos(this, Math.max(1, maxNanos));
    } finally {
      Thread.interrupted();
    }
  }

  /** Unparks the consumer (e.g. a signal other than a new item). Any thread. */
  void wakeConsumer() {
    Thread t = consumer;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  public static long millisToNanos(long ms) {
    return TimeUnit.MILLISECONDS.toNanos(ms);
  }
}
