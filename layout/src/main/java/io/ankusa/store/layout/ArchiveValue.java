package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

/**
 * The value of an archive obligation {@code 'a' seq}: {@code size:32 ord:32} (8 bytes).
 *
 * @param size the hook's size in bytes, 0..4294967295
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 */
public record ArchiveValue(long size, long ord) {
  static final String SHAPE = "size:32 ord:32 (8 bytes)";

  /** REQUIRES: size u32, ord 1..MAX_ORDINAL. */
  public ArchiveValue {
    Fields.requireU32("size", size);
    Fields.requireTenantOrd(ord);
  }

  /** The 8-byte encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[8];
    putU32(v, putU32(v, 0, size), ord);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static ArchiveValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at archive key {@code key} (named in errors; may be null).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if not 8 bytes or ord is 0 or 0xFFFFFFFF
   */
  public static ArchiveValue decodeAt(byte[] key, byte[] value) {
    LayoutCorruption.requireValueLength(KeyFamily.ARCHIVE, key, value, SHAPE, 8);
    return LayoutCorruption.decodedValue(
        KeyFamily.ARCHIVE, key, value, SHAPE, () -> new ArchiveValue(u32(value, 0), u32(value, 4)));
  }
}
