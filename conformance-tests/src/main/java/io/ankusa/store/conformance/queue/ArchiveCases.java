package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.archive.ArchiveSinkException;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.archive.Archiver;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The archive: it never gets a hook above the durable seq, the archiver settles only what the sink
 * synced, its reports add up to what it archived, and a failing sink or store loses nothing.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface ArchiveCases extends LayoutCase {
  /**
   * The archive scan stops at {@code durableSeq}: generated ingests, dispatch and reclaim between
   * archiver runs whose watermark lags the newest seq by 0–6; no run appends a hook above the
   * watermark it was given (checked inside {@link QueueAction.Archive}), and after each action
   * {@code archive_pending} equals the {@code 'a'} rows.
   */
  @Property
  default void archiveNeverGetsAHookAboveDurableSeq(
      @ForAll("archiveActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertCountersEqualFold(t.store(), describe(i, actions, did));
      }
    }
  }

  /**
   * The archive's at-least-once guarantee: with syncs refused and restarts that lose unsynced
   * appends, after every action each hook ever ingested is still an {@code 'a'} obligation or in
   * what the sink synced, with the bytes it was stored with; a final drain leaves no obligation,
   * every seq archived once (as a de-duplicating reader sees it) and {@code archive_pending} zero.
   */
  @Property
  default void archiverSettlesOnlyWhatTheSinkSynced(
      @ForAll("archiveActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      Map<Long, byte[]> stored = new TreeMap<>();
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        rememberHooks(d, stored);
        assertEveryHookIsOwedOrArchived(d, stored, describe(i, actions, did));
      }
      d.restartArchiver();
      d.archiveWatermark(d.queue().lastSeq());
      d.archiver().drain();
      assertEveryHookIsOwedOrArchived(d, stored, "after a final drain");
      assertThat(d.archiveObligations())
          .as("obligations after a final drain of %s", actions)
          .isEmpty();
      assertThat(d.archive().synced().keySet())
          .as("archived seqs after a final drain of %s", actions)
          .containsExactlyElementsOf(stored.keySet());
      assertCountersEqualFold(t.store(), "after a final drain");
    }
  }

  /** Records the envelope of every hook not seen before (hooks are immutable once stored). */
  private static void rememberHooks(QueueDriver d, Map<Long, byte[]> stored) {
    for (HookEnvelope h : d.hooks()) {
      stored.computeIfAbsent(h.seq(), seq -> d.store().get(Format3.HOOKS, Keys.hook(seq)));
    }
  }

  private static void assertEveryHookIsOwedOrArchived(
      QueueDriver d, Map<Long, byte[]> stored, String when) {
    Set<Long> owed = new HashSet<>();
    d.archiveObligations().forEach(o -> owed.add(o.seq()));
    List<String> lost = new ArrayList<>();
    for (Map.Entry<Long, byte[]> h : stored.entrySet()) {
      byte[] archived = d.archive().synced().get(h.getKey());
      if (archived == null && !owed.contains(h.getKey())) {
        lost.add("hook " + h.getKey() + " is neither an obligation nor in the synced archive");
      } else if (archived != null && !Arrays.equals(archived, h.getValue())) {
        lost.add(
            "hook "
                + h.getKey()
                + " archived as "
                + Bytes.hex(archived)
                + " but stored as "
                + Bytes.hex(h.getValue()));
      }
    }
    assertThat(lost).as("%s: every hook is owed to the archive or in it", when).isEmpty();
    assertCountersEqualFold(d.store(), when);
  }

  /**
   * The archiver's reports add up to what it archived: 10 hooks, hooks 2 and 8 gone, chunks of 3.
   * The first chunk settles 2 and drops 1 with the bytes of the 2 envelopes; a drain of the rest
   * reports the totals of its chunks (6 settled, 1 dropped, their bytes, last seq 10), appends
   * every present envelope once in seq order with its stored bytes, syncs once per chunk that
   * appended something, and leaves no obligation and {@code archive_pending} zero. A chunk whose
   * hooks are all gone syncs nothing, also in a drain; a watermark stops a drain at its seq and a
   * chunk starting exactly at the watermark still archives that hook; a chunk of one hook works and
   * a chunk of none is refused.
   */
  @Example
  default void archiverReportsAddUpToWhatItArchived() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig().withArchive(true));
      QueueDriver d = new QueueDriver(queue);
      List<Long> seqs = d.ingest().ingest(hooksOfSizes(d, 10));
      assertThat(seqs)
          .as("seqs of the ingested hooks")
          .isEqualTo(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L));
      store.write(
          new Batch().delete(Format3.HOOKS, Keys.hook(2)).delete(Format3.HOOKS, Keys.hook(8)),
          Durability.SYNC);
      Map<Long, byte[]> envelopes = new TreeMap<>();
      for (long seq : seqs) {
        byte[] e = store.get(Format3.HOOKS, Keys.hook(seq));
        if (e != null) {
          envelopes.put(seq, e);
        }
      }
      RecordingArchiveSink sink = new RecordingArchiveSink();
      Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, 3);

      Archiver.ChunkReport first = archiver.archiveChunk();
      assertThat(first)
          .as("the first chunk: hooks 1 and 3 settled, 2 dropped")
          .isEqualTo(new Archiver.ChunkReport(2, 1, bytesOf(envelopes, 1, 3), 3));
      assertThat(first.obligations()).isEqualTo(3);
      Archiver.ChunkReport rest = archiver.drain();
      assertThat(rest)
          .as("a drain of the rest: chunks 4-6, 7-9 (8 gone) and 10")
          .isEqualTo(new Archiver.ChunkReport(6, 1, bytesOf(envelopes, 4, 5, 6, 7, 9, 10), 10));
      assertThat(rest.obligations()).isEqualTo(7);
      assertThat(sink.appended())
          .as("every present envelope appended once, in seq order")
          .containsExactlyElementsOf(envelopes.keySet());
      assertThat(sink.synced().keySet()).containsExactlyElementsOf(envelopes.keySet());
      envelopes.forEach(
          (seq, e) ->
              assertThat(sink.synced().get(seq)).as("archived bytes of seq %s", seq).isEqualTo(e));
      assertThat(sink.syncs()).as("one sync per chunk").isEqualTo(4);
      assertThat(d.archiveObligations()).isEmpty();
      assertThat(queue.counters().aggregate(store).archivePending()).isZero();
      assertThat(archiver.drain())
          .as("nothing left to archive")
          .isEqualTo(Archiver.ChunkReport.NONE);

      List<Long> more = d.ingest().ingest(hooksOfSizes(d, 7));
      store.write(
          new Batch()
              .delete(Format3.HOOKS, Keys.hook(11))
              .delete(Format3.HOOKS, Keys.hook(12))
              .delete(Format3.HOOKS, Keys.hook(13)),
          Durability.SYNC);
      AtomicLong watermark = new AtomicLong(15);
      Archiver later = new Archiver(queue, watermark::get, sink, 3);
      assertThat(later.archiveChunk())
          .as("a chunk whose hooks are all gone")
          .isEqualTo(new Archiver.ChunkReport(0, 3, 0, 13));
      assertThat(sink.syncs()).as("no sync for a chunk that appended nothing").isEqualTo(4);
      assertThat(later.drain())
          .as("a drain up to the watermark 15")
          .isEqualTo(
              new Archiver.ChunkReport(
                  2,
                  0,
                  store.get(Format3.HOOKS, Keys.hook(14)).length
                      + store.get(Format3.HOOKS, Keys.hook(15)).length,
                  15));
      watermark.set(16);
      assertThat(later.archiveChunk().lastSeq())
          .as("a chunk starting exactly at the watermark 16")
          .isEqualTo(16);
      assertThat(new Archiver(queue, () -> Long.MAX_VALUE, sink, 1).drain())
          .as("a chunk of one hook")
          .isEqualTo(
              new Archiver.ChunkReport(1, 0, store.get(Format3.HOOKS, Keys.hook(17)).length, 17));
      assertThat(more).hasSize(7);
      d.ingest().ingest(hooksOfSizes(d, 4));
      store.write(
          new Batch()
              .delete(Format3.HOOKS, Keys.hook(18))
              .delete(Format3.HOOKS, Keys.hook(19))
              .delete(Format3.HOOKS, Keys.hook(20)),
          Durability.SYNC);
      assertThat(new Archiver(queue, () -> Long.MAX_VALUE, sink, 3).drain())
          .as("a drain whose first chunk's hooks are all gone")
          .isEqualTo(
              new Archiver.ChunkReport(1, 3, store.get(Format3.HOOKS, Keys.hook(21)).length, 21));
      assertThat(sink.syncs()).as("syncs: one per chunk that appended something").isEqualTo(8);
      assertThat(sink.appended())
          .as("every present envelope appended once")
          .doesNotHaveDuplicates();
      assertThatThrownBy(() -> new Archiver(queue, () -> Long.MAX_VALUE, sink, 0))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("at least 1");
      assertCountersEqualFold(
          store, "after the archiver runs"); // the verifier would name the deleted hooks
    }
  }

  /**
   * A failing sink or store settles nothing of its chunk and loses nothing: a refused sync leaves
   * every obligation and the next run appends those hooks again; a sync refused in the middle of a
   * drain keeps the chunk settled before it and leaves the rest owed; a store whose read of the
   * next chunk (on the drain's reading thread) fails makes the drain throw that very error once the
   * current chunk is settled, and the rest stays owed. The settle batch never deletes an obligation
   * the sink has not synced (checked in every write), and a last drain archives everything.
   */
  @Example
  default void aFailingSinkOrStoreSettlesNothingOfItsChunk() {
    try (TempDirStore t = openQueueStore()) {
      RecordingArchiveSink sink = new RecordingArchiveSink();
      AtomicBoolean failReads = new AtomicBoolean();
      StoreException readFailure =
          new StoreException("suite: read of the next chunk refused on purpose");
      Store checking =
          new ForwardingStore(t.store()) {
            @Override
            public void write(Batch batch, Durability durability) {
              for (Op op : batch.ops()) {
                if (op instanceof Op.Delete del
                    && Keys.realKeysOf(KeyFamily.ARCHIVE).contains(del.key())) {
                  long seq = ArchiveKey.decode(del.key()).seq();
                  assertThat(sink.synced())
                      .as("obligation of seq %s settled before the sink synced it", seq)
                      .containsKey(seq);
                }
              }
              super.write(batch, durability);
            }

            @Override
            public List<byte[]> multiGet(String family, List<byte[]> keys) {
              if (failReads.get()
                  && Thread.currentThread().getName().equals(Archiver.READER_THREAD)) {
                throw readFailure;
              }
              return super.multiGet(family, keys);
            }
          };
      DeliveryQueue queue = DeliveryQueue.open(checking, queueConfig().withArchive(true));
      QueueDriver d = new QueueDriver(queue);
      List<Long> seqs = d.ingest().ingest(hooksOfSizes(d, 12));
      Archiver archiver = new Archiver(queue, () -> Long.MAX_VALUE, sink, 3);

      sink.failSyncs(1);
      assertThatThrownBy(archiver::archiveChunk)
          .as("a chunk whose sync is refused")
          .isInstanceOf(ArchiveSinkException.class);
      assertThat(obligationSeqs(d))
          .as("obligations after a refused sync")
          .containsExactlyElementsOf(seqs);
      assertThat(queue.counters().aggregate(checking).archivePending()).isEqualTo(12);

      sink.failSyncAfter(1);
      assertThatThrownBy(archiver::drain)
          .as("a drain whose second sync is refused")
          .isInstanceOf(ArchiveSinkException.class);
      assertThat(obligationSeqs(d))
          .as("the first chunk settled, the rest owed")
          .containsExactlyElementsOf(seqs.subList(3, 12));
      assertThat(sink.appended())
          .as("the refused chunk was appended again by the next run")
          .startsWith(1L, 2L, 3L, 1L, 2L, 3L, 4L, 5L, 6L);

      Archiver afterRestart = new Archiver(queue, () -> Long.MAX_VALUE, sink, 3);
      assertThat(afterRestart.archiveChunk().settled())
          .as("a chunk before the store fails")
          .isEqualTo(3);
      failReads.set(true);
      assertThatThrownBy(afterRestart::drain).as("a drain whose read fails").isSameAs(readFailure);
      failReads.set(false);
      assertThat(obligationSeqs(d))
          .as("the chunk read before the failure (7-9) settled, the rest owed")
          .containsExactlyElementsOf(seqs.subList(9, 12));
      assertThat(queue.counters().aggregate(checking).archivePending()).isEqualTo(3);

      assertThat(afterRestart.drain().settled()).as("the last drain").isEqualTo(3);
      assertThat(sink.synced().keySet()).containsExactlyElementsOf(seqs);
      assertThat(obligationSeqs(d)).isEmpty();
      assertThat(QueueVerifier.verify(checking)).isEmpty();
    }
  }

  /**
   * {@code n} hooks of tenants acme and globex by turns; hook {@code i} carries {@code i + 1}
   * payload bytes.
   */
  private static List<HookEnvelope> hooksOfSizes(QueueDriver d, int n) {
    List<HookEnvelope> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(d.newHook(i % 2 == 0 ? "acme" : "globex", START + i, 1, i + 1));
    }
    return out;
  }

  private static long bytesOf(Map<Long, byte[]> envelopes, long... seqs) {
    long n = 0;
    for (long seq : seqs) {
      n += envelopes.get(seq).length;
    }
    return n;
  }

  private static List<Long> obligationSeqs(QueueDriver d) {
    return d.archiveObligations().stream().map(QueueDriver.Obligation::seq).toList();
  }
}
