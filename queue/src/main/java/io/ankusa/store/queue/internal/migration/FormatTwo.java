package io.ankusa.store.queue.internal.migration;

import static io.ankusa.store.layout.UnsignedBigEndian.putU16;
import static io.ankusa.store.layout.UnsignedBigEndian.putU32;
import static io.ankusa.store.layout.UnsignedBigEndian.putU64;
import static io.ankusa.store.layout.UnsignedBigEndian.u16;
import static io.ankusa.store.layout.UnsignedBigEndian.u32;
import static io.ankusa.store.layout.UnsignedBigEndian.u64;

import io.ankusa.store.layout.Fields;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The legacy store format 2: its column families, its index keys and values. These keys exist only
 * here, in the 2 → 3 migration ({@link TenantKeys}) that reads them and in {@link FormatTwoWriter}
 * that writes them for fixtures and tests; nothing else may build them.
 *
 * <p>Format 2, all integers unsigned big-endian:
 *
 * <pre>
 * family        column family  key                              value
 * hooks         hooks          seq:64                           hook envelope
 * deliveries    deliveries     seq:64 sink:16                   delivery row
 * due           index          'd' at:64 seq:64 sink:16         size:32
 * inflight      index          'f' seq:64 sink:16               size:32
 * dead          index          'x' at:64 seq:64 sink:16         len:32 source_id len:32 hook_id
 * archive       index          'a' seq:64                       size:32
 * format stamp  default        m:format                         format:32 = 2
 * </pre>
 *
 * <p>Families: hooks, deliveries, index, default, audit — no tenants, no counters. The sentinels of
 * the {@code 'd'} and {@code 'f'} families are the prefix and the prefix followed by eight 0xFF
 * bytes; the other families share format 3's sentinels ({@link Keys#family(KeyFamily)}).
 *
 * <p>Ownership: builders return fresh arrays; decoders do not retain their arguments.
 */
public final class FormatTwo {
  /** The layout format of these keys. */
  public static final int FORMAT = 2;

  /** Prefix of a format-2 due key. */
  static final byte DUE_PREFIX = 'd';

  /** Prefix of a format-2 inflight key. */
  static final byte INFLIGHT_PREFIX = 'f';

  private static final List<FamilySpec> FAMILIES =
      List.of(
          FamilySpec.plain(Format3.HOOKS),
          FamilySpec.plain(Format3.DELIVERIES),
          new FamilySpec(Format3.INDEX, false, Format3.INDEX_WRITE_BUFFER, true),
          FamilySpec.plain(Format3.DEFAULT),
          FamilySpec.plain(Format3.AUDIT));

  /** Key families a format-2 store has sentinels for, besides {@code 'd'} and {@code 'f'}. */
  static final List<KeyFamily> SHARED_KEY_FAMILIES =
      List.of(
          KeyFamily.HOOK,
          KeyFamily.DELIVERY,
          KeyFamily.META,
          KeyFamily.DEAD,
          KeyFamily.ARCHIVE,
          KeyFamily.CLEARED,
          KeyFamily.DEDUPE,
          KeyFamily.EXPIRY,
          KeyFamily.AUDIT);

  private FormatTwo() {}

  /** The five column families of a format-2 store: hooks, deliveries, index, default, audit. */
  public static List<FamilySpec> families() {
    return FAMILIES;
  }

  // ---------------------------------------------------------------- keys

  /** {@code 'd' at:64 seq:64 sink:16}. REQUIRES: at, seq non-negative, sink u16. */
  public static byte[] dueKey(long at, long seq, int sink) {
    Fields.requireNonNegative("at", at);
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[19];
    k[0] = DUE_PREFIX;
    putU16(k, putU64(k, putU64(k, 1, at), seq), sink);
    return k;
  }

