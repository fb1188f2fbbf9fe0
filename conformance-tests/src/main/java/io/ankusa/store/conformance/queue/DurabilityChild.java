package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.spi.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;

/**
 * The process {@link DurabilityConformance} kills: it opens the store, ingests through the writer
 * from several threads (about 500 hooks/s each) until it is killed, claims (never settles) some due
 * rows so recovery has inflight rows to bring back, and appends every acknowledged hook as a line
 * {@code seq tenant hookId} to the ack file — written straight to the OS (a process kill loses
 * nothing written) and fsynced now and then.
 *
 * <p>Arguments: {@code fixture dir ackFile cycle threads}: the parent's fixture as {@link ChildJvm}
 * describes it, recreated here so the store opens through its {@link BackendFixture#open} with its
 * {@link BackendFixture#options()} (a server backend's URL, for one). Prints nothing.
 */
public final class DurabilityChild {
  private DurabilityChild() {}

  public static void main(String[] args) throws Exception {
    BackendFixture fixture = ChildJvm.fixtureInChild(args[0]);
    Path dir = Path.of(args[1]);
    Path ackFile = Path.of(args[2]);
    int cycle = Integer.parseInt(args[3]);
    int threads = Integer.parseInt(args[4]);
    Store store = fixture.open(dir, Format3.families());
    DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
    QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults().withMaxGroupHooks(64));
    try (FileChannel acks =
        FileChannel.open(
            ackFile,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
      Thread dispatcher = new Thread(() -> claimForever(queue, writer), "child-dispatcher");
      dispatcher.setDaemon(true);
      dispatcher.start();
      List<Thread> producers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread p = new Thread(() -> produce(writer, acks, cycle, id), "child-producer-" + t);
        producers.add(p);
        p.start();
      }
      for (Thread p : producers) {
        p.join(); // never: the parent kills us
      }
    }
  }

  /** Claims a few due rows now and then and leaves them inflight, so recovery has work. */
  private static void claimForever(DeliveryQueue queue, QueueWriter writer) {
    Dispatcher dispatcher = new Dispatcher(queue, writer::durableSeq, 16, 1 << 20);
    while (true) {
      dispatcher.tick(System.currentTimeMillis());
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void produce(QueueWriter writer, FileChannel acks, int cycle, int id) {
    SplittableRandom random = new SplittableRandom(cycle * 1000L + id);
    Semaphore window = new Semaphore(64);
    for (long n = 0; ; n++) {
      String tenant = random.nextInt(8) == 0 ? null : "tenant-" + random.nextInt(20);
      String hookId = "c" + cycle + "-t" + id + "-" + n;
      List<Integer> sinks = random.nextBoolean() ? List.of(1) : List.of(1, 2);
      IngestRequest request =
          new IngestRequest(
              tenant,
              "durability",
              hookId,
              hookId,
              System.currentTimeMillis(),
              sinks,
              new byte[16 + random.nextInt(200)]);
      window.acquireUninterruptibly();
      // ~500 hooks/s per producer: enough groups in flight at any kill moment, while the store the
      // parent verifies after every cycle stays small (it accumulates over the cycles).
      LockSupport.parkNanos(2_000_000);
      CompletableFuture<IngestResult> f = writer.ingest(request);
      f.whenComplete(
          (r, e) -> {
            window.release();
            if (e == null && r.outcome() == IngestResult.Outcome.CREATED) {
              ack(
                  acks,
                  r.seq()
                      + " "
                      + (tenant == null ? "-" : tenant)
                      + " "
                      + hookId
                      + " "
                      + sinks.size()
                      + "\n");
            }
          });
    }
  }

  private static void ack(FileChannel acks, String line) {
    ByteBuffer buf = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
    try {
      synchronized (acks) {
        while (buf.hasRemaining()) {
          acks.write(buf);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
