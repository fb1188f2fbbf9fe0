package io.ankusa.store.spi;

/**
 * How durable a {@link Store#write(Batch, Durability)} is when it returns.
 *
 * <ul>
 *   <li>{@link #SYNC}: on a backend that claims {@link Capabilities#durableAfterProcessKill()}, the
 *       batch survives a kill -9 of the process, and a power cut too where the suite can put the
 *       backend's files on its power-cut file system (properties {@code syncWritesSurviveReopen},
 *       {@code crashKeepsAcknowledgedWritesAndWholeBatches}, {@code
 *       acknowledgedBatchesSurvivePowerCuts}).
 *   <li>{@link #NO_SYNC}: the batch is visible to readers at once and becomes durable with the next
 *       returned {@link Store#syncWal()} (property {@code noSyncWritesSurviveReopenAfterSyncWal}).
 * </ul>
 */
public enum Durability {
  SYNC,
  NO_SYNC
}
