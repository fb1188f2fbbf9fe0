package io.ankusa.store.queue.internal.archive;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.archive.ArchiveSink;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archive job: copies every hook that has an archive obligation {@code 'a' seq} into an {@link
 * ArchiveSink}, then settles the obligation. One {@link #archiveChunk() chunk} is:
 *
 * <ol>
 *   <li>read up to {@code chunkHooks} obligations with {@code seq <= durableSeq}, in seq order —
 *       never above the watermark, so the archive only ever holds hooks whose ingest was
 *       acknowledged (nothing leaves the queue before it is durable);
 *   <li>read their hooks' envelopes ({@code 'h'} rows) in one multiGet;
 *   <li>append each present envelope to the sink, unchanged, and {@link ArchiveSink#sync sync} the
 *       sink;
 *   <li>only then, in one batch, delete the obligations with {@code archive_pending −1} each: a
 *       <i>settle</i> when the envelope was appended, a <i>drop</i> when the hook is gone (nothing
 *       to archive; same ops, counted apart).
 * </ol>
 *
 * <p><b>Guarantee: at-least-once into the archive, de-duplicated by seq on read.</b> A crash or a
 * failure after the sink's sync and before the settle batch is durable leaves the obligations, and
 * the next run appends those hooks again. Nothing is settled that the sink has not synced, so no
 * obligation is lost. The settle batch is written {@link Durability#NO_SYNC}: losing it to a power
 * cut only repeats appends, which readers skip. A sink failure ({@link
 * io.ankusa.store.queue.archive.ArchiveSinkException}) or a store failure leaves every obligation
 * of the chunk in place and propagates; run again later.
 *
 * <p><b>Where a chunk starts.</b> After a settled chunk the next one starts just above its last seq
 * instead of at the head of {@code 'a'}, which on an LSM engine would walk the tombstones of every
 * settled obligation. That skips nothing: obligations are created by ingest (with seqs above every
 * seq the writer has made durable, since seqs only grow) and by the format migration (before
 * anything serves); the writer's fence removes only obligations above {@code durableSeq}, which no
 * chunk has read. A new archiver (after a restart) starts at the head.
 *
 * <p>REQUIRES: one archiver per store, through its one queue (a second would append the same hooks
 * again; the queue's {@link io.ankusa.store.queue.internal.TransitionGuard} still settles each
 * obligation once, so the counts stay exact); {@code durableSeq} is the writer's watermark ({@code
 * writer::durableSeq}), or {@code () -> Long.MAX_VALUE} when every write is SYNC ({@link
 * io.ankusa.store.queue.internal.ingest.DirectIngest}). Not thread-safe: run it from one thread.
 * Counters: the layout property {@code countersEqualAFoldAfterAnySequenceOfTransitions} checks that
 * {@code archive_pending} equals the {@code 'a'} rows after archiver runs; {@code
 * archiveNeverGetsAHookAboveDurableSeq} and {@code archiverSettlesOnlyWhatTheSinkSynced} check the
 * watermark and the order of sync and settle.
 */
public final class Archiver {
  /** Default hooks per chunk: one sink sync and one store batch per 256 hooks. */
  public static final int DEFAULT_CHUNK_HOOKS = 256;

  /** The thread {@link #drain()} reads the next chunk on. */
  public static final String READER_THREAD = "ankusa-archiver-read";

  private static final Logger LOG = LoggerFactory.getLogger(Archiver.class);

  private final DeliveryQueue queue;
  private final LongSupplier durableSeq;
  private final ArchiveSink sink;
  private final int chunkHooks;

  /** The lowest seq the next chunk reads from (see the class doc). */
  private long nextSeq;

  /**
   * An archiver of {@code queue} into {@code sink}.
   *
   * @throws StoreArgumentException if {@code chunkHooks < 1}
   */
  public Archiver(DeliveryQueue queue, LongSupplier durableSeq, ArchiveSink sink, int chunkHooks) {
    if (chunkHooks < 1) {
      throw new StoreArgumentException(
          "archiver chunk of " + chunkHooks + " hooks: give at least 1");
    }
    this.queue = queue;
    this.durableSeq = durableSeq;
    this.sink = sink;
    this.chunkHooks = chunkHooks;
  }

  /**
   * What one chunk (or, from {@link #drain()}, every chunk of a drain) did. Counts are {@code long}
   * so that totals over many chunks ({@link #plus}) cannot overflow.
   *
   * @param settled obligations settled: their envelopes are in the sink, synced
   * @param dropped obligations dropped because their hook was gone
   * @param envelopeBytes bytes of the envelopes appended
   * @param lastSeq the highest seq settled or dropped, 0 if none
   */
  public record ChunkReport(long settled, long dropped, long envelopeBytes, long lastSeq) {
    /** Nothing archived. */
    public static final ChunkReport NONE = new ChunkReport(0, 0, 0, 0);

    /** Obligations removed, settled or dropped. */
    public long obligations() {
      return settled + dropped;
    }

    /** The totals of this report and {@code other}: counts and bytes added, the higher last seq. */
    public ChunkReport plus(ChunkReport other) {
      return new ChunkReport(
          settled + other.settled,
          dropped + other.dropped,
          envelopeBytes + other.envelopeBytes,
          Math.max(lastSeq, other.lastSeq));
    }
  }

  /**
   * Archives one chunk (see the class doc). Returns what it did; {@code obligations() == 0} when no
   * obligation at or below the watermark is left.
   *
   * @throws io.ankusa.store.queue.archive.ArchiveSinkException if the sink fails; nothing of the
   *     chunk is settled
   */
  public ChunkReport archiveChunk() {
    Chunk chunk = read(durableSeq.getAsLong(), nextSeq);
    if (chunk.isEmpty()) {
      return ChunkReport.NONE;
    }
    int appended = append(chunk);
    if (appended > 0) {
      sink.sync();
    }
    return settle(chunk);
  }

  /**
   * Archives chunks up to the watermark as it stands when the call starts (so it ends while ingest
   * goes on) until no obligation at or below it is left; returns the totals.
   *
   * <p>The store's reads of the next chunk (the scan of {@code 'a'} and the multiGet of its hooks)
   * run on a second thread while the sink syncs the current one, so a drain costs about the larger
   * of the store's work and the sink's instead of their sum. Nothing else changes: the sink is
   * called from the caller's thread only, each chunk is settled only after its own sync, and the
   * read of the next chunk starts above the current one, which its settle does not touch. The
   * reading thread lives for the call; no read is left running when it returns or throws.
   *
   * @throws io.ankusa.store.queue.archive.ArchiveSinkException if the sink fails; chunks already
   *     settled stay settled
   */
  public ChunkReport drain() {
    long durable = durableSeq.getAsLong();
    Chunk chunk = read(durable, nextSeq);
    if (chunk.isEmpty()) {
      return ChunkReport.NONE;
    }
    ChunkReport total = ChunkReport.NONE;
    ExecutorService reader =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, READER_THREAD);
              t.setDaemon(true);
              return t;
            });
    try {
      while (!chunk.isEmpty()) {
        Chunk current = chunk;
        int appended = append(current);
        Future<Chunk> next = reader.submit(() -> read(durable, current.lastSeq() + 1));
        if (appended > 0) {
          sink.sync();
        }
        total = total.plus(settle(current));
        chunk = await(next);
      }
      return total;
    } finally {
      reader.shutdown();
      awaitReader(reader);
    }
  }

  /**
   * Obligations of seq {@code >= fromSeq} and {@code <= durable}, at most a chunk, with their
   * hooks.
   */
  private Chunk read(long durable, long fromSeq) {
    if (durable < fromSeq) {
      return Chunk.NONE;
    }
    List<Long> seqs = new ArrayList<>(chunkHooks);
    List<ArchiveValue> obligations = new ArrayList<>(chunkHooks);
    KeyRange upToDurable = Keys.archiveUpTo(durable);
    byte[] from = Keys.archive(fromSeq);
    byte[] lo = Arrays.compareUnsigned(from, upToDurable.lo()) > 0 ? from : upToDurable.lo();
    try (Scan scan =
        queue.store().scan(upToDurable.columnFamily(), lo, upToDurable.hi(), Direction.FORWARD)) {
      while (seqs.size() < chunkHooks && scan.hasNext()) {
        Entry e = scan.next();
        seqs.add(ArchiveKey.decode(e.key()).seq());
        obligations.add(ArchiveValue.decodeAt(e.key(), e.value()));
      }
    }
    if (seqs.isEmpty()) {
      return Chunk.NONE;
    }
    List<byte[]> hookKeys = new ArrayList<>(seqs.size());
    for (long seq : seqs) {
      hookKeys.add(Keys.hook(seq));
    }
    return new Chunk(seqs, obligations, queue.store().multiGet(Format3.HOOKS, hookKeys));
  }

  /** Appends every present envelope of {@code chunk} to the sink; returns how many. */
  private int append(Chunk chunk) {
    int appended = 0;
    for (int i = 0; i < chunk.seqs().size(); i++) {
      byte[] envelope = chunk.envelopes().get(i);
      if (envelope != null) {
        sink.append(chunk.seqs().get(i), envelope);
        appended++;
      }
    }
    return appended;
  }

  /**
   * After the sink synced {@code chunk}'s appends: deletes its obligations in one batch, moves the
   * cursor.
   */
  private ChunkReport settle(Chunk chunk) {
    Transition t = new Transition();
    long bytes = 0;
    for (int i = 0; i < chunk.seqs().size(); i++) {
      byte[] envelope = chunk.envelopes().get(i);
      if (envelope != null) {
        Deliveries.archiveSettle(t, chunk.seqs().get(i), chunk.obligations().get(i));
        bytes += envelope.length;
      } else {
        Deliveries.archiveDrop(t, chunk.seqs().get(i), chunk.obligations().get(i));
      }
    }
    queue.write(t, Durability.NO_SYNC);
    long last = chunk.lastSeq();
    nextSeq = last + 1;
    int dropped = 0;
    int settled = 0;
    for (int i = 0; i < chunk.seqs().size(); i++) {
      if (t.applied(i)) { // else another settle of the same obligation got there first
        if (chunk.envelopes().get(i) == null) {
          dropped++;
        } else {
          settled++;
        }
      }
    }
    if (dropped > 0) {
      LOG.debug("archive: dropped {} obligations whose hook is gone (up to seq {})", dropped, last);
    }
    return new ChunkReport(settled, dropped, bytes, last);
  }

  private static Chunk await(Future<Chunk> next) {
    try {
      return next.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new StoreException(
          "archiver: reading the next chunk failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(
          "archiver interrupted while reading the next chunk; chunks already settled stay"
              + " settled, the rest stays owed: run the archiver again",
          e);
    }
  }

  /** Waits for the reading thread, so no read of the store outlives the drain. */
  private static void awaitReader(ExecutorService reader) {
    boolean interrupted = false;
    while (true) {
      try {
        if (reader.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
        LOG.warn("archiver: still waiting for the read of the next chunk to finish");
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The obligations of one chunk, in seq order, and their hooks' envelopes (null: the hook is
   * gone).
   */
  private record Chunk(List<Long> seqs, List<ArchiveValue> obligations, List<byte[]> envelopes) {
    static final Chunk NONE = new Chunk(List.of(), List.of(), List.of());

    boolean isEmpty() {
      return seqs.isEmpty();
    }

    long lastSeq() {
      return seqs.get(seqs.size() - 1);
    }
  }
}
