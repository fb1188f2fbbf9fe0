package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The syncer thread of a {@link QueueWriter} ({@code "ankusa-syncer"}): it owns {@link
 * Store#syncWal()} and the durable half of the watermark.
 *
 * <p>It takes every item the writer queued behind it — the replies of groups already applied — and,
 * when one needs a seq above {@code durableSeq}, calls {@code syncWal()} once for all of them (one
 * in flight at a time), then raises {@code durableSeq} and {@code durableAt} and only then
 * completes the replies. Items are taken <em>before</em> the call, so a sync covers exactly groups
 * whose write returned before it started. Meanwhile the writer applies the next group.
 *
 * <p>Fencing: a failed sync (or a {@link WriteFailed} from the writer) fails every reply it covers
 * and every later one with UNAVAILABLE {@code "fenced"}, leaves {@code durableSeq} where it was,
 * calls {@link Store#reportWriteFailure} and reports to the writer, which deletes the
 * unacknowledged groups and sends {@link Resume}; until then nothing is synced or acknowledged.
 */
final class WalSyncer {
  private static final Logger LOG = LoggerFactory.getLogger(WalSyncer.class);
  private static final long IDLE_PARK_NANOS = SingleConsumerQueue.millisToNanos(100);

  /**
   * Most groups answered by one sync, so a writer that never lets the queue run dry still gets
   * acks.
   */
  private static final int MAX_GROUPS_PER_SYNC = 4096;

  /** What the writer hands the syncer, in order. */
  sealed interface Item permits GroupReplies, WriteFailed, Resume, Stop {
    /** Hands this item to the matching method of {@code handler}; returns what it returns. */
    boolean accept(ItemHandler handler);
  }

  /** One method per kind of {@link Item}; each returns whether the syncer goes on taking items. */
  interface ItemHandler {
    boolean groupReplies(GroupReplies g);

    boolean writeFailed(WriteFailed w);

    boolean resume(Resume r);

    boolean stop(Stop s);
  }

  /** One answer to complete once durable. */
  record Reply(CompletableFuture<IngestResult> future, IngestResult result) {}

  /**
   * The replies of one group, to complete once every seq up to {@code requiredSeq} is durable.
   *
   * @param requiredSeq the applied seq when the group was answered (its own last seq if it wrote)
   * @param stamp the writer's clock when it applied the group
   */
  record GroupReplies(long requiredSeq, long stamp, List<Reply> replies) implements Item {
    @Override
    public boolean accept(ItemHandler handler) {
      return handler.groupReplies(this);
    }
  }

  /** The writer's write (or read) failed: fence. */
  record WriteFailed(Throwable cause) implements Item {
    @Override
    public boolean accept(ItemHandler handler) {
      return handler.writeFailed(this);
    }
  }

  /**
   * The writer deleted the unacknowledged groups: every seq up to {@code seq} is durable or gone.
   */
  record Resume(long seq, long at) implements Item {
    @Override
    public boolean accept(ItemHandler handler) {
      return handler.resume(this);
    }
  }

  /** The writer has drained and stops: sync once more, answer everything, exit. */
  record Stop() implements Item {
    @Override
    public boolean accept(ItemHandler handler) {
      return handler.stop(this);
    }
  }

  /**
   * What the syncer tells the writer after a failure.
   *
   * @param cause the failure
   * @param storeLost {@code reportWriteFailure} itself failed: the store is closed and the queue
   *     stays fenced until closed
   */
  record FenceReport(Throwable cause, boolean storeLost) {}

  /** The writer's side of a fence. */
  interface FenceListener {
    /** The queue is fenced: refuse new work at once. Called first. */
    void fenced();

    /** The store was told and recovered (or lost); the writer may repair now. */
    void reported(FenceReport report);

    /**
     * The syncer made progress (durableSeq moved, or it resumed): a writer waiting on it may go on.
     */
    void progressed();
  }

  private final Store store;
  private final FenceListener listener;
  private final SingleConsumerQueue<Item> items = new SingleConsumerQueue<>();
  private final Thread thread;
  private volatile long durableSeq;
  private volatile long durableAt;
  private volatile long syncs;

  /** Syncer thread only. */
  private boolean fenced;

  WalSyncer(Store store, long durableSeq, long durableAt, FenceListener listener) {
    this.store = store;
    this.listener = listener;
    this.durableSeq = durableSeq;
    this.durableAt = durableAt;
    this.thread = new Thread(this::run, QueueWriter.SYNCER_THREAD);
    this.thread.setDaemon(true);
    items.bindConsumer(thread);
  }

  void start() {
    thread.start();
  }

  /** Queues {@code item} behind everything the writer queued before. Writer thread. */
  void submit(Item item) {
    items.offer(item);
  }

  long durableSeq() {
    return durableSeq;
  }

  long durableAt() {
    return durableAt;
  }

  long syncs() {
    return syncs;
  }

  Thread thread() {
    return thread;
  }

  private void run() {
    List<GroupReplies> pending = new ArrayList<>();
    try {
      ItemHandler serving = serving(pending);
      while (true) {
        Item item = items.poll();
        if (item == null) {
          flush(pending);
          items.awaitItems(IDLE_PARK_NANOS);
        } else if (!item.accept(serving)) {
          return;
        }
      }
    } catch (Throwable t) {
      LOG.error(
          "the WAL syncer of {} failed unexpectedly; the queue is fenced until closed",
          store.directory(),
          t);
      failAll(pending);
      listener.fenced();
      listener.reported(new FenceReport(t, true));
      ItemHandler failing = failing();
      while (true) {
        Item item = items.poll();
        if (item == null) {
          items.awaitItems(IDLE_PARK_NANOS);
        } else if (!item.accept(failing)) {
          return;
        }
      }
    }
  }

  /**
   * The syncer at work: groups gather in {@code pending} until the queue runs dry or {@value
   * #MAX_GROUPS_PER_SYNC} wait, and any other item first syncs and answers what gathered.
   */
  private ItemHandler serving(List<GroupReplies> pending) {
    return new ItemHandler() {
      @Override
      public boolean groupReplies(GroupReplies g) {
        pending.add(g);
        if (pending.size() >= MAX_GROUPS_PER_SYNC) {
          flush(pending);
        }
        return true;
      }

      @Override
      public boolean writeFailed(WriteFailed w) {
        flush(pending);
        if (!fenced) {
          fence(w.cause());
        }
        return true;
      }

      @Override
      public boolean resume(Resume r) {
        flush(pending);
        fenced = false;
        durableSeq = Math.max(durableSeq, r.seq());
        durableAt = Math.max(durableAt, r.at());
        listener.progressed();
        return true;
      }

      @Override
      public boolean stop(Stop s) {
        flush(pending);
        finalSync();
        return false;
      }
    };
  }

  /** The syncer after it failed unexpectedly: every group is failed at once, until the stop. */
  private static ItemHandler failing() {
    return new ItemHandler() {
      @Override
      public boolean groupReplies(GroupReplies g) {
        failAll(List.of(g));
        return true;
      }

      @Override
      public boolean writeFailed(WriteFailed w) {
        return true;
      }

      @Override
      public boolean resume(Resume r) {
        return true;
      }

      @Override
      public boolean stop(Stop s) {
        return false;
      }
    };
  }

  /**
   * Syncs once for every group in {@code pending} (if one is above durableSeq), then answers them.
   */
  private void flush(List<GroupReplies> pending) {
    if (pending.isEmpty()) {
      return;
    }
    if (fenced) {
      failAll(pending);
      pending.clear();
      return;
    }
    long required = 0;
    long stamp = 0;
    for (GroupReplies g : pending) {
      required = Math.max(required, g.requiredSeq());
      stamp = Math.max(stamp, g.stamp());
    }
    if (required > durableSeq) {
      try {
        store.syncWal();
      } catch (RuntimeException e) {
        failAll(pending);
        pending.clear();
        fence(e);
        return;
      }
      syncs++;
      // Raised before any reply: a caller told CREATED finds its hook at or below durableSeq.
      durableSeq = required;
      durableAt = Math.max(durableAt, stamp);
    }
    for (GroupReplies g : pending) {
      for (Reply r : g.replies()) {
        r.future().complete(r.result());
      }
    }
    pending.clear();
    listener.progressed();
  }

  private void fence(Throwable cause) {
    fenced = true;
    listener.fenced();
    LOG.error(
        "write or WAL sync of the store at {} failed; fencing the queue at durableSeq {} until the"
            + " unacknowledged groups are deleted",
        store.directory(),
        durableSeq,
        cause);
    boolean lost = false;
    try {
      store.reportWriteFailure(cause);
    } catch (RuntimeException e) {
      lost = true;
      LOG.error(
          "the store at {} could not recover from the failure and is closed; every ingest is refused"
              + " until the writer is closed and the store reopened",
          store.directory(),
          e);
    }
    listener.reported(new FenceReport(cause, lost));
  }

  private void finalSync() {
    if (fenced) {
      return;
    }
    try {
      store.syncWal();
      syncs++;
    } catch (RuntimeException e) {
      LOG.warn(
          "final WAL sync of the store at {} on close failed; every acknowledged hook was synced"
              + " before, only unacknowledged work (e.g. dedupe sweeps) may be lost",
          store.directory(),
          e);
    }
  }

  private static void failAll(List<GroupReplies> groups) {
    IngestResult fenced = IngestResult.unavailable(IngestResult.FENCED);
    for (GroupReplies g : groups) {
      for (Reply r : g.replies()) {
        r.future().complete(fenced);
      }
    }
  }
}
