package io.ankusa.store.queue.internal.record;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the queue's versioned binary records (hook envelopes, delivery rows): fixed-width
 * big-endian integers and length-prefixed byte strings. The counterpart is {@link RecordReader}.
 *
 * <p>Writes into one array, grown when a write does not fit; {@link #toByteArray} hands over that
 * array itself when the record filled it exactly (a caller that knows the size up front gets it
 * without a copy). One record per writer; not thread-safe.
 */
final class RecordWriter {
  private byte[] buf;
  private int pos;

  RecordWriter(int sizeHint) {
    buf = new byte[Math.max(sizeHint, 16)];
  }

  private void ensure(int more) {
    int need = pos + more;
    if (need < 0) {
      throw new IllegalStateException("a record of more than " + Integer.MAX_VALUE + " bytes");
    }
    if (need > buf.length) {
      int doubled =
          buf.length > (Integer.MAX_VALUE - 8) / 2 ? Integer.MAX_VALUE - 8 : buf.length * 2;
      buf = Arrays.copyOf(buf, Math.max(need, doubled));
    }
  }

  RecordWriter u8(int v) {
    ensure(1);
    buf[pos++] = (byte) v;
    return this;
  }

  RecordWriter u16(int v) {
    ensure(2);
    buf[pos++] = (byte) (v >>> 8);
    buf[pos++] = (byte) v;
    return this;
  }

  RecordWriter u32(long v) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) {
      buf[pos++] = (byte) (v >>> shift);
    }
    return this;
  }

  RecordWriter u64(long v) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buf[pos++] = (byte) (v >>> shift);
    }
    return this;
  }

  /** A byte string as {@code length:32} then the bytes. */
  RecordWriter bytes(byte[] b) {
    u32(b.length);
    ensure(b.length);
    System.arraycopy(b, 0, buf, pos, b.length);
    pos += b.length;
    return this;
  }

  /** A UTF-8 string as {@link #bytes}. */
  RecordWriter string(String s) {
    return bytes(utf8(s));
  }

  /** A presence byte (0 absent, 1 present), then the string when present. */
  RecordWriter optionalString(String s) {
    return optionalUtf8(utf8(s));
  }

  /** {@link #optionalString} of a string already encoded as UTF-8 ({@code null}: absent). */
  RecordWriter optionalUtf8(byte[] utf8) {
    if (utf8 == null) {
      return u8(0);
    }
    return u8(1).bytes(utf8);
  }

  /** The UTF-8 bytes of {@code s}, or null for null. */
  static byte[] utf8(String s) {
    return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The record written: the writer's own array when it is exactly full, else a copy of the written
   * part. The writer is done then; write nothing more to it.
   */
  byte[] toByteArray() {
    return pos == buf.length ? buf : Arrays.copyOf(buf, pos);
  }
}
