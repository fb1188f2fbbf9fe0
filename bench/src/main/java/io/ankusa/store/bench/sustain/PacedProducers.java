package io.ankusa.store.bench.sustain;

import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Producer threads that hand hooks to the queue's ingest at a fixed total rate, or as fast as the
 * writer answers. Each of {@code producers} threads keeps its share of the rate on a schedule fixed
 * at the start (hook {@code i} is due at {@code start + i × period}), so a slow moment is made up
 * afterwards rather than lost; at most {@value #IN_FLIGHT_PER_PRODUCER} hooks per thread wait for
 * their answer, and a thread whose hooks all wait falls behind its schedule, which shows as an
 * ingest rate below the target. Counts what the writer acknowledged (created: durable) and what it
 * refused.
 */
public final class PacedProducers implements AutoCloseable {
  /** Hooks one producer may have waiting for an answer. */
  static final int IN_FLIGHT_PER_PRODUCER = 1_024;

  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();
  private final LongAdder created = new LongAdder();
  private final LongAdder rowsCreated = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private final List<Semaphore> inFlight = new ArrayList<>();

  /**
   * Starts {@code producers} threads feeding {@code writer} {@code hooksPerSecond} hooks a second
   * in all, or as fast as it answers when that is 0.
   */
  PacedProducers(
      Function<IngestRequest, CompletableFuture<IngestResult>> writer,
      int producers,
      int tenants,
      long hooksPerSecond) {
    this(writer, producers, tenants, HookSource.DEMO_TENANTS, hooksPerSecond);
  }

  /**
   * {@link #PacedProducers(Function, int, int, long)} with tenant {@code i} of the workload filed
   * under {@code tenantName.apply(i)} ({@link HookSource}).
   */
  public PacedProducers(
      Function<IngestRequest, CompletableFuture<IngestResult>> writer,
      int producers,
      int tenants,
      IntFunction<String> tenantName,
      long hooksPerSecond) {
    for (int p = 0; p < producers; p++) {
      Semaphore permits = new Semaphore(IN_FLIGHT_PER_PRODUCER);
      inFlight.add(permits);
      HookSource source = new HookSource(p, tenants, tenantName);
      long periodNanos =
          hooksPerSecond == 0 ? 0 : TimeUnit.SECONDS.toNanos(producers) / hooksPerSecond;
      Thread t =
          new Thread(() -> produce(writer, source, permits, periodNanos), "sustain-producer-" + p);
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
  }

  private void produce(
      Function<IngestRequest, CompletableFuture<IngestResult>> writer,
      HookSource source,
      Semaphore permits,
      long periodNanos) {
    long next = System.nanoTime();
    while (running.get()) {
      long wait = next - System.nanoTime();
      if (periodNanos > 0 && wait > 0) {
        LockSupport.parkNanos(wait);
        continue;
      }
      try {
        if (!permits.tryAcquire(100, TimeUnit.MILLISECONDS)) {
          continue; // every hook of this thread waits: it falls behind its schedule, and catches up
          // later
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      next += periodNanos;
      IngestRequest request = source.next(System.currentTimeMillis());
      writer
          .apply(request)
          .whenComplete(
              (r, e) -> {
                permits.release();
                if (e == null && r.outcome() == IngestResult.Outcome.CREATED) {
                  created.increment();
                  rowsCreated.add(request.sinks().size());
                } else {
                  refused.increment();
                }
              });
    }
  }

  /** Hooks the writer acknowledged as created (durable), so far. */
  public long created() {
    return created.sum();
  }

  /** Delivery rows of the hooks acknowledged as created, so far. */
  public long rowsCreated() {
    return rowsCreated.sum();
  }

  /** Hooks refused or failed, so far. */
  public long refused() {
    return refused.sum();
  }

  /** Stops the threads and waits until every hook handed to the writer is answered. */
  @Override
  public void close() {
    running.set(false);
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    inFlight.forEach(s -> s.acquireUninterruptibly(IN_FLIGHT_PER_PRODUCER));
  }
}
