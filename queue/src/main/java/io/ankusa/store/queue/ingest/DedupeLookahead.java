package io.ankusa.store.queue.ingest;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Store;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The writer's lookahead thread ({@value #THREAD}): it reads the idempotency keys of the writer's next
 * group from the store while the writer thread writes the group before it, so that read and that
 * write overlap instead of following each other on one thread.
 *
 * <p>One read at a time: the writer hands a read over ({@link #submit}) and later waits for its answer
 * ({@link Read#await}); it never hands over another before. The read is one {@link Store#multiGet} of
 * the index family, exactly what the writer would have read itself. What it cannot see — the rows of
 * the group being written meanwhile — the writer has already answered from memory (see {@link
 * QueueWriter}). Owned by one {@link QueueWriter}; {@link #close} ends the thread once the read in
 * hand, if any, is done.
 */
final class DedupeLookahead implements AutoCloseable {
  /** The lookahead thread's name. */
  static final String THREAD = "ankusa-writer-lookahead";

  /** One read handed over: its keys, then its answer or its failure. */
  static final class Read {
    private final List<byte[]> keys;
    private final Thread waiter;
    /** Written before {@link #done}, read after it: {@code done} publishes them. */
    private List<byte[]> found;
    private Throwable failure;
    private volatile boolean done;

    private Read(List<byte[]> keys, Thread waiter) {
      this.keys = keys;
      this.waiter = waiter;
    }

    private void run(Store store) {
      try {
        found = store.multiGet(Format3.INDEX, keys);
      } catch (Throwable t) {
        failure = t;
      } finally {
        done = true;
        LockSupport.unpark(waiter);
      }
    }

    /**
     * Waits for the answer: the value under each key, in order, null where absent. Rethrows the
     * read's failure (a {@link io.ankusa.store.spi.StoreException}, or an error) on the waiting
     * thread. Clears the interrupt flag, as the writer's other waits do: the writer stops through
     * {@link QueueWriter#close()}, not interrupts.
     */
    List<byte[]> await() {
      while (!done) {
        LockSupport.park(this);
        Thread.interrupted();
      }
      if (failure instanceof RuntimeException e) {
        throw e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      return found;
    }
  }

  private final Store store;
  private final Thread thread;
  private final AtomicReference<Read> handedOver = new AtomicReference<>();
  private volatile boolean stopping;

  DedupeLookahead(Store store) {
    this.store = store;
    this.thread = new Thread(this::run, THREAD);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  Thread thread() {
    return thread;
  }

  /**
   * Hands over the read of {@code keys} in the index family and returns at once. REQUIRES: the
   * calling thread is the one that will {@link Read#await} it, no other read is outstanding, and
   * {@code keys} is not changed until the answer is in.
   */
  Read submit(List<byte[]> keys) {
    Read read = new Read(keys, Thread.currentThread());
    handedOver.set(read);
    LockSupport.unpark(thread);
    return read;
  }

  private void run() {
    while (true) {
      Read read = handedOver.getAndSet(null);
      if (read != null) {
        read.run(store);
      } else if (stopping) {
        return;
      } else {
        LockSupport.park(this);
        Thread.interrupted();
      }
    }
  }

  /** Ends the thread after the read in hand, if any, and waits for it. Idempotent. */
  @Override
  public void close() {
    stopping = true;
    LockSupport.unpark(thread);
    if (thread == Thread.currentThread() || !thread.isAlive()) {
      return;
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
