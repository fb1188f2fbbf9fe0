package io.ankusa.store.queue.internal.runtime;

import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.Objects;

/**
 * The settings of a {@link QueueRuntime} beyond the queue's own ({@link
 * io.ankusa.store.queue.config.QueueConfig}): its writer's, and how its loops pace themselves.
 * Every option, its default and range, is in docs/configuration.md.
 *
 * @param writer the writer's settings
 * @param dispatchRows most rows one tick claims; default 4 096. A tick's own reads (the markers,
 *     each tenant's limits and due rows) and writes cost about the same however many rows it
 *     claims, so larger ticks spend less per row; the byte budget usually ends a tick first
 * @param dispatchBytes most bytes one tick claims; default 4 MiB
 * @param dispatchIdleMs the dispatcher's pause after a tick that claimed nothing; default 5
 * @param reclaimLimit most cleared markers one reclaim pass visits; default 10 000
 * @param reclaimIdleMs the reclaimer's pause after a pass that ended its lap (it starts the next
 *     pass at once while markers are left ahead of its cursor); default 100
 * @param archiveChunkHooks hooks per archive chunk; default {@value Archiver#DEFAULT_CHUNK_HOOKS}
 * @param archiveIdleMs the archiver's pause after a chunk that found nothing; default 10
 */
public record RuntimeSettings(
    WriterConfig writer,
    int dispatchRows,
    long dispatchBytes,
    long dispatchIdleMs,
    int reclaimLimit,
    long reclaimIdleMs,
    int archiveChunkHooks,
    long archiveIdleMs) {

  /** REQUIRES: a writer config; every count and pause at least 1. */
  public RuntimeSettings {
    Objects.requireNonNull(writer, "writer");
    positive("dispatchRows", dispatchRows);
    positive("dispatchBytes", dispatchBytes);
    positive("dispatchIdleMs", dispatchIdleMs);
    positive("reclaimLimit", reclaimLimit);
    positive("reclaimIdleMs", reclaimIdleMs);
    positive("archiveChunkHooks", archiveChunkHooks);
    positive("archiveIdleMs", archiveIdleMs);
  }

  /** The defaults listed above. */
  public static RuntimeSettings defaults() {
    return new RuntimeSettings(
        WriterConfig.defaults(), 4_096, 4L << 20, 5, 10_000, 100, Archiver.DEFAULT_CHUNK_HOOKS, 10);
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new StoreArgumentException(
          "queue runtime " + name + " = " + value + " must be at least 1");
    }
  }
}
