package io.ankusa.store.bench.gate;

import io.ankusa.store.bench.sustain.PacedProducers;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.QueueWriter;

/**
 * The writer an ingest cell races: a real {@link QueueWriter} (its defaults: group commit, the WAL
 * synced off the critical path, the durable watermark) fed by {@value #PRODUCERS} {@link
 * PacedProducers} threads at a fixed total rate, the sustained bench's workload (tenant {@code i}
 * of the cell's picked with weight {@code 1/(i+1)}, one or two sinks, 200–2 000-byte payloads),
 * filed under the population's tenant names ({@link QueuePopulation#tenantId}), so the writer's
 * rows land among the rows already queued.
 *
 * <p>The producers keep their schedule fixed from the start: a slow moment is made up afterwards,
 * and a writer that cannot keep the rate shows as {@link #created()} falling behind it. Ownership:
 * the load owns the writer and the producers; {@link #close()} stops the producers, waits until
 * every hook handed to the writer is answered, then closes the writer. REQUIRES: nothing else
 * allocates seqs or ordinals on the queue's store meanwhile (the writer is the store's one
 * allocator; {@link MergeLoad} runs beside it with seqs from {@link
 * MergeLoad#BESIDE_WRITER_SEQ_BASE}).
 */
public final class WriterLoad implements AutoCloseable {
  /** Producer threads sharing the rate. */
  public static final int PRODUCERS = 2;

  private final QueueWriter writer;
  private final PacedProducers producers;
  private final int targetPerSecond;

  private WriterLoad(QueueWriter writer, PacedProducers producers, int targetPerSecond) {
    this.writer = writer;
    this.producers = producers;
    this.targetPerSecond = targetPerSecond;
  }

  /**
   * Starts the writer on {@code queue} and the producers at {@code hooksPerSecond} over {@code
   * tenants} tenants.
   */
  public static WriterLoad start(DeliveryQueue queue, int tenants, int hooksPerSecond) {
    QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults());
    try {
      PacedProducers producers =
          new PacedProducers(
              writer::ingest,
              PRODUCERS,
              tenants,
              i -> QueuePopulation.tenantId(i).value(),
              hooksPerSecond);
      return new WriterLoad(writer, producers, hooksPerSecond);
    } catch (RuntimeException | Error e) {
      writer.close();
      throw e;
    }
  }

  /**
   * The writer's durable watermark: every hook up to this seq is synced (what the dispatcher may
   * claim).
   */
  public long durableSeq() {
    return writer.durableSeq();
  }

  /** Hooks the writer acknowledged as created (durable) so far. */
  public long created() {
    return producers.created();
  }

  /** Delivery rows of those hooks. */
  public long rowsCreated() {
    return producers.rowsCreated();
  }

  /** Hooks refused (overloaded, fenced) or failed so far. */
  public long refused() {
    return producers.refused();
  }

  public int targetPerSecond() {
    return targetPerSecond;
  }

  @Override
  public void close() {
    try {
      producers.close();
    } finally {
      writer.close();
    }
  }
}
