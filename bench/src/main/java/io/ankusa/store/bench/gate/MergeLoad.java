package io.ankusa.store.bench.gate;

import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merge load a gate cell is measured under: {@code targetPerSecond} small {@code NO_SYNC}
 * batches per second (gate: 3 000), paced on a fixed schedule. Batches alternate between an ingest
 * of one hook for an active tenant and the purge of that same row: each batch carries a due-row op
 * and four counter merges (the tenant's and the aggregate's pending and bytes) into the very
 * counters the gauge reads, and the queue's size stays where population left it.
 *
 * <p>The load's rows are due a day ahead, in one second (one marker per tenant, overwritten): the
 * purges' tombstones then lie beyond {@code now}, outside every range a tick scans. Rows due now
 * and purged at this rate would leave thousands of tombstones at the head of each active tenant's
 * due range within seconds — a cost of the dispatcher's own claims, not of the merge load the rule
 * specifies.
 *
 * <p>The rate is split over {@value #THREADS} writer threads, each on its own schedule, so one
 * write delayed by the machine (a descheduled thread, a journal commit of another process's fsync)
 * does not hold the whole load back; the queue takes concurrent writers (the writer and the
 * dispatcher write side by side in production). {@link #start()} once, {@link #stop()} once, from
 * one thread.
 */
public final class MergeLoad implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MergeLoad.class);

  /** Writer threads sharing the rate. */
  public static final int THREADS = 2;

  /**
   * Where the load's seqs start in a cell where a {@link WriterLoad} runs: the writer assigns seqs
   * after {@code m:last_seq}, the load's must not meet them (a hook row of the writer's overwritten
   * by the load's). Apart from {@link TickProbe.DispatchTick}'s refill seqs as well.
   */
  public static final long BESIDE_WRITER_SEQ_BASE = 1L << 51;

  /**
   * Behind schedule by less than this (a descheduled thread on a busy machine), the load catches
   * up; further behind, it restarts from now instead of bursting.
   */
  private static final long MAX_LAG_NANOS = 1_000_000_000L;

  private final DeliveryQueue queue;
  private final List<Long> activeOrds;
  private final List<TenantId> activeTenants;
  private final long dueAt;
  private final int targetPerSecond;
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong writeNanos = new AtomicLong();
  private final byte[] payload = new byte[QueuePopulation.PAYLOAD_BYTES];
  private final AtomicLong seq;
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running;
  private volatile Throwable failure;

  /**
   * @param activeOrds the active tenants' ordinals
   * @param activeTenants their ids, same order
   * @param firstSeq seqs this load assigns start after it (population's last seq; {@link
   *     #BESIDE_WRITER_SEQ_BASE} beside a writer)
   * @param dueAt when the load's rows are due; REQUIRES: after every tick's {@code now}
   */
  public MergeLoad(
      DeliveryQueue queue,
      List<Long> activeOrds,
      List<TenantId> activeTenants,
      long dueAt,
      long firstSeq,
      int targetPerSecond) {
    this.queue = queue;
    this.activeOrds = List.copyOf(activeOrds);
    this.activeTenants = List.copyOf(activeTenants);
    this.dueAt = dueAt;
    this.seq = new AtomicLong(firstSeq);
    this.targetPerSecond = targetPerSecond;
  }

  /**
   * The load of {@code cell} on {@code queue}, which {@code pop} filled: its seqs follow the
   * population's, or, in a cell with a writer ({@link GateCell#besideWriter()}), start at {@link
   * #BESIDE_WRITER_SEQ_BASE}.
   */
  public static MergeLoad forCell(
      DeliveryQueue queue, GateCell cell, QueuePopulation.Population pop, int targetPerSecond) {
    long firstSeq = cell.besideWriter() ? BESIDE_WRITER_SEQ_BASE : pop.lastSeq();
    return new MergeLoad(
        queue, pop.activeOrds(), pop.activeTenants(), pop.aheadBaseAt(), firstSeq, targetPerSecond);
  }

  public void start() {
    running = true;
    for (int i = 0; i < THREADS; i++) {
      int first = i;
      Thread thread = new Thread(() -> run(first), "bench-merge-load-" + i);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  /** Batches written so far. */
  public long batches() {
    return batches.get();
  }

  /** Wall-clock nanoseconds spent inside the load's {@code write} calls so far. */
  public long writeNanos() {
    return writeNanos.get();
  }

  public int targetPerSecond() {
    return targetPerSecond;
  }

  private void run(int firstTenant) {
    long period = 1_000_000_000L * THREADS / targetPerSecond;
    long next = System.nanoTime();
    int k = firstTenant;
    DueRow pendingPurge = null;
    try {
      while (running) {
        Transition t = new Transition();
        if (pendingPurge == null) {
          int n = k++ % activeOrds.size();
          long ord = activeOrds.get(n);
          long s = seq.incrementAndGet();
          Deliveries.ingest(
              t, QueuePopulation.hook(s, activeTenants.get(n), dueAt, payload), ord, false);
          pendingPurge =
              new DueRow(
                  new DueKey(ord, dueAt, s, 0),
                  new DueValue(payload.length, DueKind.FIRST_ATTEMPT));
        } else {
          Deliveries.purgeDue(t, pendingPurge);
          pendingPurge = null;
        }
        long w0 = System.nanoTime();
        queue.write(t, Durability.NO_SYNC);
        writeNanos.addAndGet(System.nanoTime() - w0);
        batches.incrementAndGet();
        next += period;
        long wait = next - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        } else if (-wait > MAX_LAG_NANOS) {
          next = System.nanoTime();
        }
      }
      if (pendingPurge != null) {
        Transition t = new Transition();
        Deliveries.purgeDue(t, pendingPurge);
        queue.write(t, Durability.NO_SYNC);
      }
    } catch (RuntimeException | Error e) {
      failure = e;
      LOG.error("merge load failed: {}", e.toString(), e);
    }
  }

  /** Stops the thread and waits for it; rethrows what made it fail, if anything did. */
  public void stop() {
    running = false;
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    threads.clear();
    if (failure != null) {
      throw new IllegalStateException("the background merge load failed: " + failure, failure);
    }
  }

  @Override
  public void close() {
    stop();
  }
}
