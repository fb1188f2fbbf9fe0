package io.ankusa.store.queue.internal.maintenance;

import io.ankusa.store.layout.ExpiryKey;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.List;

/**
 * Forgetting idempotency keys: each dedupe key {@code 'u' tenant 0 key} has an expiry key {@code
 * 'e' at tenant 0 key} written in the same batch ({@link
 * io.ankusa.store.queue.internal.ingest.QueueWriter}); a sweep deletes the expiry keys with {@code
 * at <= now} and their dedupe keys, oldest first, in chunks of {@value #CHUNK} per batch. Until
 * swept a key is still honoured: the TTL is a minimum.
 *
 * <p>The {@link io.ankusa.store.queue.internal.ingest.QueueWriter} runs it on its own thread
 * between groups (see {@link io.ankusa.store.queue.config.WriterConfig#dedupeSweepIntervalMs()}).
 * Run beside a writer it is still safe: the writer writes a dedupe key only when absent, so a sweep
 * never deletes a key newer than the expiry key it found. Writes are {@code NO_SYNC}: a delete lost
 * in a crash is simply done again by the next sweep.
 */
public final class DedupeExpiry {
  /** Keys deleted per batch. */
  public static final int CHUNK = 500;

  private DedupeExpiry() {}

  /**
   * Deletes up to {@code limit} expired dedupe keys (those whose expiry is at or before {@code
   * now}) with their expiry keys; returns how many were deleted. REQUIRES: {@code now >= 0}, {@code
   * limit >= 0}.
   */
  public static int sweep(DeliveryQueue queue, long now, int limit) {
    int deleted = 0;
    while (deleted < limit) {
      int want = Math.min(CHUNK, limit - deleted);
      KeyRange range = Keys.expiryUpTo(now);
      List<byte[]> expired = new ArrayList<>(want);
      try (Scan scan =
          queue.store().scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
        while (expired.size() < want && scan.hasNext()) {
          expired.add(scan.next().key());
        }
      }
      if (expired.isEmpty()) {
        break;
      }
      Batch batch = new Batch();
      for (byte[] key : expired) {
        ExpiryKey e = ExpiryKey.decode(key);
        batch.delete(range.columnFamily(), key);
        batch.delete(range.columnFamily(), Keys.dedupe(e.tenant(), e.key()));
      }
      queue.store().write(batch, Durability.NO_SYNC);
      deleted += expired.size();
      if (expired.size() < want) {
        break;
      }
    }
    return deleted;
  }
}
