package io.ankusa.store.bench.ingest;

import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import java.util.concurrent.CompletableFuture;

/**
 * What {@link WriterIngestBench} drives: the queue's {@link
 * io.ankusa.store.queue.internal.ingest.QueueWriter} on the rocksdb backend ({@link WriterTarget})
 * or the hand-written RocksJava group commit ({@link RawGroupCommit}). Both take the same requests
 * from the same producers and complete the returned future only once the hook is durable (after the
 * {@code syncWal()} covering its group), on their syncer thread.
 */
sealed interface IngestTarget extends AutoCloseable permits WriterTarget, RawGroupCommit {
  /** The name in the table and the JSON: {@code writer} or {@code raw}. */
  String name();

  /**
   * Submits one hook. The future completes once the hook is durable (or refused); {@link #stored}
   * tells a stored hook from any other answer. The future is the target's own (no extra stage), so
   * the producers' callback costs both targets the same. Never blocks on the disk.
   *
   * <p>Ownership: {@code request.payload()} is kept until the future completes; do not modify it.
   */
  CompletableFuture<?> submit(IngestRequest request);

  /**
   * Whether {@code answer} (what a {@link #submit} future completed with) says the hook was stored.
   */
  static boolean stored(Object answer) {
    if (answer instanceof IngestResult r) {
      return r.outcome() == IngestResult.Outcome.CREATED;
    }
    return answer instanceof Long seq && seq > 0;
  }

  /** The name of the thread that builds and writes the groups. */
  String writerThread();

  /** The name of the thread that calls {@code syncWal()} and completes the futures. */
  String syncerThread();

  /** Groups written so far (one {@code NO_SYNC} write each). */
  long groups();

  /** {@code syncWal()} calls that returned so far. */
  long syncs();

  /** Drains, answers everything submitted, stops the threads and closes the store. */
  @Override
  void close();
}
