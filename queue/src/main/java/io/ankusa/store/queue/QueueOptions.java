package io.ankusa.store.queue;

import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.runtime.RuntimeSettings;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How a {@link WebhookQueue} runs. Immutable: each {@code with…} returns a copy. Every option, its
 * default and range is in docs/configuration.md.
 */
public final class QueueOptions {
  private final QueueConfig queue;
  private final RuntimeSettings runtime;
  private final ArchiveSink archive;
  private final LongSupplier clock;

  private QueueOptions(
      QueueConfig queue, RuntimeSettings runtime, ArchiveSink archive, LongSupplier clock) {
    this.queue = queue;
    this.runtime = runtime;
    this.archive = archive;
    this.clock = clock;
  }

  /**
   * The defaults: a million tenants at most, no archive, the defaults of the writer and the
   * dispatcher, the system clock.
   */
  public static QueueOptions defaults() {
    return new QueueOptions(
        QueueConfig.defaults(), RuntimeSettings.defaults(), null, System::currentTimeMillis);
  }

  /**
   * At most {@code max} tenants (1 .. 4 294 967 294); a hook of a tenant past it is refused, never
   * stored.
   */
  public QueueOptions withTenantsMax(long max) {
    return new QueueOptions(queue.withTenantsMax(max), runtime, archive, clock);
  }

  /**
   * Spreads the node aggregate's counters over 16 keys ({@code counters.sharded_aggregate}, default
   * off): the remedy if merges into the aggregate contend under load. Fixed when the store is
   * created; opening a store with the other setting is refused.
   */
  public QueueOptions withShardedAggregate(boolean sharded) {
    return new QueueOptions(queue.withShardedAggregate(sharded), runtime, archive, clock);
  }

  /**
   * Copies every hook into {@code sink} before it may be reclaimed (null: no archive, the default).
   */
  public QueueOptions withArchive(ArchiveSink sink) {
    return new QueueOptions(queue.withArchive(sink != null), runtime, sink, clock);
  }

  /** The writer's group commit, queue capacity, payload limit and dedupe window. */
  public QueueOptions withWriter(WriterConfig writer) {
    Objects.requireNonNull(writer, "writer");
    return new QueueOptions(
        queue,
        new RuntimeSettings(
            writer,
            runtime.dispatchRows(),
            runtime.dispatchBytes(),
            runtime.dispatchIdleMs(),
            runtime.reclaimLimit(),
            runtime.reclaimIdleMs(),
            runtime.archiveChunkHooks(),
            runtime.archiveIdleMs()),
        archive,
        clock);
  }

  /**
   * At most {@code rows} deliveries and about {@code bytes} payload bytes handed to the handler per
   * tick (defaults 4 096 and 4 MiB; the delivery that crosses the byte budget is the tick's last).
   */
  public QueueOptions withTickBudget(int rows, long bytes) {
    return new QueueOptions(
        queue,
        new RuntimeSettings(
            runtime.writer(),
            rows,
            bytes,
            runtime.dispatchIdleMs(),
            runtime.reclaimLimit(),
            runtime.reclaimIdleMs(),
            runtime.archiveChunkHooks(),
            runtime.archiveIdleMs()),
        archive,
        clock);
  }

  /** The clock the queue stamps and dispatches by: epoch milliseconds (tests pass their own). */
  public QueueOptions withClock(LongSupplier clock) {
    return new QueueOptions(queue, runtime, archive, Objects.requireNonNull(clock, "clock"));
  }

  QueueConfig queue() {
    return queue;
  }

  RuntimeSettings runtime() {
    return runtime;
  }

  ArchiveSink archive() {
    return archive;
  }

  LongSupplier clock() {
    return clock;
  }
}
