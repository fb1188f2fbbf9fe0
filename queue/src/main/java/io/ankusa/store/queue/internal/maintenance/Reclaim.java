package io.ankusa.store.queue.internal.maintenance;

import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.ClearedKey;
import io.ankusa.store.layout.DeliveryKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.HookKey;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Deletes hooks that no delivery row and no archive obligation still owes. Transitions that finish
 * a delivery put a cleared marker {@code 'c' seq}; reclaim visits them, and for each hook with no
 * delivery row left and no {@code 'a'} obligation deletes the envelope and the marker in one batch.
 * A marker whose hook still owes something is left for a later lap. No counters move.
 *
 * <p><b>Progress.</b> A pass starts at the queue's reclaim cursor ({@link
 * DeliveryQueue#reclaimCursor}, in memory, 0 after open) and moves it just above the last marker it
 * visited, also at the end of the markers: it never goes back to their head, where on an LSM engine
 * every marker deleted since the last compaction lies as a tombstone a scan would walk, and under
 * sustained ingest those pile up into far more than a pass visits (docs/measurements/sustain.md). A
 * marker whose hook still owes something is left where it is, behind the cursor: the transition
 * that ends an obligation of the hook — a delivered, a purge of a due or dead row, an archive
 * settle or drop — puts the marker again and, written through {@link DeliveryQueue#write}, lowers
 * the cursor to it, so a later pass visits it again then. A marker put behind the cursor is visited
 * by the next pass; one put while a pass runs keeps that pass from moving the cursor past it
 * ({@link io.ankusa.store.queue.internal.ScanCursor}). So every marker of a hook nothing owes is
 * visited, without a lap from the head. A restart starts at the head once, which also finds markers
 * whose write went past {@link DeliveryQueue#write} (tools that write transitions themselves).
 *
 * <p><b>Cost.</b> One scan of up to {@code limit} markers starting at the cursor, so a pass never
 * walks the tombstones of markers earlier passes deleted (on an LSM engine a scan from the head
 * does, and a drain that always starts there slows down as it goes); per {@value #MULTI_GET_KEYS}
 * hooks one multiGet of the obligations {@code 'a' seq} and one scan of the delivery rows from the
 * first hook's seq to the last, merged with the hooks (bounded: see {@link
 * #ROWS_PER_HOOK_IN_SPAN}). {@code ReclaimBench} compares it with the former pass: from the head, a
 * range read per hook and a point read per obligation (reading the envelopes to multiGet the
 * delivery rows by sink was measured too, and was slower: the envelopes are the largest values of
 * the store).
 *
 * <p>Writes are {@code NO_SYNC}: a delete lost in a crash leaves the hook and its marker, and a
 * later pass deletes them again.
 */
public final class Reclaim {
  private Reclaim() {}

  /** Runs one {@link #pass}; returns how many hooks were deleted. */
  public static int run(DeliveryQueue queue, int limit) {
    return pass(queue, limit).reclaimed();
  }

  /**
   * Visits up to {@code limit} cleared markers from the queue's reclaim cursor and deletes the
   * hooks nothing owes. REQUIRES: {@code limit >= 1}.
   */
  public static Pass pass(DeliveryQueue queue, int limit) {
    long from = queue.reclaimCursor().start();
    long next = from;
    try {
      Visited visited = visit(queue, from, limit);
      next = visited.next();
      return visited.done();
    } finally {
      queue.reclaimCursor().finish(next);
    }
  }

  /** What {@link #visit} did, and where the next pass starts. */
  private record Visited(Pass done, long next) {}

  private static Visited visit(DeliveryQueue queue, long from, int limit) {
    KeyRange cleared = Keys.realKeysOf(KeyFamily.CLEARED);
    List<Long> seqs = new ArrayList<>(Math.min(limit, 4096));
    try (Scan scan =
        queue
            .store()
            .scan(cleared.columnFamily(), Keys.cleared(from), cleared.hi(), Direction.FORWARD)) {
      while (seqs.size() < limit && scan.hasNext()) {
        seqs.add(ClearedKey.decode(scan.next().key()).seq());
      }
    }
    boolean lapEnded = seqs.size() < limit;
    if (seqs.isEmpty()) {
      return new Visited(new Pass(0, 0, true), from);
    }
    Batch batch = new Batch();
    int deleted = 0;
    // under the hook stripes, so no expand (which puts delivery rows back) runs between check and
    // delete
    try (TransitionGuard.Held held = queue.guard().lockHooks(seqs)) {
      boolean[] owed = owed(queue, seqs);
      for (int i = 0; i < seqs.size(); i++) {
        if (!owed[i]) {
          batch.delete(Format3.HOOKS, Keys.hook(seqs.get(i)));
          batch.delete(Format3.INDEX, Keys.cleared(seqs.get(i)));
          deleted++;
        }
      }
      if (!batch.isEmpty()) {
        queue.store().write(batch, Durability.NO_SYNC);
      }
    }
    return new Visited(new Pass(seqs.size(), deleted, lapEnded), seqs.get(seqs.size() - 1) + 1);
  }

  /**
   * Keys per multiGet: a backend may set aside a value buffer per key, so huge calls cost more than
   * they save.
   */
  static final int MULTI_GET_KEYS = 512;

  /** Per seq: whether a delivery row or an archive obligation still owes its hook. */
  private static boolean[] owed(DeliveryQueue queue, List<Long> seqs) {
    int n = seqs.size();
    boolean[] owed = new boolean[n];
    for (int from = 0; from < n; from += MULTI_GET_KEYS) {
      List<Long> part = seqs.subList(from, Math.min(n, from + MULTI_GET_KEYS));
      boolean[] partOwed = owedChunk(queue, part);
      System.arraycopy(partOwed, 0, owed, from, partOwed.length);
    }
    return owed;
  }

  private static boolean[] owedChunk(DeliveryQueue queue, List<Long> seqs) {
    boolean[] owed = new boolean[seqs.size()];
    List<byte[]> archiveKeys = new ArrayList<>(seqs.size());
    for (long seq : seqs) {
      archiveKeys.add(Keys.archive(seq));
    }
    List<byte[]> obligations = queue.store().multiGet(Format3.INDEX, archiveKeys);
    for (int i = 0; i < seqs.size(); i++) {
      owed[i] = obligations.get(i) != null;
    }
    markOwedByDeliveryRows(queue.store(), seqs, owed);
    return owed;
  }

  /**
   * Delivery rows one merged scan may visit per hook of a chunk before the rest is read per hook.
   */
  static final int ROWS_PER_HOOK_IN_SPAN = 4;

  /**
   * Sets {@code owed[i]} for every seq (ascending) that has a delivery row. One forward scan over
   * the delivery rows from the first seq to the last, merged with the seqs, instead of a range read
   * per hook: cleared hooks sit close together in seq order, so the span holds few rows of other
   * hooks. A span dense with rows of hooks still in flight (a deep dead-letter backlog) stops the
   * merge after {@value #ROWS_PER_HOOK_IN_SPAN} rows per hook, and the seqs it did not reach get a
   * range read each.
   */
  private static void markOwedByDeliveryRows(ReadView view, List<Long> seqs, boolean[] owed) {
    int n = seqs.size();
    int next = 0;
    long budget = (long) ROWS_PER_HOOK_IN_SPAN * n;
    boolean complete;
    try (Scan scan =
        view.scan(
            Format3.DELIVERIES,
            Keys.deliveriesOf(seqs.get(0)).lo(),
            Keys.deliveriesOf(seqs.get(n - 1)).hi(),
            Direction.FORWARD)) {
      while (next < n && budget-- > 0 && scan.hasNext()) {
        long seq = DeliveryKey.decode(scan.next().key()).seq();
        while (next < n && seqs.get(next) < seq) {
          next++; // no delivery row: the scan is past it
        }
        if (next < n && seqs.get(next) == seq) {
          owed[next] = true;
        }
      }
      complete = next >= n || !scan.hasNext();
    }
    for (int i = next; !complete && i < n; i++) {
      owed[i] |= FormatStamp.any(view, Keys.deliveriesOf(seqs.get(i)));
    }
  }

  /**
   * How far reclaim is behind, the slow truth (demo, benches and tests only; it reads every hook,
   * delivery row and obligation key): hooks stored, and how many of them a delivery row or an
   * archive obligation still owes. Read it from a snapshot for one consistent picture.
   */
  public static Backlog backlog(ReadView view) {
    Set<Long> owing = new HashSet<>();
    CounterFold.foldFamily(
        view, KeyFamily.DELIVERY, e -> owing.add(DeliveryKey.decode(e.key()).seq()));
    CounterFold.foldFamily(
        view, KeyFamily.ARCHIVE, e -> owing.add(ArchiveKey.decode(e.key()).seq()));
    long[] counts = new long[2];
    CounterFold.foldFamily(
        view,
        KeyFamily.HOOK,
        e -> {
          counts[0]++;
          if (owing.contains(HookKey.decode(e.key()).seq())) {
            counts[1]++;
          }
        });
    return new Backlog(counts[0], counts[1]);
  }

  /**
   * Hooks stored and hooks owed.
   *
   * @param stored hook envelopes in the store
   * @param owed stored hooks a delivery row or an archive obligation still owes
   */
  public record Backlog(long stored, long owed) {
    /** Hooks nothing owes that reclaim has not deleted yet. */
    public long unowed() {
      return stored - owed;
    }
  }

  /**
   * What one pass did.
   *
   * @param visited cleared markers read
   * @param reclaimed hooks deleted with their markers (a marker whose hook was already gone counts
   *     too)
   * @param lapEnded the pass reached the end of the markers (the next one starts where markers put
   *     meanwhile, or behind the cursor since, lowered it)
   */
  public record Pass(int visited, int reclaimed, boolean lapEnded) {}
}
