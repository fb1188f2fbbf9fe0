package io.ankusa.store.queue.internal.ingest;

/**
 * What a {@link QueueWriter} has done since it started, and its watermark, read without locks (each
 * field is read separately, so the record is not one atomic picture while the writer runs).
 *
 * @param groups groups written (one {@code NO_SYNC} batch each); groups of duplicates only write
 *     nothing and are not counted
 * @param syncs {@code syncWal()} calls that returned; fewer than {@code groups} under load is the
 *     point of the design
 * @param hooks hooks written (CREATED, or deleted again by a fence)
 * @param duplicates requests answered (or to be answered) DUPLICATE
 * @param fences failed writes or syncs that fenced the queue
 * @param durableSeq every hook up to it is durable
 * @param appliedSeq the highest seq written (visible to readers, maybe not durable)
 * @param durableAt the writer's clock when the newest durable group was applied
 */
public record WriterStats(
    long groups,
    long syncs,
    long hooks,
    long duplicates,
    long fences,
    long durableSeq,
    long appliedSeq,
    long durableAt) {

  /** Syncs per written group: 1.0 is no batching at all; lower is better. 0 with no group. */
  public double syncsPerGroup() {
    return groups == 0 ? 0 : (double) syncs / groups;
  }
}
