package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.u32;

import java.util.Objects;

/**
 * A decoded counter key {@code ord:32 field:8} ({@link KeyFamily#COUNTERS}); the value is an {@link
 * io.ankusa.store.spi.Int64Add}. Build keys with {@link Keys#counter(long, CounterField)}.
 *
 * @param ord 0 (the node aggregate) or a tenant's ordinal 1..{@link Fields#MAX_ORDINAL}
 * @param field the counter
 */
public record CounterKey(long ord, CounterField field) {
  static final int LENGTH = 5;

  /** REQUIRES: ord in range and a non-null field. */
  public CounterKey {
    Fields.requireCounterOrd(ord);
    Objects.requireNonNull(field, "field");
  }

  /**
   * Decodes a counter key; {@code key} is not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if {@code key} is not 5 bytes, the field
   *     byte is not 1..6, or ord is 0xFFFFFFFF
   */
  public static CounterKey decode(byte[] key) {
    LayoutCorruption.requireKeyShape(KeyFamily.COUNTERS, key, LENGTH);
    CounterField field = CounterField.ofCode(key[4] & 0xff);
    if (field == null) {
      throw LayoutCorruption.key(
          KeyFamily.COUNTERS, key, "has field byte " + (key[4] & 0xff) + ", not one of 1..6");
    }
    return LayoutCorruption.decodedKey(
        KeyFamily.COUNTERS, key, () -> new CounterKey(u32(key, 0), field));
  }
}
