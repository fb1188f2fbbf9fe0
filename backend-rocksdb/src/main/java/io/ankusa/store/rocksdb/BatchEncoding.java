package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * A validated batch as the bytes of a RocksDB write batch, built in one Java array and handed to
 * RocksDB in one call ({@code new WriteBatch(byte[])}). Filling a native batch op by op costs a JNI
 * call per op, and each call copies the key and the value into native memory and frees it; a queue
 * writer's group of 256 hooks holds over a thousand ops. Encoding the batch here and constructing
 * it from the bytes costs a fraction of filling it op by op (docs/measurements/ingest.md has the
 * figures; docs/configuration.md, 'rocksdb').
 *
 * <p>The bytes are the layout RocksDB's own {@code WriteBatch} keeps and appends to its WAL: a
 * 12-byte header (the sequence number, 8 bytes little-endian, left 0 for the write to assign; the
 * record count, 4 bytes little-endian), then one record per op: a type byte; the family's id as a
 * varint32 unless it is the default family (id 0), whose records have types of their own without
 * the id; and each key and value as a varint32 length and its bytes. RocksDB must read that layout
 * back from every WAL it ever wrote, so these record types keep their meaning from one release to
 * the next. {@code BatchEncodingTest} checks the bytes against a native batch filled op by op, for
 * every kind of op and length.
 *
 * <p>A range delete whose {@code lo} is not below {@code hi} removes nothing and is left out, as
 * every write path leaves it out ({@link RocksDbStore#removesNothing}).
 */
final class BatchEncoding {
  /** Record types (RocksDB's {@code ValueType}), for the default family and for the others. */
  static final byte DELETION = 0x0;

  static final byte VALUE = 0x1;
  static final byte MERGE = 0x2;
  static final byte FAMILY_DELETION = 0x4;
  static final byte FAMILY_VALUE = 0x5;
  static final byte FAMILY_MERGE = 0x6;
  static final byte FAMILY_RANGE_DELETION = 0xE;
  static final byte RANGE_DELETION = 0xF;

  /** Bytes before the first record: sequence number and count. */
  static final int HEADER = 12;

  /**
   * Longest encoding made: a Java array's limit with room to spare. A longer batch is filled op by
   * op.
   */
  static final long MAX_BYTES = Integer.MAX_VALUE - 64;

  private BatchEncoding() {}

  /**
   * The write-batch bytes of {@code ops}, in {@code order} (indexes into {@code ops}; null for the
   * ops' own order), or null when they would be longer than {@code maxBytes}. REQUIRES: the ops
   * were validated; {@code familyId} gives the RocksDB column family id of each op's family.
   */
  static byte[] encode(List<Op> ops, int[] order, ToIntFunction<String> familyId, long maxBytes) {
    int n = ops.size();
    int[] ids = new int[n];
    long size = HEADER;
    int count = 0;
    for (int i = 0; i < n; i++) {
      Op op = ops.get(order == null ? i : order[i]);
      long record = op.accept(SIZE);
      if (record < 0) {
        continue;
      }
      int id = familyId.applyAsInt(op.family());
      ids[i] = id;
      size += record + (id == 0 ? 0 : varintLength(id));
      count++;
      if (size > maxBytes) {
        return null;
      }
    }
    byte[] out = new byte[(int) size];
    out[8] = (byte) count;
    out[9] = (byte) (count >>> 8);
    out[10] = (byte) (count >>> 16);
    out[11] = (byte) (count >>> 24);
    Writer writer = new Writer(out);
    for (int i = 0; i < n; i++) {
      writer.id = ids[i];
      ops.get(order == null ? i : order[i]).accept(writer);
    }
    if (writer.pos != out.length) {
      throw new IllegalStateException(
          "write batch encoding wrote " + writer.pos + " of " + out.length + " bytes");
    }
    return out;
  }

  /** A record's length without its family id; -1 for a record left out (an empty range delete). */
  private static final Op.Visitor<Long> SIZE =
      new Op.Visitor<>() {
        @Override
        public Long put(Op.Put p) {
          return 1L + slice(p.key().length) + slice(p.value().length);
        }

        @Override
        public Long delete(Op.Delete d) {
          return 1L + slice(d.key().length);
        }

        @Override
        public Long deleteRange(Op.DeleteRange r) {
          return RocksDbStore.removesNothing(r)
              ? -1L
              : 1L + slice(r.lo().length) + slice(r.hi().length);
        }

        @Override
        public Long merge(Op.Merge m) {
          return 1L + slice(m.key().length) + slice(Int64Add.WIDTH);
        }
      };

  private static long slice(int length) {
    return varintLength(length) + (long) length;
  }

  private static int varintLength(int value) {
    int n = 1;
    while ((value & ~0x7F) != 0) {
      value >>>= 7;
      n++;
    }
    return n;
  }

  /** Writes records into one array; {@link #id} is the family id of the op it is given next. */
  private static final class Writer implements Op.Visitor<Void> {
    private final byte[] out;
    int pos = HEADER;
    int id;

    Writer(byte[] out) {
      this.out = out;
    }

    @Override
    public Void put(Op.Put p) {
      type(VALUE, FAMILY_VALUE);
      slice(p.key());
      slice(p.value());
      return null;
    }

    @Override
    public Void delete(Op.Delete d) {
      type(DELETION, FAMILY_DELETION);
      slice(d.key());
      return null;
    }

    @Override
    public Void deleteRange(Op.DeleteRange r) {
      if (!RocksDbStore.removesNothing(r)) {
        type(RANGE_DELETION, FAMILY_RANGE_DELETION);
        slice(r.lo());
        slice(r.hi());
      }
      return null;
    }

    @Override
    public Void merge(Op.Merge m) {
      type(MERGE, FAMILY_MERGE);
      slice(m.key());
      slice(Int64Add.encode(m.delta()));
      return null;
    }

    private void type(byte defaultFamily, byte otherFamily) {
      if (id == 0) {
        out[pos++] = defaultFamily;
      } else {
        out[pos++] = otherFamily;
        varint(id);
      }
    }

    private void slice(byte[] bytes) {
      varint(bytes.length);
      System.arraycopy(bytes, 0, out, pos, bytes.length);
      pos += bytes.length;
    }

    private void varint(int value) {
      while ((value & ~0x7F) != 0) {
        out[pos++] = (byte) ((value & 0x7F) | 0x80);
        value >>>= 7;
      }
      out[pos++] = (byte) value;
    }
  }
}
