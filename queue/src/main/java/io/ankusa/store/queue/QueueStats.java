package io.ankusa.store.queue;

/**
 * The queue's state and what its runtime did since it opened. The counts are the queue's counters
 * (exact and cheap: a few point reads, never a scan); the oldest due age comes from the active
 * index.
 *
 * @param pending deliveries waiting for their first attempt (or revived, or recovered)
 * @param scheduled deliveries waiting for a retry
 * @param inflight deliveries claimed and not answered yet
 * @param dead deliveries in the dead-letter queue
 * @param bytes payload bytes every delivery of the queue holds (a hook with n sinks counts n times)
 * @param archivePending hooks not yet copied to the archive
 * @param oldestDueAgeMs how long the oldest delivery due now has waited, in ms; 0 when none is due
 * @param tenants tenants ever seen (erased ones included)
 * @param delivered deliveries answered delivered since open
 * @param retried deliveries answered retry since open
 * @param deadLettered deliveries answered dead-letter since open
 * @param handlerFailures calls of the handler that threw, since open
 * @param reclaimed hooks deleted since open because nothing owed them any more (every sink
 *     answered, the archive settled)
 */
public record QueueStats(
    long pending,
    long scheduled,
    long inflight,
    long dead,
    long bytes,
    long archivePending,
    long oldestDueAgeMs,
    long tenants,
    long delivered,
    long retried,
    long deadLettered,
    long handlerFailures,
    long reclaimed) {

  /** Deliveries waiting: pending and scheduled. */
  public long due() {
    return pending + scheduled;
  }
}
