package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

/**
 * A decoded delivery row key {@code seq:64 sink:16} ({@link KeyFamily#DELIVERY}). Build keys with
 * {@link Keys#delivery(long, int)}.
 *
 * @param seq the hook's sequence, non-negative
 * @param sink the sink, 0..65535
 */
public record DeliveryKey(long seq, int sink) {
  static final int LENGTH = 10;

  /** REQUIRES: every field in range, else {@link io.ankusa.store.spi.StoreArgumentException}. */
  public DeliveryKey {
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
  }

  /**
   * Decodes a delivery row key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 10 bytes or seq is
   *     out of range
   */
  public static DeliveryKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.DELIVERY, key, LENGTH);
    return LayoutCorruption.decodedKey(
        KeyFamily.DELIVERY, key, () -> new DeliveryKey(u64(key, 0), u16(key, 8)));
  }
}
