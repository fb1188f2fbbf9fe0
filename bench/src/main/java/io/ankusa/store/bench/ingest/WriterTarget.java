package io.ankusa.store.bench.ingest;

import io.ankusa.store.bench.BenchStores;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * The code under measurement: a {@link QueueWriter} with {@link WriterConfig#defaults()} (groups of
 * up to 256 hooks) on a format-3 queue in a rocksdb store opened through the SPI with the backend's
 * defaults ({@link BenchStores}, so {@code -Dbench.store.rocksdb.*} knobs apply).
 */
final class WriterTarget implements IngestTarget {
  private final Store store;
  private final QueueWriter writer;

  private WriterTarget(Store store, QueueWriter writer) {
    this.store = store;
    this.writer = writer;
  }

  /** Opens (or creates) the store in {@code dir} and starts a writer on it. */
  static WriterTarget open(Path dir, WriterConfig config) {
    Store store = BenchStores.open("rocksdb", dir, Format3.families());
    try {
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      return new WriterTarget(store, QueueWriter.start(queue, config));
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  @Override
  public String name() {
    return "writer";
  }

  @Override
  public CompletableFuture<IngestResult> submit(IngestRequest request) {
    return writer.ingest(request);
  }

  @Override
  public String writerThread() {
    return QueueWriter.WRITER_THREAD;
  }

  @Override
  public String syncerThread() {
    return QueueWriter.SYNCER_THREAD;
  }

  @Override
  public long groups() {
    return writer.stats().groups();
  }

  @Override
  public long syncs() {
    return writer.stats().syncs();
  }

  /** The writer itself, for its stats. */
  QueueWriter writer() {
    return writer;
  }

  @Override
  public void close() {
    try {
      writer.close();
    } finally {
      store.close();
    }
  }
}