  /** {@code 'f' seq:64 sink:16}. REQUIRES: seq non-negative, sink u16. */
  public static byte[] inflightKey(long seq, int sink) {
    Fields.requireNonNegative("seq", seq);
    Fields.requireSink(sink);
    byte[] k = new byte[11];
    k[0] = INFLIGHT_PREFIX;
    putU16(k, putU64(k, 1, seq), sink);
    return k;
  }

  /** {@code 'x' at:64 seq:64 sink:16}: the same key as format 3's {@link Keys#dead}. */
  public static byte[] deadKey(long at, long seq, int sink) {
    return Keys.dead(at, seq, sink);
  }

  /** {@code 'a' seq:64}: the same key as format 3's {@link Keys#archive}. */
  public static byte[] archiveKey(long seq) {
    return Keys.archive(seq);
  }

  /** {@code [lo, hi]} sentinels of the {@code 'd'} family: {@code 'd'} and {@code 'd' FF×8}. */
  public static byte[][] dueSentinels() {
    return sentinels(DUE_PREFIX);
  }

  /** {@code [lo, hi]} sentinels of the {@code 'f'} family: {@code 'f'} and {@code 'f' FF×8}. */
  public static byte[][] inflightSentinels() {
    return sentinels(INFLIGHT_PREFIX);
  }

  /** Every real {@code 'd'} key, neither sentinel: {@code ['d' 00, 'd' FF×8)}. */
  public static KeyRange dueRealKeys() {
    return realKeys(DUE_PREFIX);
  }

  /** Every real {@code 'f'} key, neither sentinel. */
  public static KeyRange inflightRealKeys() {
    return realKeys(INFLIGHT_PREFIX);
  }

  /**
   * Everything that starts with {@code 'd'}, sentinels and stray keys included: {@code ['d', 'e')},
   * what the migration's finish step deletes.
   */
  public static KeyRange dueWholeRange() {
    return new KeyRange(Format3.INDEX, new byte[] {DUE_PREFIX}, new byte[] {DUE_PREFIX + 1});
  }

  /** Everything that starts with {@code 'f'}: {@code ['f', 'g')}. */
  public static KeyRange inflightWholeRange() {
    return new KeyRange(
        Format3.INDEX, new byte[] {INFLIGHT_PREFIX}, new byte[] {INFLIGHT_PREFIX + 1});
  }

  private static byte[][] sentinels(byte prefix) {
    byte[] hi = new byte[9];
    Arrays.fill(hi, (byte) 0xFF);
    hi[0] = prefix;
    return new byte[][] {{prefix}, hi};
  }

  private static KeyRange realKeys(byte prefix) {
    byte[][] s = sentinels(prefix);
    return new KeyRange(Format3.INDEX, new byte[] {prefix, 0}, s[1]);
  }

  // ---------------------------------------------------------------- decoded keys and values

  /** A decoded {@code 'd' at seq sink}. */
  public record DueKeyV2(long at, long seq, int sink) {
    /**
     * @throws StoreCorruptionException if {@code key} is not 19 bytes starting with {@code 'd'}
     */
    public static DueKeyV2 decode(byte[] key) {
      if (key.length != 19
          || key[0] != DUE_PREFIX
          || (key[1] & 0x80) != 0
          || (key[9] & 0x80) != 0) {
        throw corruptKey("due", key, "'d' at:64 seq:64 sink:16 (19 bytes)");
      }
      return new DueKeyV2(u64(key, 1), u64(key, 9), u16(key, 17));
    }
  }

  /** A decoded {@code 'f' seq sink}. */
  public record InflightKeyV2(long seq, int sink) {
    /**
     * @throws StoreCorruptionException if {@code key} is not 11 bytes starting with {@code 'f'}
     */
    public static InflightKeyV2 decode(byte[] key) {
      if (key.length != 11 || key[0] != INFLIGHT_PREFIX || (key[1] & 0x80) != 0) {
        throw corruptKey("inflight", key, "'f' seq:64 sink:16 (11 bytes)");
      }
      return new InflightKeyV2(u64(key, 1), u16(key, 9));
    }
  }

