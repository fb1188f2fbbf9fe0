package io.ankusa.store.archive.chronicle;

import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.archive.ArchiveSinkException;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ArchiveSink} that appends to a Chronicle Queue in one directory: one excerpt per
 * record, in the format of {@link ArchiveRecord} ({@code format:8 seq:64 length:32 envelope}). Read
 * it back with {@link ChronicleArchiveReader}, which drops the repeats an at-least-once archiver
 * leaves.
 *
 * <p><b>Durability.</b> {@link #append} writes into Chronicle's memory-mapped cycle file: the
 * record survives a kill of this process from the moment {@code append} returns (the OS holds the
 * page), but not a power loss. {@link #sync} returns only when every record appended before it is
 * on disk: it runs Chronicle's {@code ExcerptAppender.sync()} (an {@code msync(MS_SYNC)} of the
 * current mapping, the queue being opened with {@code SyncMode.SYNC}) and then {@code fsync}s every
 * cycle file appended to since the last sync through a file descriptor held since that file was
 * first appended to. The second step exists because Chronicle only logs a failed {@code msync} and
 * only covers its current mapped chunk; the {@code fsync} covers the whole file and reports a
 * write-back error as an {@link ArchiveSinkException}. The first sync after a new cycle file
 * appears also fsyncs {@code metadata.cq4t} and the directory, so the file's name is durable too.
 *
 * <p><b>One writer at a time.</b> Chronicle would let several appenders interleave; the archive's
 * order argument (appends in seq order apart from restarts) needs one archiver, hence one sink, per
 * archive directory. After a process kill Chronicle frees the write lock of the dead process when
 * the next appender takes it (it checks the owner's pid; otherwise it waits for its timeout, 10 s
 * by default, and forces it) and overwrites the excerpt the kill left unfinished.
 *
 * <p>Not thread-safe; it may be handed from one thread to another between calls (Chronicle's
 * single-thread check is turned off for its appender). Every method throws {@link
 * StoreClosedException} after {@link #close}.
 */
public final class ChronicleArchiveSink implements ArchiveSink, AutoCloseable {
  static {
    ChronicleSetup.silenceUnlessConfigured();
  }

  private static final Logger LOG = LoggerFactory.getLogger(ChronicleArchiveSink.class);
  private static final String METADATA_FILE = "metadata.cq4t";

  private final Path dir;
  private final ChronicleQueue queue;
  private final ExcerptAppender appender;
  private final ByteBuffer header = ByteBuffer.allocate(ArchiveRecord.HEADER_BYTES);

  /**
   * Cycle files appended to by this sink, with a descriptor opened when first seen; insertion
   * order.
   */
  private final Map<File, FileChannel> cycleFiles = new LinkedHashMap<>();

  /** Cycle files appended to since the last sync. */
  private final List<File> unsynced = new ArrayList<>();

  /** Whether a cycle file appeared since the last sync (its name is not durable yet). */
  private boolean newCycleFile;

  private File currentFile;
  private boolean closed;

  private ChronicleArchiveSink(Path dir, ChronicleQueue queue, ExcerptAppender appender) {
    this.dir = dir;
    this.queue = queue;
    this.appender = appender;
  }

  /**
   * Opens the archive in {@code dir}, creating the directory and the queue if missing. An existing
   * archive keeps the roll cycle it was created with.
   *
   * <p>REQUIRES: no other sink (in any process) appends to {@code dir} while this one is open.
   *
   * @throws StoreArgumentException if {@code dir} or {@code cycle} is null, or {@code dir} or a
   *     parent is a file
   * @throws io.ankusa.store.spi.StoreFormatException if {@code dir} is a non-empty directory that
   *     is not an archive ({@link ArchiveDirectory#requireArchiveOrNew}); nothing is written
   * @throws ArchiveSinkException if the directory cannot be created or the queue cannot be opened
   */
  public static ChronicleArchiveSink open(Path dir, ArchiveRollCycle cycle) {
    if (dir == null || cycle == null) {
      throw new StoreArgumentException(
          "ChronicleArchiveSink.open needs an archive directory and a roll cycle;"
              + " got dir="
              + dir
              + ", cycle="
              + cycle);
    }
    Path absolute = dir.toAbsolutePath();
    ArchiveDirectory.requireArchiveOrNew(absolute);
    try {
      Files.createDirectories(absolute);
    } catch (IOException e) {
      throw new ArchiveSinkException(
          "cannot create the archive directory "
              + absolute
              + ": "
              + e
              + ". Fix its parent's permissions or free disk space, then open the sink again.",
          e);
    }
    ChronicleQueue queue;
    try {
      queue =
          SingleChronicleQueueBuilder.binary(absolute)
              .rollCycle(cycle.chronicleCycle())
              .syncMode(SyncMode.SYNC)
              .build();
    } catch (RuntimeException e) {
      throw new ArchiveSinkException(
          "cannot open the archive queue in "
              + absolute
              + ": "
              + e
              + ". Check that the directory holds a Chronicle archive (or nothing), is writable, and that the JVM runs"
              + " with the flags in the archive-chronicle package doc.",
          e);
    }
    try {
      if (!cycle.chronicleCycle().equals(queue.rollCycle())) {
        LOG.warn(
            "archive {} was created with roll cycle {}; keeping it (asked for {})",
            absolute,
            queue.rollCycle(),
            cycle);
      }
      ExcerptAppender appender = queue.createAppender();
      appender.singleThreadedCheckDisabled(true);
      return new ChronicleArchiveSink(absolute, queue, appender);
    } catch (RuntimeException e) {
      queue.close();
      throw new ArchiveSinkException(
          "cannot create an appender on the archive queue in "
              + absolute
              + ": "
              + e
              + ". Check that the directory is writable and not damaged.",
          e);
    }
  }

  /** The archive directory (absolute). */
  public Path directory() {
    return dir;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Survives a process kill once this returns; durable against power loss after {@link #sync}.
   *
   * @throws StoreArgumentException if {@code seq <= 0} or {@code envelope} is null (nothing
   *     written)
   * @throws StoreClosedException after {@link #close}
   */
  @Override
  public void append(long seq, byte[] envelope) {
    ensureOpen("append");
    if (seq <= 0) {
      throw new StoreArgumentException(
          "archive "
              + dir
              + ": hook seq "
              + seq
              + " is not positive; seqs start at 1"
              + " (pass the seq of the hook's 'h' row)");
    }
    if (envelope == null) {
      throw new StoreArgumentException(
          "archive "
              + dir
              + ": envelope of hook seq "
              + seq
              + " is null; pass the"
              + " value of its 'h' row");
    }
    try (DocumentContext dc = appender.writingDocument()) {
      try {
        ArchiveRecord.write(dc.wire().bytes(), header, seq, envelope);
      } catch (RuntimeException e) {
        dc.rollbackOnClose();
        throw e;
      }
    } catch (RuntimeException e) {
      throw new ArchiveSinkException(
          "archive "
              + dir
              + ": could not append hook seq "
              + seq
              + " ("
              + envelope.length
              + " bytes): "
              + e
              + ". Free disk space or fix the permissions of "
              + dir
              + ", then let the archiver run"
              + " again; its obligation stays in the queue.",
          e);
    }
    noteCycleFile(seq);
  }

  /**
   * {@inheritDoc}
   *
   * <p>msync through Chronicle, then fsync of each cycle file appended to since the last sync (and
   * of the directory and {@code metadata.cq4t} after a roll). See the class doc.
   *
   * @throws ArchiveSinkException if the records cannot be made durable; nothing may be settled
   * @throws StoreClosedException after {@link #close}
   */
  @Override
  public void sync() {
    ensureOpen("sync");
    if (unsynced.isEmpty() && !newCycleFile) {
      return;
    }
    try {
      appender.sync();
    } catch (RuntimeException e) {
      throw syncFailed(String.valueOf(currentFile), e);
    }
    for (File f : unsynced) {
      try {
        cycleFiles.get(f).force(true);
      } catch (IOException | RuntimeException e) {
        throw syncFailed(f.toString(), e);
      }
    }
    if (newCycleFile) {
      forcePath(dir.resolve(METADATA_FILE));
      forcePath(dir);
      newCycleFile = false;
    }
    unsynced.clear();
    // Keep only the current file's descriptor: older cycles are complete and synced.
    cycleFiles
        .entrySet()
        .removeIf(
            e -> {
              if (e.getKey().equals(currentFile)) {
                return false;
              }
              closeQuietly(e.getValue());
              return true;
            });
  }

  /**
   * Closes the queue. Does <b>not</b> sync: records appended since the last {@link #sync} survive a
   * process kill but are not promised durable; their obligations are still in the queue anyway.
   * Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    cycleFiles.values().forEach(ChronicleArchiveSink::closeQuietly);
    cycleFiles.clear();
    try {
      appender.close();
    } finally {
      queue.close();
    }
  }

  private void noteCycleFile(long seq) {
    File f = appender.currentFile();
    if (f == null) {
      throw new ArchiveSinkException(
          "archive "
              + dir
              + ": hook seq "
              + seq
              + " was appended but Chronicle does not"
              + " say to which cycle file, so it cannot be synced. Reopen the sink and let the archiver run again; its"
              + " obligation stays in the queue.");
    }
    if (!f.equals(currentFile)) {
      currentFile = f;
      if (!cycleFiles.containsKey(f)) {
        try {
          cycleFiles.put(f, FileChannel.open(f.toPath(), StandardOpenOption.READ));
        } catch (IOException e) {
          throw new ArchiveSinkException(
              "archive "
                  + dir
                  + ": hook seq "
                  + seq
                  + " was appended to "
                  + f
                  + " but the file cannot be opened to sync it later: "
                  + e
                  + ". Fix the permissions of "
                  + dir
                  + ", then let the archiver run again; its obligation stays in the queue.",
              e);
        }
        newCycleFile = true;
      }
    }
    if (unsynced.isEmpty() || !unsynced.get(unsynced.size() - 1).equals(f)) {
      unsynced.add(f);
    }
  }

  private void forcePath(Path p) {
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      throw syncFailed(p.toString(), e);
    }
  }

  private ArchiveSinkException syncFailed(String what, Exception e) {
    return new ArchiveSinkException(
        "archive "
            + dir
            + ": could not make the records appended since the last sync"
            + " durable ("
            + what
            + "): "
            + e
            + ". Nothing of this chunk may be settled; check the disk (dmesg), free"
            + " space, then let the archiver run again — it appends the same hooks again and readers skip repeats.",
        e);
  }

  private void ensureOpen(String call) {
    if (closed) {
      throw new StoreClosedException(
          "archive sink "
              + dir
              + " is closed; "
              + call
              + " needs an open sink."
              + " Open it again with ChronicleArchiveSink.open.");
    }
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      LOG.debug("closing an archive file descriptor failed", e);
    }
  }
}
