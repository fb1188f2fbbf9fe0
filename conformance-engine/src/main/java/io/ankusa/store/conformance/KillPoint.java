package io.ankusa.store.conformance;

/**
 * Where the crash case ({@link CrashCases}) and the power-cut case stop the writer of {@link
 * CrashScript}: each point shows a different way of committing late. A crash case that kills more
 * than once visits them in this order.
 */
public enum KillPoint {
  /**
   * Right after the last of the {@code SYNC} batches returned, with no {@code syncWal()} after any
   * of them: a {@code SYNC} write left uncommitted (or unsynced) until the next {@code syncWal()}
   * is lost.
   */
  AFTER_SYNC_WRITE,
  /**
   * After the {@code syncWal()} rounds, while a round of {@code NO_SYNC} batches is written and not
   * yet synced: what the last returned {@code syncWal()} covered is there, the round after it whole
   * or absent batch by batch.
   */
  BETWEEN_SYNC_WALS,
  /**
   * While {@value CrashScript#GROUP_THREADS} threads write {@code SYNC} batches at once, so the
   * engine commits them in groups: every batch whose write returned is there, the ones in flight
   * whole or absent.
   */
  INSIDE_GROUP_COMMIT,
  /**
   * While a batch of {@value CrashScript#BIG_BATCH_BYTES} bytes is written {@code NO_SYNC} (or
   * synced after): it is whole or absent, never the part an engine committed when a buffer filled.
   */
  INSIDE_BIG_BATCH;

  /** The point of the {@code n}th kill (from 1): the points in order, round and round. */
  public static KillPoint ofKill(int n) {
    return values()[(n - 1) % values().length];
  }
}
