package io.ankusa.store.queue.internal.record;

import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link RecordWriter} wrote. Every failure — truncated input, a length running past the
 * end, bytes left over, bad UTF-8 — is a {@link StoreCorruptionException} naming the record, the
 * key it is stored at and its family (when the caller knows them), the field being read, the
 * offset, the input in hex and what to do, because a stored record that does not decode is damaged
 * data, never a caller error.
 */
final class RecordReader {
  private static final String ADVICE =
      " The store is damaged or was written by other code: stop writing to"
          + " it, restore it from a backup, or run `ankusa-store verify` to list what else is affected.";
  private final String record;
  private final KeyFamily family;
  private final byte[] key;
  private final byte[] in;
  private int pos;

  /**
   * A reader of {@code in}, the value stored at {@code key} of {@code family} (key null: not
   * known).
   */
  RecordReader(String record, KeyFamily family, byte[] key, byte[] in) {
    this.record = record;
    this.family = family;
    this.key = key;
    this.in = in;
  }

  int u8(String field) {
    need(field, 1);
    return in[pos++] & 0xff;
  }

  int u16(String field) {
    need(field, 2);
    int v = ((in[pos] & 0xff) << 8) | (in[pos + 1] & 0xff);
    pos += 2;
    return v;
  }

  long u32(String field) {
    need(field, 4);
    long v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | (in[pos++] & 0xffL);
    }
    return v;
  }

  long u64(String field) {
    need(field, 8);
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (in[pos++] & 0xffL);
    }
    return v;
  }

  byte[] bytes(String field) {
    long len = u32(field + ".length");
    if (len > in.length - pos) {
      throw error(field, "declares " + len + " bytes but only " + (in.length - pos) + " remain");
    }
    byte[] out = new byte[(int) len];
    System.arraycopy(in, pos, out, 0, out.length);
    pos += out.length;
    return out;
  }

  String string(String field) {
    byte[] b = bytes(field);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw error(field, "is not valid UTF-8");
    }
  }

  String optionalString(String field) {
    int present = u8(field + ".present");
    if (present == 0) {
      return null;
    }
    if (present != 1) {
      throw error(field, "has presence byte " + present + ", expected 0 or 1");
    }
    return string(field);
  }

  /** Fails unless every byte was read. */
  void end() {
    if (pos != in.length) {
      throw error("end", (in.length - pos) + " unexpected trailing bytes");
    }
  }

  StoreCorruptionException error(String field, String what) {
    return corruption(
        "field '"
            + field
            + "' at offset "
            + pos
            + " "
            + what
            + " (record is "
            + in.length
            + " bytes: "
            + Bytes.hex(in)
            + ")");
  }

  /**
   * The record does not decode because of {@code problem}; the message names the record's key and
   * family.
   */
  StoreCorruptionException corruption(String problem) {
    return new StoreCorruptionException(
        record
            + (key == null ? "" : " at key " + Bytes.hex(key))
            + " in family '"
            + family.columnFamily()
            + "' does not decode: "
            + problem
            + "."
            + ADVICE);
  }

  private void need(String field, int n) {
    if (in.length - pos < n) {
      throw error(field, "needs " + n + " bytes but the record is truncated");
    }
  }
}
