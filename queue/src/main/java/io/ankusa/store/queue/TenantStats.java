package io.ankusa.store.queue;

/**
 * One tenant's deliveries, from its counters (six point reads).
 *
 * @param pending waiting for their first attempt
 * @param scheduled waiting for a retry
 * @param inflight claimed and not answered yet
 * @param dead in the dead-letter queue
 * @param bytes payload bytes they hold
 */
public record TenantStats(long pending, long scheduled, long inflight, long dead, long bytes) {}
