package io.ankusa.store.archive.chronicle;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreFormatException;
import java.nio.file.Path;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads an archive written by {@link ChronicleArchiveSink}, opened read-only (it never writes to
 * the directory and may run beside the sink, in this or another process).
 *
 * <p><b>De-duplication.</b> The archiver appends at least once: after a restart it starts again at
 * the lowest unsettled obligation and may append seqs the archive already holds. So the reader
 * keeps the highest seq it has met and skips every record at or below it. Because each archiver run
 * appends in increasing seq order starting at or below the previous highest, that yields every
 * archived seq exactly once, in increasing order, with the bytes of its first copy (tests: {@code
 * ChronicleArchiveSinkTest#repeatsAreSkipped}, {@code ArchiverKillTest}).
 *
 * <p><b>Cost.</b> A replay reads from the first record (the records' seqs are not monotone, so
 * there is no seek by seq) and stops as soon as the highest seq met reaches the end of the range;
 * records it skips are checked but not copied.
 *
 * <p>Not thread-safe. Every method throws {@link StoreClosedException} after {@link #close}.
 */
public final class ChronicleArchiveReader implements AutoCloseable {
  static {
    ChronicleSetup.silenceUnlessConfigured();
  }

  private final Path dir;
  private final ChronicleQueue queue;
  private final byte[] header = new byte[ArchiveRecord.HEADER_BYTES];
  private boolean closed;

  private ChronicleArchiveReader(Path dir, ChronicleQueue queue) {
    this.dir = dir;
    this.queue = queue;
  }

  /**
   * Opens the archive in {@code dir} read-only.
   *
   * @throws StoreArgumentException if {@code dir} is null, missing or not a directory
   * @throws StoreFormatException if it is not an archive directory ({@link
   *     ArchiveDirectory#requireArchive}) or Chronicle cannot open it as a queue
   */
  public static ChronicleArchiveReader open(Path dir) {
    if (dir == null) {
      throw new StoreArgumentException(
          "ChronicleArchiveReader.open needs the archive directory; got null");
    }
    Path absolute = dir.toAbsolutePath();
    ArchiveDirectory.requireArchive(absolute);
    try {
      return new ChronicleArchiveReader(
          absolute, SingleChronicleQueueBuilder.binary(absolute).readOnly(true).build());
    } catch (RuntimeException e) {
      throw new StoreFormatException(
          "cannot open "
              + absolute
              + " as a Chronicle archive (read-only): "
              + e
              + ". Check that it is the directory a ChronicleArchiveSink wrote to and that it is readable.",
          e);
    }
  }

  /** The archive directory (absolute). */
  public Path directory() {
    return dir;
  }

  /**
   * Calls {@code each} for every archived seq in {@code [fromSeq, toSeqInclusive]}, once, in
   * increasing seq order, with the bytes of the seq's first copy in the archive (repeats are
   * skipped, see the class doc). Returns how many it called. The {@link ArchivedHook}s are new and
   * owned by the consumer.
   *
   * <p>REQUIRES: {@code 1 <= fromSeq <= toSeqInclusive}.
   *
   * @throws StoreArgumentException if the range is empty or starts below 1
   * @throws io.ankusa.store.spi.StoreCorruptionException if a record met on the way does not parse;
   *     the message names the directory and the excerpt index. Hooks passed to {@code each} before
   *     it stay passed.
   * @throws StoreClosedException after {@link #close}
   */
  public long replay(long fromSeq, long toSeqInclusive, Consumer<ArchivedHook> each) {
    ensureOpen("replay");
    if (fromSeq < 1 || toSeqInclusive < fromSeq) {
      throw new StoreArgumentException(
          "archive "
              + dir
              + ": replay("
              + fromSeq
              + ", "
              + toSeqInclusive
              + ") is not"
              + " a range of seqs; give 1 <= fromSeq <= toSeqInclusive");
    }
    if (each == null) {
      throw new StoreArgumentException("archive " + dir + ": replay needs a consumer; got null");
    }
    long highest = 0;
    long count = 0;
    try (ExcerptTailer tailer = queue.createTailer()) {
      tailer.toStart();
      while (highest < toSeqInclusive) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            break;
          }
          Bytes<?> in = dc.wire().bytes();
          long seq = ArchiveRecord.readSeq(in, header, dir, dc.index());
          if (seq <= highest) {
            continue; // a repeat left by an archiver restart
          }
          highest = seq;
          if (seq >= fromSeq && seq <= toSeqInclusive) {
            each.accept(new ArchivedHook(seq, ArchiveRecord.readEnvelope(in)));
            count++;
          }
        }
      }
    }
    return count;
  }

  /**
   * The highest seq in the archive, 0 if it is empty. Reads every record (there is no cheaper way:
   * the last record need not hold the highest seq).
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException if a record does not parse
   * @throws StoreClosedException after {@link #close}
   */
  public long scanHighestSeq() {
    ensureOpen("scanHighestSeq");
    long highest = 0;
    try (ExcerptTailer tailer = queue.createTailer()) {
      tailer.toStart();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return highest;
          }
          highest =
              Math.max(highest, ArchiveRecord.readSeq(dc.wire().bytes(), header, dir, dc.index()));
        }
      }
    }
  }

  /** Closes the queue. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    queue.close();
  }

  private void ensureOpen(String call) {
    if (closed) {
      throw new StoreClosedException(
          "archive reader of "
              + dir
              + " is closed; "
              + call
              + " needs an open reader."
              + " Open it again with ChronicleArchiveReader.open.");
    }
  }
}