  /** The {@code size:32} value of a format-2 due, inflight or archive row. */
  public static byte[] sizeValue(long size) {
    Fields.requireU32("size", size);
    byte[] v = new byte[4];
    putU32(v, 0, size);
    return v;
  }

  /**
   * Decodes a {@code size:32} value stored at {@code key}.
   *
   * @throws StoreCorruptionException if not 4 bytes
   */
  public static long decodeSize(byte[] key, byte[] value) {
    if (value.length != 4) {
      throw new StoreCorruptionException(
          "format-2 index value "
              + Bytes.hex(value)
              + " at key "
              + Bytes.hex(key)
              + " in family 'index' is "
              + value.length
              + " bytes; expected size:32"
              + " (4 bytes). The format-2 store is damaged: restore it from a backup before migrating");
    }
    return u32(value, 0);
  }

  /**
   * The value of a format-2 dead key: {@code len:32 source_id len:32 hook_id} (format 3's {@code
   * DeadValue} without the ord). Ids are copied in and out.
   */
  public record DeadValueV2(byte[] sourceId, byte[] hookId) {
    public DeadValueV2 {
      if (sourceId == null || hookId == null) {
        throw new StoreArgumentException(
            "a format-2 dead value needs a source id and a hook id; got a null");
      }
      sourceId = sourceId.clone();
      hookId = hookId.clone();
    }

    /** UTF-8 ids. */
    public static DeadValueV2 of(String sourceId, String hookId) {
      return new DeadValueV2(
          sourceId.getBytes(StandardCharsets.UTF_8), hookId.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public byte[] sourceId() {
      return sourceId.clone();
    }

    @Override
    public byte[] hookId() {
      return hookId.clone();
    }

    /** The encoding; a fresh array. */
    public byte[] encode() {
      byte[] v = new byte[8 + sourceId.length + hookId.length];
      int o = putU32(v, 0, sourceId.length);
      System.arraycopy(sourceId, 0, v, o, sourceId.length);
      o = putU32(v, o + sourceId.length, hookId.length);
      System.arraycopy(hookId, 0, v, o, hookId.length);
      return v;
    }

    /**
     * Decodes the value at dead key {@code key}.
     *
     * @throws StoreCorruptionException if a length runs past the end or bytes are left over
     */
    public static DeadValueV2 decodeAt(byte[] key, byte[] value) {
      if (value.length >= 8) {
        long sourceLength = u32(value, 0);
        if (sourceLength <= value.length - 8) {
          int hookLengthAt = 4 + (int) sourceLength;
          long hookLength = u32(value, hookLengthAt);
          if (hookLength == value.length - hookLengthAt - 4L) {
            return new DeadValueV2(
                Arrays.copyOfRange(value, 4, hookLengthAt),
                Arrays.copyOfRange(value, hookLengthAt + 4, value.length));
          }
        }
      }
      throw new StoreCorruptionException(
          "format-2 dead value "
              + Bytes.hex(value)
              + " at key "
              + Bytes.hex(key)
              + " in family 'index' does not decode; expected len:32 source_id len:32 hook_id. The format-2"
              + " store is damaged: restore it from a backup before migrating");
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof DeadValueV2 d
          && Arrays.equals(d.sourceId, sourceId)
          && Arrays.equals(d.hookId, hookId);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(sourceId) * 31 + Arrays.hashCode(hookId);
    }

    @Override
    public String toString() {
      return "DeadValueV2[sourceId=" + Bytes.hex(sourceId) + ", hookId=" + Bytes.hex(hookId) + "]";
    }
  }

  private static StoreCorruptionException corruptKey(String what, byte[] key, String shape) {
    return new StoreCorruptionException(
        "format-2 "
            + what
            + " key "
            + Bytes.hex(key)
            + " in family 'index'"
            + " is not well formed; expected "
            + shape
            + ". The format-2 store is damaged: restore it from a"
            + " backup before migrating");
  }
}
