package io.ankusa.store.archive.chronicle;

import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.Bytes;

/**
 * The one record format of the archive, one Chronicle excerpt per record, integers big-endian:
 *
 * <pre>
 *   format:8 = 1 | seq:64 | length:32 | envelope bytes (length of them)
 * </pre>
 *
 * An excerpt is exactly {@value #HEADER_BYTES} + {@code length} bytes long; anything else (a
 * shorter excerpt, another format byte, a length that does not match, a seq &lt;= 0) is corruption.
 */
final class ArchiveRecord {
  /** The format byte of every record this code writes and the only one it reads. */
  static final byte FORMAT_1 = 1;

  /** format + seq + length. */
  static final int HEADER_BYTES = 1 + Long.BYTES + Integer.BYTES;

  private ArchiveRecord() {}

  /** Writes the record of ({@code seq}, {@code envelopeLength}) and the envelope to {@code out}. */
  static void write(Bytes<?> out, ByteBuffer headerScratch, long seq, byte[] envelope) {
    headerScratch.clear();
    headerScratch.put(FORMAT_1).putLong(seq).putInt(envelope.length);
    out.write(headerScratch.array(), 0, HEADER_BYTES);
    out.write(envelope);
  }

  /**
   * Checks the header of the excerpt in {@code in} (its whole readable part) and returns the
   * record's seq, leaving {@code in} at the first envelope byte; {@link #readEnvelope} then copies
   * the envelope, or the caller skips it.
   *
   * @param dir the archive directory, for the message
   * @param excerptIndex the Chronicle index of the excerpt, for the message
   * @throws StoreCorruptionException if the excerpt is not a format-1 record
   */
  static long readSeq(Bytes<?> in, byte[] headerScratch, Path dir, long excerptIndex) {
    long remaining = in.readRemaining();
    if (remaining < HEADER_BYTES) {
      throw corrupt(
          dir,
          excerptIndex,
          "the excerpt is "
              + remaining
              + " bytes long, shorter than the "
              + HEADER_BYTES
              + "-byte record header");
    }
    in.read(headerScratch, 0, HEADER_BYTES);
    ByteBuffer h = ByteBuffer.wrap(headerScratch, 0, HEADER_BYTES);
    byte format = h.get();
    if (format != FORMAT_1) {
      throw corrupt(
          dir,
          excerptIndex,
          "unknown record format byte "
              + format
              + " (this code reads format "
              + FORMAT_1
              + " only; a newer release may have written it)");
    }
    long seq = h.getLong();
    int length = h.getInt();
    if (seq <= 0) {
      throw corrupt(dir, excerptIndex, "record seq " + seq + " is not positive");
    }
    long body = remaining - HEADER_BYTES;
    if (length < 0 || length != body) {
      throw corrupt(
          dir,
          excerptIndex,
          "record of seq "
              + seq
              + " says its envelope is "
              + length
              + " bytes but the excerpt holds "
              + body
              + " after the header");
    }
    return seq;
  }

  /** The envelope after {@link #readSeq}: a new array owned by the caller. */
  static byte[] readEnvelope(Bytes<?> in) {
    byte[] envelope = new byte[(int) in.readRemaining()];
    in.read(envelope);
    return envelope;
  }

  static StoreCorruptionException corrupt(Path dir, long excerptIndex, String what) {
    return new StoreCorruptionException(
        "archive "
            + dir
            + ": excerpt index 0x"
            + Long.toHexString(excerptIndex)
            + " is not a valid archive record: "
            + what
            + ". Records before it are readable (replay a range that"
            + " ends below it); restore the archive directory from a copy, or move the damaged cycle file aside.");
  }
}
