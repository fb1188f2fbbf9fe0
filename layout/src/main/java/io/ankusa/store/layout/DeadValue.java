package io.ankusa.store.layout;

import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The value of a dead key {@code 'x' at seq sink}: {@code ord:32 len:32 source_id len:32 hook_id},
 * the two ids as length-prefixed byte strings (u32 lengths). The ord is what lets a tenant-scoped
 * dead page filter {@code 'x'} rows without reading hooks.
 *
 * <p>Ownership: the constructor copies both arrays; the accessors return fresh copies.
 *
 * @param ord the tenant's ordinal, 1..{@link Fields#MAX_ORDINAL}
 * @param sourceId the source the hook came from, any bytes (UTF-8 by convention)
 * @param hookId the hook's id, any bytes (UTF-8 by convention)
 */
public record DeadValue(long ord, byte[] sourceId, byte[] hookId) {
  static final String SHAPE = "ord:32 len:32 source_id len:32 hook_id (at least 12 bytes)";

  /** REQUIRES: ord 1..MAX_ORDINAL, non-null ids. */
  public DeadValue {
    Fields.requireTenantOrd(ord);
    if (sourceId == null || hookId == null) {
      throw new StoreArgumentException("dead value needs a source id and a hook id; got a null");
    }
    sourceId = sourceId.clone();
    hookId = hookId.clone();
  }

  /** A dead value with UTF-8 ids. REQUIRES: non-null strings. */
  public static DeadValue of(long ord, String sourceId, String hookId) {
    if (sourceId == null || hookId == null) {
      throw new StoreArgumentException("dead value needs a source id and a hook id; got a null");
    }
    return new DeadValue(
        ord, sourceId.getBytes(StandardCharsets.UTF_8), hookId.getBytes(StandardCharsets.UTF_8));
  }

  /** The source id: a fresh copy. */
  @Override
  public byte[] sourceId() {
    return sourceId.clone();
  }

  /** The hook id: a fresh copy. */
  @Override
  public byte[] hookId() {
    return hookId.clone();
  }

  /** The encoding; a fresh array owned by the caller. */
  public byte[] encode() {
    byte[] v = new byte[12 + sourceId.length + hookId.length];
    int o = putU32(v, putU32(v, 0, ord), sourceId.length);
    System.arraycopy(sourceId, 0, v, o, sourceId.length);
    o = putU32(v, o + sourceId.length, hookId.length);
    System.arraycopy(hookId, 0, v, o, hookId.length);
    return v;
  }

  /** {@link #decodeAt(byte[], byte[])} without a key to name in errors. */
  public static DeadValue decode(byte[] value) {
    return decodeAt(null, value);
  }

  /**
   * Decodes the value stored at dead key {@code key} (named in errors; may be null). Not retained.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if a length runs past the end, bytes are
   *     left over, or ord is out of range
   */
  public static DeadValue decodeAt(byte[] key, byte[] value) {
    if (value == null) {
      throw new StoreArgumentException("cannot decode a null DEAD value");
    }
    if (value.length < 12) {
      throw LayoutCorruption.value(
          KeyFamily.DEAD, key, value, SHAPE, "is " + value.length + " bytes");
    }
    long sourceLength = u32(value, 4);
    if (sourceLength > value.length - 12) {
      throw LayoutCorruption.value(
          KeyFamily.DEAD,
          key,
          value,
          SHAPE,
          "has a source id length " + sourceLength + " past its end");
    }
    int hookLengthAt = 8 + (int) sourceLength;
    long hookLength = u32(value, hookLengthAt);
    if (hookLength != value.length - hookLengthAt - 4L) {
      throw LayoutCorruption.value(
          KeyFamily.DEAD,
          key,
          value,
          SHAPE,
          "has a hook id length "
              + hookLength
              + " but "
              + (value.length - hookLengthAt - 4)
              + " bytes follow it");
    }
    byte[] source = Arrays.copyOfRange(value, 8, hookLengthAt);
    byte[] hook = Arrays.copyOfRange(value, hookLengthAt + 4, value.length);
    return LayoutCorruption.decodedValue(
        KeyFamily.DEAD, key, value, SHAPE, () -> new DeadValue(u32(value, 0), source, hook));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeadValue d
        && d.ord == ord
        && Arrays.equals(d.sourceId, sourceId)
        && Arrays.equals(d.hookId, hookId);
  }

  @Override
  public int hashCode() {
    return (Long.hashCode(ord) * 31 + Arrays.hashCode(sourceId)) * 31 + Arrays.hashCode(hookId);
  }

  @Override
  public String toString() {
    return "DeadValue[ord="
        + ord
        + ", sourceId="
        + Bytes.hex(sourceId)
        + ", hookId="
        + Bytes.hex(hookId)
        + "]";
  }
}
