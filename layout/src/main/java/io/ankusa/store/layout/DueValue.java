package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

import java.util.Objects;

/**
 * The value of a due key: {@code size:32 kind:8} (5 bytes).
 *
 * @param size the delivery's size in bytes, 0..4294967295 (what {@link CounterField#BYTES} counts)
 * @param kind first attempt (0) or retry (1)
 */
public record DueValue(long size, DueKind kind) {
  static final String SHAPE = "size:32 kind:8 (5 bytes, kind 0 or 1)";

  /** REQUIRES: size u32, non-null kind. */
  public DueValue {
    Fields.requireU32("size", size);
    Objects.requireNonNull(kind, "kind");
  }

  /** The 5-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[5];
    putU32(v, 0, size);
    v[4] = (byte) kind.code();
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static DueValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at due key {@code key} (named in errors; may be null). Not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 5 bytes or the kind byte is not 0
   *     or 1
   */
  public static DueValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.DUE, key, value, SHAPE, 5);
    DueKind kind = DueKind.ofCode(value[4] & 0xff);
    if (kind == null) {
      throw LayoutCorruption.value(
          KeyFamily.DUE, key, value, SHAPE, "has kind " + (value[4] & 0xff));
    }
    return new DueValue(u32(value, 0), kind);
  }
}
