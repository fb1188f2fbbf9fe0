package io.ankusa.store.cli;

import io.ankusa.store.archive.chronicle.ChronicleArchiveReader;
import io.ankusa.store.queue.ArchiveSink;
import io.ankusa.store.queue.Archiver;
import io.ankusa.store.queue.DeliveryQueue;
import io.ankusa.store.queue.QueueWriter;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The demo's archiver ({@code demo --archive-dir}): one {@link Archiver} on the writer's watermark
 * ({@code writer::durableSeq}, so only acknowledged hooks reach the archive), run from one thread
 * beside the dispatcher — one {@link Archiver#archiveChunk() chunk} at a time, with a short sleep when
 * a chunk finds nothing — and, once the writer has closed and this loop has stopped, a final {@link
 * Archiver#drain() drain} from the caller's thread. Then {@link #replayCheck} reads the archive back.
 *
 * <p>The archiver is used by one thread at a time: the loop's, then (after {@link Thread#join}) the
 * caller's. The totals are read only after the join.
 */
final class DemoArchiveLoop implements Runnable {
  private final Archiver archiver;
  private final Path archiveDir;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final SeqRecordingSink sink;
  private volatile Throwable failure;
  private Archiver.ChunkReport total = Archiver.ChunkReport.NONE;

  DemoArchiveLoop(DeliveryQueue queue, QueueWriter writer, ArchiveSink sink, Path archiveDir) {
    this.sink = new SeqRecordingSink(sink);
    this.archiver = new Archiver(queue, writer::durableSeq, this.sink, Archiver.DEFAULT_CHUNK_HOOKS);
    this.archiveDir = archiveDir;
  }

  void stop() {
    running.set(false);
  }

  Throwable failure() {
    return failure;
  }

  @Override
  public void run() {
    try {
      while (running.get()) {
        Archiver.ChunkReport r = archiver.archiveChunk();
        total = total.plus(r);
        if (r.obligations() == 0) {
          Thread.sleep(10);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /**
   * The final drain, after the writer closed (its watermark covers every acknowledged hook) and this
   * loop's thread has been joined; returns what the whole run archived.
   */
  Result finish() {
    total = total.plus(archiver.drain());
    return new Result(total.settled(), total.dropped(), total.envelopeBytes(), sink.firstSeq, total.lastSeq(),
        archiveDir.toAbsolutePath());
  }

  /**
   * Reads back the seqs this run archived, {@code [firstSeq, lastSeq]}: the reader must yield each
   * once, in increasing order, and as many as were settled. Returns a one-line verdict, {@code ok}
   * first when it holds.
   */
  static String replayCheck(Result r) {
    if (r.settled() == 0) {
      return "ok: nothing archived, nothing to read back";
    }
    long[] previous = {0};
    long[] outOfOrder = {0};
    long count;
    try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(r.archiveDir())) {
      count = reader.replay(r.firstSeq(), r.lastSeq(), hook -> {
        if (hook.seq() <= previous[0]) {
          outOfOrder[0]++;
        }
        previous[0] = hook.seq();
      });
    }
    if (outOfOrder[0] > 0) {
      return "FAILED: " + outOfOrder[0] + " seqs came back repeated or out of order (seq " + r.firstSeq() + ".."
          + r.lastSeq() + ")";
    }
    if (count != r.settled()) {
      return "FAILED: read back " + count + " seqs in seq " + r.firstSeq() + ".." + r.lastSeq() + " but "
          + r.settled() + " were settled (is the archive directory another store's?)";
    }
    return String.format("ok: %,d seqs once, in seq order (seq %d..%d), as many as settled", count, r.firstSeq(),
        r.lastSeq());
  }

  /**
   * What the run archived.
   *
   * @param settled hooks archived and their obligations settled
   * @param dropped obligations dropped because their hook was gone
   * @param bytes envelope bytes appended
   * @param firstSeq the lowest seq appended, 0 if none
   * @param lastSeq the highest seq settled or dropped, 0 if none
   * @param archiveDir the archive directory
   */
  record Result(long settled, long dropped, long bytes, long firstSeq, long lastSeq, Path archiveDir) {}

  /** Passes everything to the demo's sink and notes the lowest seq appended (the replay check's start). */
  private static final class SeqRecordingSink implements ArchiveSink {
    private final ArchiveSink delegate;
    private long firstSeq;

    SeqRecordingSink(ArchiveSink delegate) {
      this.delegate = delegate;
    }

    @Override
    public void append(long seq, byte[] envelope) {
      delegate.append(seq, envelope);
      if (firstSeq == 0 || seq < firstSeq) {
        firstSeq = seq;
      }
    }

    @Override
    public void sync() {
      delegate.sync();
    }
  }
}
