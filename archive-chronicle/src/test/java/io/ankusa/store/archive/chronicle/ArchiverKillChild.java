package io.ankusa.store.archive.chronicle;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.rocksdb.RocksDbStoreProvider;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The process {@link ArchiverKillTest} kills. It opens a RocksDB store and a Chronicle archive,
 * ingests hooks of about 1 KiB with the archive on in SYNC batches of 1..8 ({@link DirectIngest})
 * on the main thread, and runs {@link Archiver} chunks of {@value #CHUNK_HOOKS} hooks in a loop on
 * another thread, until it is killed. After each batch it appends the batch's seqs, one a line, to
 * the ack file and fsyncs it; after each chunk that did something it appends {@code lastSeq} to the
 * progress file.
 *
 * <p>Arguments: {@code storeDir archiveDir ackFile progressFile cycle}. Any failure prints a stack
 * trace to stderr and halts with status 2, so the parent sees the child dead before its kill.
 */
public final class ArchiverKillChild {
  static final QueueConfig CONFIG = QueueConfig.defaults().withArchive(true);
  static final int CHUNK_HOOKS = 16;

  private ArchiverKillChild() {}

  public static void main(String[] args) throws Exception {
    Thread.setDefaultUncaughtExceptionHandler(
        (t, e) -> {
          e.printStackTrace();
          Runtime.getRuntime().halt(2);
        });
    Path storeDir = Path.of(args[0]);
    Path archiveDir = Path.of(args[1]);
    Path ackFile = Path.of(args[2]);
    Path progressFile = Path.of(args[3]);
    int cycle = Integer.parseInt(args[4]);
    Store store =
        new RocksDbStoreProvider().open(storeDir, StoreOptions.defaults(), Format3.families());
    DeliveryQueue queue = DeliveryQueue.open(store, CONFIG);
    DirectIngest ingest = new DirectIngest(queue);
    ChronicleArchiveSink sink = ChronicleArchiveSink.open(archiveDir, ArchiveRollCycle.DAILY);
    Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, CHUNK_HOOKS);
    try (FileChannel acks = append(ackFile);
        FileChannel progress = append(progressFile)) {
      Thread archiving = new Thread(() -> archiveForever(archiver, progress), "child-archiver");
      archiving.start();
      SplittableRandom random = new SplittableRandom(cycle);
      for (long n = 0; ; n++) {
        List<HookEnvelope> batch = new ArrayList<>();
        int size = 1 + random.nextInt(8);
        for (int i = 0; i < size; i++) {
          byte[] payload = new byte[512 + random.nextInt(1024)];
          random.nextBytes(payload);
          batch.add(
              new HookEnvelope(
                  0,
                  random.nextInt(4) == 0 ? null : "tenant-" + random.nextInt(5),
                  "kill",
                  "c" + cycle + "-" + n + "-" + i,
                  null,
                  System.currentTimeMillis(),
                  List.of(1),
                  payload));
        }
        List<Long> seqs = ingest.ingest(batch);
        StringBuilder lines = new StringBuilder();
        seqs.forEach(s -> lines.append(s).append('\n'));
        write(acks, lines.toString());
      }
    }
  }

  private static void archiveForever(Archiver archiver, FileChannel progress) {
    while (true) {
      Archiver.ChunkReport report = archiver.archiveChunk();
      if (report.obligations() > 0) {
        write(progress, report.lastSeq() + "\n");
      } else {
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  private static FileChannel append(Path file) throws IOException {
    return FileChannel.open(
        file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
  }

  private static void write(FileChannel ch, String text) {
    ByteBuffer buf = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    try {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(false);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
