package io.ankusa.store.cli;

import io.ankusa.store.archive.chronicle.ChronicleArchiveReader;
import io.ankusa.store.queue.archive.ArchiveSink;
import java.nio.file.Path;

/**
 * The demo's archive ({@code demo --archive-dir}): the Chronicle sink the queue's archiver copies
 * hooks into, wrapped to note what it was given, and, once the queue has closed (its last drain
 * covers every acknowledged hook), what was archived and a read-back of it ({@link #replayCheck}).
 *
 * <p>The sink is used by one thread at a time (the queue's archiver thread, then the closing thread
 * for the last drain); {@link #result} is read after the queue's close.
 */
final class DemoArchive {
  private final Path archiveDir;
  private final SeqRecordingSink sink;

  DemoArchive(ArchiveSink sink, Path archiveDir) {
    this.sink = new SeqRecordingSink(sink);
    this.archiveDir = archiveDir;
  }

  /** The sink to give the runtime. */
  ArchiveSink sink() {
    return sink;
  }

  /** What the whole run archived, as the sink saw it, once the queue has closed. */
  Result result() {
    return new Result(
        sink.seqs.size(), sink.bytes, sink.firstSeq, sink.lastSeq, archiveDir.toAbsolutePath());
  }

  /**
   * Reads back the seqs this run archived, {@code [firstSeq, lastSeq]}: the reader must yield each
   * once, in increasing order, and as many as were settled. Returns a one-line verdict, {@code ok}
   * first when it holds.
   */
  static String replayCheck(Result r) {
    if (r.appended() == 0) {
      return "ok: nothing archived, nothing to read back";
    }
    long[] previous = {0};
    long[] outOfOrder = {0};
    long count;
    try (ChronicleArchiveReader reader = ChronicleArchiveReader.open(r.archiveDir())) {
      count =
          reader.replay(
              r.firstSeq(),
              r.lastSeq(),
              hook -> {
                if (hook.seq() <= previous[0]) {
                  outOfOrder[0]++;
                }
                previous[0] = hook.seq();
              });
    }
    if (outOfOrder[0] > 0) {
      return "FAILED: "
          + outOfOrder[0]
          + " seqs came back repeated or out of order (seq "
          + r.firstSeq()
          + ".."
          + r.lastSeq()
          + ")";
    }
    if (count != r.appended()) {
      return "FAILED: read back "
          + count
          + " seqs in seq "
          + r.firstSeq()
          + ".."
          + r.lastSeq()
          + " but "
          + r.appended()
          + " were appended (is the archive directory another store's?)";
    }
    return String.format(
        "ok: %,d seqs once, in seq order (seq %d..%d), as many as appended",
        count, r.firstSeq(), r.lastSeq());
  }

  /**
   * What the run archived.
   *
   * @param appended distinct hooks appended
   * @param bytes envelope bytes appended
   * @param firstSeq the lowest seq appended, 0 if none
   * @param lastSeq the highest seq appended, 0 if none
   * @param archiveDir the archive directory
   */
  record Result(long appended, long bytes, long firstSeq, long lastSeq, Path archiveDir) {}

  /**
   * Passes everything to the demo's sink and notes what it was given: the seqs (an append repeated
   * after a failed sync counts once), their bytes, the lowest and highest (the replay check's
   * range).
   */
  private static final class SeqRecordingSink implements ArchiveSink {
    private final ArchiveSink delegate;
    private final java.util.Set<Long> seqs = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile long bytes;
    private volatile long firstSeq;
    private volatile long lastSeq;

    SeqRecordingSink(ArchiveSink delegate) {
      this.delegate = delegate;
    }

    @Override
    public void append(long seq, byte[] envelope) {
      delegate.append(seq, envelope);
      if (seqs.add(seq)) {
        bytes += envelope.length;
      }
      if (firstSeq == 0 || seq < firstSeq) {
        firstSeq = seq;
      }
      lastSeq = Math.max(lastSeq, seq);
    }

    @Override
    public void sync() {
      delegate.sync();
    }
  }
}
