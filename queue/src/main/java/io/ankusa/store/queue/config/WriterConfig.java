package io.ankusa.store.queue.config;

import io.ankusa.store.spi.StoreArgumentException;

/**
 * The settings of a {@link io.ankusa.store.queue.internal.ingest.QueueWriter}.
 *
 * @param maxGroupHooks most requests in one group (one batch, one {@code NO_SYNC} write); default
 *     256
 * @param maxGroupBytes most payload bytes in one group (a single larger request still forms a group
 *     of its own); default 4 MiB
 * @param queueCapacity most requests waiting for the writer, and also most hooks applied but not
 *     yet durable: beyond either, {@code ingest} answers UNAVAILABLE {@code "overloaded"} at once,
 *     so memory stays bounded while the disk is slow; default 65 536. A waiting request holds its
 *     payload twice (as given, and inside its envelope, encoded on the caller's thread), so the
 *     queue's memory is bounded by about {@code queueCapacity × 2 × maxPayloadBytes}
 * @param maxPayloadBytes largest payload accepted (REJECTED {@code "oversized payload"} beyond);
 *     default 1 MiB
 * @param dedupeTtlMs how long an idempotency key is remembered after its hook is stored (at least:
 *     keys are deleted by the sweep after that); default 24 h
 * @param dedupeSweepIntervalMs how often the writer sweeps expired dedupe keys ({@link
 *     io.ankusa.store.queue.internal.maintenance.DedupeExpiry}); it sweeps between groups once this
 *     much time has passed since the last sweep, and again at the next idle moment while a sweep
 *     still finds a full chunk; default 10 s
 */
public record WriterConfig(
    int maxGroupHooks,
    long maxGroupBytes,
    int queueCapacity,
    int maxPayloadBytes,
    long dedupeTtlMs,
    long dedupeSweepIntervalMs) {

  public static final int DEFAULT_MAX_GROUP_HOOKS = 256;
  public static final long DEFAULT_MAX_GROUP_BYTES = 4L << 20;
  public static final int DEFAULT_QUEUE_CAPACITY = 65_536;
  public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1 << 20;
  public static final long DEFAULT_DEDUPE_TTL_MS = 24L * 3600 * 1000;
  public static final long DEFAULT_DEDUPE_SWEEP_INTERVAL_MS = 10_000;

  /** The longest dedupe TTL accepted: 100 years, so {@code now + ttl} never overflows. */
  public static final long MAX_DEDUPE_TTL_MS = 100L * 366 * 24 * 3600 * 1000;

  /** REQUIRES: every field positive; dedupeTtlMs at most {@link #MAX_DEDUPE_TTL_MS}. */
  public WriterConfig {
    positive("maxGroupHooks", maxGroupHooks);
    positive("maxGroupBytes", maxGroupBytes);
    positive("queueCapacity", queueCapacity);
    positive("maxPayloadBytes", maxPayloadBytes);
    positive("dedupeTtlMs", dedupeTtlMs);
    positive("dedupeSweepIntervalMs", dedupeSweepIntervalMs);
    if (dedupeTtlMs > MAX_DEDUPE_TTL_MS) {
      throw new StoreArgumentException(
          "writer dedupeTtlMs = "
              + dedupeTtlMs
              + " is longer than "
              + MAX_DEDUPE_TTL_MS
              + " (100 years)");
    }
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new StoreArgumentException("writer " + name + " = " + value + " must be at least 1");
    }
  }

  /** The defaults listed above. */
  public static WriterConfig defaults() {
    return new WriterConfig(
        DEFAULT_MAX_GROUP_HOOKS,
        DEFAULT_MAX_GROUP_BYTES,
        DEFAULT_QUEUE_CAPACITY,
        DEFAULT_MAX_PAYLOAD_BYTES,
        DEFAULT_DEDUPE_TTL_MS,
        DEFAULT_DEDUPE_SWEEP_INTERVAL_MS);
  }

  public WriterConfig withMaxGroupHooks(int n) {
    return new WriterConfig(
        n, maxGroupBytes, queueCapacity, maxPayloadBytes, dedupeTtlMs, dedupeSweepIntervalMs);
  }

  public WriterConfig withQueueCapacity(int n) {
    return new WriterConfig(
        maxGroupHooks, maxGroupBytes, n, maxPayloadBytes, dedupeTtlMs, dedupeSweepIntervalMs);
  }

  public WriterConfig withMaxPayloadBytes(int n) {
    return new WriterConfig(
        maxGroupHooks, maxGroupBytes, queueCapacity, n, dedupeTtlMs, dedupeSweepIntervalMs);
  }

  public WriterConfig withDedupeTtlMs(long ms) {
    return new WriterConfig(
        maxGroupHooks, maxGroupBytes, queueCapacity, maxPayloadBytes, ms, dedupeSweepIntervalMs);
  }

  public WriterConfig withDedupeSweepIntervalMs(long ms) {
    return new WriterConfig(
        maxGroupHooks, maxGroupBytes, queueCapacity, maxPayloadBytes, dedupeTtlMs, ms);
  }
}
