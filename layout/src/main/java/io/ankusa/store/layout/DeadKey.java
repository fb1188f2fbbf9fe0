package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded dead key, time order, {@code 'x' at:64 seq:64 sink:16} ({@link KeyFamily#DEAD}); the
 * tenant is in its value ({@link DeadValue#ord()}). Build keys with {@link Keys#dead}.
 *
 * @param at when the delivery was dead-lettered, epoch milliseconds, non-negative
 * @param seq the hook's sequence, non-negative
 * @param sink the sink, 0..65535
 */
public record DeadKey(long at, long seq, int sink) {
  static final int LENGTH = 19;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public DeadKey {
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
  }

  /**
   * Decodes a dead key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 19 bytes starting
   *     with {@code 'x'}, or a field is out of range
   */
  public static DeadKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.DEAD, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.DEAD, key, () -> new DeadKey(u64(key, 1), u64(key, 9), u16(key, 17)));
  }
}
