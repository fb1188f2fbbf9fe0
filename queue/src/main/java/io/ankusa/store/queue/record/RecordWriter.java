package io.ankusa.store.queue.record;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes the queue's versioned binary records (hook envelopes, delivery rows): fixed-width
 * big-endian integers and length-prefixed byte strings. The counterpart is {@link RecordReader}.
 */
final class RecordWriter {
  private final ByteArrayOutputStream out;

  RecordWriter(int sizeHint) {
    out = new ByteArrayOutputStream(sizeHint);
  }

  RecordWriter u8(int v) {
    out.write(v);
    return this;
  }

  RecordWriter u16(int v) {
    out.write(v >>> 8);
    out.write(v);
    return this;
  }

  RecordWriter u32(long v) {
    for (int shift = 24; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
    return this;
  }

  RecordWriter u64(long v) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
    return this;
  }

  /** A byte string as {@code length:32} then the bytes. */
  RecordWriter bytes(byte[] b) {
    u32(b.length);
    out.write(b, 0, b.length);
    return this;
  }

  /** A UTF-8 string as {@link #bytes}. */
  RecordWriter string(String s) {
    return bytes(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A presence byte (0 absent, 1 present), then the string when present. */
  RecordWriter optionalString(String s) {
    if (s == null) {
      return u8(0);
    }
    return u8(1).string(s);
  }

  byte[] toByteArray() {
    return out.toByteArray();
  }
}
