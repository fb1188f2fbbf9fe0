package io.ankusa.store.queue;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The archive job: copies every hook that has an archive obligation {@code 'a' seq} into an {@link
 * ArchiveSink}, then settles the obligation. One {@link #archiveChunk() chunk} is:
 *
 * <ol>
 *   <li>read up to {@code chunkHooks} obligations with {@code seq <= durableSeq}, in seq order — never
 *       above the watermark, so the archive only ever holds hooks whose ingest was acknowledged (DUR-4.b:
 *       "the archive scan stops at durable_seq");
 *   <li>read their hooks' envelopes ({@code 'h'} rows) in one multiGet;
 *   <li>append each present envelope to the sink, unchanged, and {@link ArchiveSink#sync sync} the sink;
 *   <li>only then, in one batch, delete the obligations with {@code archive_pending −1} each: a
 *       <i>settle</i> when the envelope was appended, a <i>drop</i> when the hook is gone (nothing to
 *       archive; same ops, counted apart).
 * </ol>
 *
 * <p><b>Guarantee: at-least-once into the archive, de-duplicated by seq on read.</b> A crash or a
 * failure after the sink's sync and before the settle batch is durable leaves the obligations, and the
 * next run appends those hooks again. Nothing is settled that the sink has not synced, so no obligation
 * is lost. The settle batch is written {@link Durability#NO_SYNC}: losing it to a power cut only repeats
 * appends, which readers skip. A sink failure ({@link ArchiveSinkException}) or a store failure leaves
 * every obligation of the chunk in place and propagates; run again later.
 *
 * <p><b>Where a chunk starts.</b> After a settled chunk the next one starts just above its last seq
 * instead of at the head of {@code 'a'}, which on an LSM engine would walk the tombstones of every
 * settled obligation. That skips nothing: obligations are created by ingest (with seqs above every
 * seq the writer has made durable, since seqs only grow) and by the format migration (before anything
 * serves); the writer's fence removes only obligations above {@code durableSeq}, which no chunk has
 * read. A new archiver (after a restart) starts at the head.
 *
 * <p>REQUIRES: one archiver per queue (two would settle an obligation twice and count −2); {@code
 * durableSeq} is the writer's watermark ({@code writer::durableSeq}), or {@code () -> Long.MAX_VALUE}
 * when every write is SYNC ({@link DirectIngest}). Not thread-safe: run it from one thread. Counters:
 * the layout property {@code countersEqualAFoldAfterAnySequenceOfTransitions} checks that {@code
 * archive_pending} equals the {@code 'a'} rows after archiver runs; {@code
 * archiveNeverGetsAHookAboveDurableSeq} and {@code archiverSettlesOnlyWhatTheSinkSynced} check the
 * watermark and the order of sync and settle.
 */
public final class Archiver {
  /** Default hooks per chunk: one sink sync and one store batch per 256 hooks. */
  public static final int DEFAULT_CHUNK_HOOKS = 256;

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
      throw new StoreArgumentException("archiver chunk of " + chunkHooks + " hooks: give at least 1");
    }
    this.queue = queue;
    this.durableSeq = durableSeq;
    this.sink = sink;
    this.chunkHooks = chunkHooks;
  }

  /**
   * What one chunk (or, from {@link #drain()}, every chunk of a drain) did.
   *
   * @param settled obligations settled: their envelopes are in the sink, synced
   * @param dropped obligations dropped because their hook was gone
   * @param envelopeBytes bytes of the envelopes appended
   * @param lastSeq the highest seq settled or dropped, 0 if none
   */
  public record ChunkReport(int settled, int dropped, long envelopeBytes, long lastSeq) {
    /** Obligations removed, settled or dropped. */
    public int obligations() {
      return settled + dropped;
    }

    ChunkReport plus(ChunkReport other) {
      return new ChunkReport(settled + other.settled, dropped + other.dropped, envelopeBytes + other.envelopeBytes,
          Math.max(lastSeq, other.lastSeq));
    }
  }

  /**
   * Archives one chunk (see the class doc). Returns what it did; {@code obligations() == 0} when no
   * obligation at or below the watermark is left.
   *
   * @throws ArchiveSinkException if the sink fails; nothing of the chunk is settled
   */
  public ChunkReport archiveChunk() {
    return archiveChunk(durableSeq.getAsLong());
  }

  /**
   * Archives chunks up to the watermark as it stands when the call starts (so it ends while ingest goes
   * on) until no obligation at or below it is left; returns the totals.
   *
   * @throws ArchiveSinkException if the sink fails; chunks already settled stay settled
   */
  public ChunkReport drain() {
    long durable = durableSeq.getAsLong();
    ChunkReport total = new ChunkReport(0, 0, 0, 0);
    while (true) {
      ChunkReport chunk = archiveChunk(durable);
      if (chunk.obligations() == 0) {
        return total;
      }
      total = total.plus(chunk);
    }
  }

  private ChunkReport archiveChunk(long durable) {
    if (durable < nextSeq) {
      return new ChunkReport(0, 0, 0, 0);
    }
    List<Long> seqs = new ArrayList<>(chunkHooks);
    List<ArchiveValue> obligations = new ArrayList<>(chunkHooks);
    KeyRange upToDurable = Keys.archiveUpTo(durable);
    byte[] from = Keys.archive(nextSeq);
    byte[] lo = Arrays.compareUnsigned(from, upToDurable.lo()) > 0 ? from : upToDurable.lo();
    try (Scan scan = queue.store().scan(upToDurable.columnFamily(), lo, upToDurable.hi(), Direction.FORWARD)) {
      while (seqs.size() < chunkHooks && scan.hasNext()) {
        Entry e = scan.next();
        seqs.add(ArchiveKey.decode(e.key()).seq());
        obligations.add(ArchiveValue.decodeAt(e.key(), e.value()));
      }
    }
    if (seqs.isEmpty()) {
      return new ChunkReport(0, 0, 0, 0);
    }
    List<byte[]> hookKeys = new ArrayList<>(seqs.size());
    for (long seq : seqs) {
      hookKeys.add(Keys.hook(seq));
    }
    List<byte[]> envelopes = queue.store().multiGet(Format3.HOOKS, hookKeys);
    int settled = 0;
    long bytes = 0;
    for (int i = 0; i < seqs.size(); i++) {
      byte[] envelope = envelopes.get(i);
      if (envelope != null) {
        sink.append(seqs.get(i), envelope);
        settled++;
        bytes += envelope.length;
      }
    }
    if (settled > 0) {
      sink.sync();
    }
    Transition t = new Transition();
    for (int i = 0; i < seqs.size(); i++) {
      if (envelopes.get(i) != null) {
        Deliveries.archiveSettle(t, seqs.get(i), obligations.get(i));
      } else {
        Deliveries.archiveDrop(t, seqs.get(i), obligations.get(i));
      }
    }
    queue.write(t, Durability.NO_SYNC);
    long last = seqs.get(seqs.size() - 1);
    nextSeq = last + 1;
    int dropped = seqs.size() - settled;
    if (dropped > 0) {
      LOG.debug("archive: dropped {} obligations whose hook is gone (up to seq {})", dropped, last);
    }
    return new ChunkReport(settled, dropped, bytes, last);
  }
}
