package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The archive: it never gets a hook above the durable seq, and the archiver settles only what the
 * sink synced.
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
  default void archiveNeverGetsAHookAboveDurableSeq(@ForAll("archiveActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertCountersEqualFold(t.store(), describe(i, actions, did));
      }
    }
  }

  /**
   * The archive's at-least-once guarantee: with syncs refused and restarts that lose unsynced appends,
   * after every action each hook ever ingested is still an {@code 'a'} obligation or in what the sink
   * synced, with the bytes it was stored with; a final drain leaves no obligation, every seq archived
   * once (as a de-duplicating reader sees it) and {@code archive_pending} zero.
   */
  @Property
  default void archiverSettlesOnlyWhatTheSinkSynced(@ForAll("archiveActions") List<QueueAction> actions) {
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
      assertThat(d.archiveObligations()).as("obligations after a final drain of %s", actions).isEmpty();
      assertThat(d.archive().synced().keySet()).as("archived seqs after a final drain of %s", actions)
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

  private static void assertEveryHookIsOwedOrArchived(QueueDriver d, Map<Long, byte[]> stored, String when) {
    Set<Long> owed = new HashSet<>();
    d.archiveObligations().forEach(o -> owed.add(o.seq()));
    List<String> lost = new ArrayList<>();
    for (Map.Entry<Long, byte[]> h : stored.entrySet()) {
      byte[] archived = d.archive().synced().get(h.getKey());
      if (archived == null && !owed.contains(h.getKey())) {
        lost.add("hook " + h.getKey() + " is neither an obligation nor in the synced archive");
      } else if (archived != null && !Arrays.equals(archived, h.getValue())) {
        lost.add("hook " + h.getKey() + " archived as " + Bytes.hex(archived) + " but stored as " + Bytes.hex(h.getValue()));
      }
    }
    assertThat(lost).as("%s: every hook is owed to the archive or in it", when).isEmpty();
    assertCountersEqualFold(d.store(), when);
  }
}
