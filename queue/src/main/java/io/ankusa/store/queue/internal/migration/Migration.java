package io.ankusa.store.queue.internal.migration;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Store;

/**
 * One forward migration of the store layout, from {@link #fromFormat()} to {@link #toFormat()}, run
 * in bounded steps by {@link Migrate}. A step reads the store, returns the ops that move the next
 * slice of rows and the cursor after them; {@link Migrate} commits the ops and the cursor in ONE
 * {@code SYNC} batch, so a crash leaves both or neither and the migration resumes from the last
 * committed cursor without doing a slice twice (property {@code
 * resumesAnInterruptedMigrationWithoutDoubleCounting}).
 */
public interface Migration {

  /** The format this migration reads. */
  int fromFormat();

  /** The format this migration writes. */
  int toFormat();

  /**
   * The dry-run line, e.g. {@code 2 -> 3: re-key due/inflight/dead by tenant ordinal, seed
   * per-tenant counters}.
   */
  String plan();

  /**
   * The next step. REQUIRES: the store is at {@link #fromFormat()} (possibly part-way migrated) and
   * {@code cursor} is what the previous step returned and {@link Migrate} committed, or {@code
   * null} for the first step. Reads only; writes nothing.
   *
   * @param cursor the committed cursor, or null to start; not retained
   */
  Step step(Store store, byte[] cursor);

  /**
   * One step: the ops to commit, and the cursor to commit with them — or none when this step
   * finishes the migration (then the runner adds the format stamp and deletes the cursor in the
   * same batch).
   *
   * @param ops the ops of this step; owned by the runner once returned
   * @param cursor the next cursor, or null when this step is the last
   * @param rows how many old rows this step moved (for progress and rows/s)
   * @param committed to call once the batch carrying {@code ops} has been written (e.g. {@code
   *     TenantAllocator.Allocation.committed()}); never called if the write failed
   */
  record Step(Batch ops, byte[] cursor, int rows, Runnable committed) {
    /** Whether this step finishes the migration. */
    public boolean done() {
      return cursor == null;
    }
  }
}
