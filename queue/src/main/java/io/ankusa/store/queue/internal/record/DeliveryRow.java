package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.spi.StoreArgumentException;

/**
 * The state of one delivery — one hook to one sink — kept in the deliveries family under {@code
 * seq:64 sink:16}. Where the delivery stands (due, inflight, dead) is in the index family; this row
 * holds what the index keys do not.
 *
 * <p>Binary form, version 1: {@code version:8 attempts:32 nextAttemptAt:64 lastError? size:32}.
 *
 * @param attempts delivery attempts made so far
 * @param nextAttemptAt epoch ms of the next attempt (the due row's {@code at}); 0 when not due
 * @param lastError the last attempt's error, or {@code null}
 * @param size bytes this delivery counts for in the {@code bytes} counter (the hook's payload size)
 */
public record DeliveryRow(long attempts, long nextAttemptAt, String lastError, long size) {
  public static final int VERSION = 1;

  public DeliveryRow {
    if (attempts < 0
        || attempts > 0xFFFFFFFFL
        || size < 0
        || size > 0xFFFFFFFFL
        || nextAttemptAt < 0) {
      throw new StoreArgumentException(
          "delivery row out of range: attempts="
              + attempts
              + " size="
              + size
              + " nextAttemptAt="
              + nextAttemptAt);
    }
  }

  /** A new row: no attempt yet, due at {@code at}. */
  public static DeliveryRow first(long at, long size) {
    return new DeliveryRow(0, at, null, size);
  }

  public byte[] encode() {
    return new RecordWriter(32)
        .u8(VERSION)
        .u32(attempts)
        .u64(nextAttemptAt)
        .optionalString(lastError)
        .u32(size)
        .toByteArray();
  }

  /** {@link #decodeAt} without a key to name in errors. */
  public static DeliveryRow decode(byte[] bytes) {
    return decodeAt(null, bytes);
  }

  /**
   * Decodes the row stored at delivery key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if truncated, of another version or with
   *     bytes left over; the message names the key, the family and the field where decoding stopped
   */
  public static DeliveryRow decodeAt(byte[] key, byte[] bytes) {
    RecordReader r = new RecordReader("delivery row", KeyFamily.DELIVERY, key, bytes);
    int version = r.u8("version");
    if (version != VERSION) {
      throw r.error("version", "is " + version + "; this release reads version " + VERSION);
    }
    long attempts = r.u32("attempts");
    long nextAttemptAt = r.u64("nextAttemptAt");
    String lastError = r.optionalString("lastError");
    long size = r.u32("size");
    r.end();
    try {
      return new DeliveryRow(attempts, nextAttemptAt, lastError, size);
    } catch (StoreArgumentException e) {
      throw r.corruption(e.getMessage());
    }
  }
}
