package io.ankusa.store.queue.internal.ingest;

import io.ankusa.store.layout.DedupeValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.maintenance.DedupeExpiry;
import io.ankusa.store.queue.internal.tenant.TenantAllocator;
import io.ankusa.store.queue.internal.tenant.TenantLimitException;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest writer (docs/design.md): group commit with the WAL fsync off the critical path.
 *
 * <h2>Threading model</h2>
 *
 * <ul>
 *   <li><b>Callers</b> ({@link #ingest}, any thread) never block on a lock or the disk: the request
 *       is validated on the calling thread (REJECTED completes at once), then appended to a bounded
 *       lock-free queue; when it holds {@link WriterConfig#queueCapacity()} requests the answer is
 *       UNAVAILABLE {@code "overloaded"} at once, so memory stays bounded.
 *   <li><b>The writer thread</b> ({@value #WRITER_THREAD}) drains up to {@link
 *       WriterConfig#maxGroupHooks()} requests / {@link WriterConfig#maxGroupBytes()} bytes into a
 *       group; checks idempotency keys (first in memory against groups applied but not yet durable
 *       and earlier requests of the group, then one multiGet of the rest); resolves tenants with
 *       the queue's {@link TenantAllocator} (one multiGet of uncached tenants, new ordinals in the
 *       same batch, {@code TENANT_LIMIT} beyond {@code tenants.max}); assigns seqs after {@code
 *       m:last_seq}; builds ONE batch (hooks and rows by {@link
 *       io.ankusa.store.queue.internal.Deliveries#ingest}, dedupe {@code 'u'} and expiry {@code
 *       'e'} keys, {@code m:last_seq}, the new ordinals), raises {@link #appliedSeq()} and writes
 *       it {@code NO_SYNC}. The group's replies go to the syncer; the writer goes on with the next
 *       group. It also sweeps expired dedupe keys ({@link DedupeExpiry}) between groups every
 *       {@link WriterConfig#dedupeSweepIntervalMs()}, and when idle.
 *   <li><b>The syncer thread</b> ({@value #SYNCER_THREAD}) owns {@link Store#syncWal()}, one in
 *       flight at a time: it takes every reply queued behind it, syncs once, raises {@link
 *       #durableSeq()} and {@link #durableAt()}, then completes the replies — so there are as many
 *       fsyncs as the disk allows, not one per group. Every reply, DUPLICATE and TENANT_LIMIT
 *       included, goes through it: nothing is answered before the sync covering every seq it
 *       depends on.
 * </ul>
 *
 * Futures are completed on the syncer thread (or at once on the caller's): keep dependent actions
 * short, or use the {@code …Async} variants.
 *
 * <h2>The watermark</h2>
 *
 * Three volatile longs, readable without locks: {@link #appliedSeq()} (raised <em>before</em> each
 * write, so a reader that sees a batch also sees it as not yet durable), {@link #durableSeq()}
 * (every hook up to it is synced) and {@link #durableAt()}. Nothing is externally visible before it
 * is durable: give the dispatcher the durable seq, {@code new Dispatcher(queue, writer::durableSeq,
 * …)}. {@code appliedSeq - durableSeq} is also bounded by {@link WriterConfig#queueCapacity()}: the
 * writer stops taking work while that many hooks wait for a sync.
 *
 * <h2>Fencing</h2>
 *
 * A failed sync or write fences the queue: every reply the failure covers and every later one is
 * UNAVAILABLE {@code "fenced"}, {@code durableSeq} stays, the store is told ({@link
 * Store#reportWriteFailure}, which lets a backend reopen), new requests are refused at once, and
 * the writer deletes in one {@code SYNC} write every row of every group never acknowledged — hooks,
 * delivery and due rows, archive obligations, their counts, dedupe and expiry keys — and retires
 * the ordinals those groups created (tombstones, {@code m:next_ord} never moves back), keeping
 * {@code m:last_seq}: neither seqs nor ordinals are ever reused. Only then does it resume, raising
 * the watermark to where it stands ({@code durableSeq = appliedSeq}). So a hook whose caller was
 * told UNAVAILABLE is never visible to dispatch, and the caller's retry stores it once. If the
 * store cannot recover (its reopen fails) the writer stays fenced until closed.
 *
 * <h2>Guarantees to a caller</h2>
 *
 * CREATED and DUPLICATE: the hook named by the seq is durable. UNAVAILABLE: nothing of the request
 * is (or will become) stored; a retry is safe. See {@link IngestResult}.
 *
 * <p>One writer per store: it is the store's only allocator of seqs and ordinals, and a second one
 * on the same store object (through this queue or another) is refused; do not run {@link
 * DirectIngest} beside it. {@link #close()} drains and answers everything; nothing acknowledged is
 * lost.
 */
public final class QueueWriter implements AutoCloseable {
  /** The writer thread's name. */
  public static final String WRITER_THREAD = "ankusa-writer";

  /** The syncer thread's name. */
  public static final String SYNCER_THREAD = "ankusa-syncer";

  private static final Logger LOG = LoggerFactory.getLogger(QueueWriter.class);
  private static final long IDLE_PARK_NANOS = SingleConsumerQueue.millisToNanos(50);

  /** Most expired dedupe keys deleted per sweep turn of the writer. */
  static final int SWEEP_LIMIT = 1000;

  private static final int REPAIR_ATTEMPTS = 3;

  /**
   * The stores a writer runs on, by identity: one writer per store, not per queue, since two queues
   * opened on one store would otherwise each run a writer, and both would hand out the same seqs.
   */
  private static final Set<Store> RUNNING =
      Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

  private final DeliveryQueue queue;
  private final Store store;
  private final WriterConfig config;
  private final LongSupplier clock;
  private final Capabilities capabilities;
  private final boolean archive;
  private final SingleConsumerQueue<PendingIngest> input = new SingleConsumerQueue<>();
  private final AtomicInteger queued = new AtomicInteger();

  /** Callers between their state check and their offer; close waits for them to finish. */
  private final AtomicInteger entering = new AtomicInteger();

  private final AtomicBoolean closeStarted = new AtomicBoolean();

  /**
   * Whether this writer still holds its store's place in {@link #RUNNING}; the first close that
   * joins gives it up.
   */
  private final AtomicBoolean holdsStore = new AtomicBoolean(true);

  private final Thread writerThread;
  private final WalSyncer syncer;
  private final UnackedGroups unacked = new UnackedGroups();

  /** Work that must run on the writer thread, between groups ({@link #onWriterThread}). */
  private final ConcurrentLinkedQueue<WriterTask> tasks = new ConcurrentLinkedQueue<>();

  /** A task for the writer thread and the future that answers for it. */
  private record WriterTask(Runnable run, CompletableFuture<?> result) {}

  private volatile boolean closing;

  /** Set by the syncer (or the writer) on a failure, cleared by the writer when it resumes. */
  private volatile boolean fenced;

  /** The syncer's report, consumed by the writer. */
  private volatile WalSyncer.FenceReport fenceReport;

  /** The store could not recover: refuse everything until closed. Writer thread writes. */
  private volatile boolean storeLost;

  private volatile long appliedSeq;
  private volatile long groups;
  private volatile long hooks;
  private volatile long duplicates;
  private volatile long fences;

  /** The highest seq assigned. Writer thread only. */
  private long lastSeq;

  private QueueWriter(DeliveryQueue queue, WriterConfig config, LongSupplier clock) {
    this.queue = queue;
    this.store = queue.store();
    this.config = config;
    this.clock = clock;
    this.capabilities = store.capabilities();
    this.archive = queue.config().archiveEnabled();
    // Whatever is in the store now is made durable, so the watermark can start at m:last_seq.
    store.syncWal();
    this.lastSeq = queue.lastSeq();
    this.appliedSeq = lastSeq;
    this.syncer =
        new WalSyncer(
            store,
            lastSeq,
            clock.getAsLong(),
            new WalSyncer.FenceListener() {
              @Override
              public void fenced() {
                fenced = true;
              }

              @Override
              public void reported(WalSyncer.FenceReport report) {
                fenceReport = report;
                input.wakeConsumer();
              }

              @Override
              public void progressed() {
                input.wakeConsumer();
              }
            });
    this.writerThread = new Thread(this::runWriter, WRITER_THREAD);
    this.writerThread.setDaemon(true);
    input.bindConsumer(writerThread);
  }

  /** {@link #start(DeliveryQueue, WriterConfig, LongSupplier)} with the system clock. */
  public static QueueWriter start(DeliveryQueue queue, WriterConfig config) {
    return start(queue, config, System::currentTimeMillis);
  }

  /**
   * Starts the writer and syncer threads on {@code queue}. Syncs the WAL once, so the watermark
   * starts at the store's {@code m:last_seq}.
   *
   * @param clock epoch milliseconds: stamps ({@link #durableAt()}), dedupe expiry, sweep times
   * @throws StoreArgumentException if another writer runs on {@code queue}'s store (through any
   *     queue)
   */
  public static QueueWriter start(DeliveryQueue queue, WriterConfig config, LongSupplier clock) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(clock, "clock");
    if (!RUNNING.add(queue.store())) {
      throw new StoreArgumentException(
          "a QueueWriter already runs on the store at "
              + queue.store().directory()
              + " (through this queue or another opened on the same store); close it first: the writer is the"
              + " store's only allocator of seqs and ordinals");
    }
    try {
      QueueWriter w = new QueueWriter(queue, config, clock);
      w.syncer.start();
      w.writerThread.start();
      return w;
    } catch (RuntimeException e) {
      RUNNING.remove(queue.store());
      throw e;
    }
  }

  /**
   * Submits one hook. Never blocks on a lock or the disk. The future completes with CREATED
   * (durable), DUPLICATE, TENANT_LIMIT, REJECTED (at once) or UNAVAILABLE (at once when fenced,
   * overloaded or closed; later when a failure fences the queue before the request's group is
   * durable). It never completes exceptionally.
   *
   * <p>Ownership: {@code request.payload()} is kept, not copied; do not modify it until the future
   * is complete.
   */
  public CompletableFuture<IngestResult> ingest(IngestRequest request) {
    Objects.requireNonNull(request, "request");
    entering.incrementAndGet();
    try {
      if (closing) {
        return CompletableFuture.completedFuture(IngestResult.unavailable(IngestResult.CLOSED));
      }
      if (fenced || storeLost) {
        return CompletableFuture.completedFuture(IngestResult.unavailable(IngestResult.FENCED));
      }
      PendingIngest pending;
      try {
        pending = PendingIngest.validate(request, config, capabilities);
      } catch (PendingIngest.Rejected r) {
        return CompletableFuture.completedFuture(r.result());
      }
      if (queued.incrementAndGet() > config.queueCapacity()) {
        queued.decrementAndGet();
        return CompletableFuture.completedFuture(IngestResult.unavailable(IngestResult.OVERLOADED));
      }
      input.offer(pending);
      return pending.future();
    } finally {
      entering.decrementAndGet();
    }
  }

  /** Every hook up to this seq is durable (the dispatch watermark). Lock-free. */
  /**
   * Runs {@code task} on the writer thread between two groups, where it may use the queue's tenant
   * allocator (which only the writer touches) and no group is being assembled: how a tenant is
   * erased while the writer runs. The future completes with the task's result, or exceptionally
   * with what it threw, or with {@link StoreClosedException} when the writer closes or has stopped
   * before running it.
   */
  public <T> CompletableFuture<T> onWriterThread(java.util.function.Supplier<T> task) {
    Objects.requireNonNull(task, "task");
    CompletableFuture<T> result = new CompletableFuture<>();
    if (closing || storeLost) {
      result.completeExceptionally(
          new StoreClosedException(
              "the writer of the store at "
                  + store.directory()
                  + " is closed or stopped; open the queue again"));
      return result;
    }
    tasks.add(
        new WriterTask(
            () -> {
              try {
                result.complete(task.get());
              } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
              }
            },
            result));
    input.wakeConsumer();
    if (closing || storeLost) {
      refuseTasks(); // the writer may have stopped before it saw the task
    }
    return result;
  }

  /** Runs the tasks queued for the writer thread. */
  private void runTasks() {
    for (WriterTask task = tasks.poll(); task != null; task = tasks.poll()) {
      task.run().run();
    }
  }

  /** Fails the tasks still queued when the writer stops: they never ran. */
  private void refuseTasks() {
    for (WriterTask task = tasks.poll(); task != null; task = tasks.poll()) {
      task.result()
          .completeExceptionally(
              new StoreClosedException(
                  "the writer of the store at "
                      + store.directory()
                      + " stopped before it ran this task; open the queue again"));
    }
  }

  public long durableSeq() {
    return syncer.durableSeq();
  }

  /** The highest seq written; raised before each write. Lock-free. */
  public long appliedSeq() {
    return appliedSeq;
  }

  /** The writer's clock when the newest durable group was applied. Lock-free. */
  public long durableAt() {
    return syncer.durableAt();
  }

  /** Counts and watermark; see {@link WriterStats}. */
  public WriterStats stats() {
    return new WriterStats(
        groups, syncer.syncs(), hooks, duplicates, fences, durableSeq(), appliedSeq, durableAt());
  }

  /** The writer's and the syncer's threads (tests check that none outlives its owner's close). */
  public List<Thread> threads() {
    return List.of(writerThread, syncer.thread());
  }

  /** Whether the queue is fenced (refusing work) right now. */
  public boolean isFenced() {
    return fenced || storeLost;
  }

  /**
   * Stops accepting (UNAVAILABLE {@code "closed"}), lets the writer drain and apply everything
   * already queued, syncs a last time, answers every request, and joins both threads. Nothing
   * acknowledged is lost. Idempotent; does not close the store. Called from a future's callback on
   * the syncer thread it only starts the close (it cannot wait for itself).
   */
  @Override
  public void close() {
    if (closeStarted.compareAndSet(false, true)) {
      closing = true;
      input.wakeConsumer();
    }
    Thread self = Thread.currentThread();
    if (self == writerThread || self == syncer.thread()) {
      return;
    }
    boolean interrupted = false;
    for (Thread t : List.of(writerThread, syncer.thread())) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (holdsStore.compareAndSet(true, false)) {
      // Once only: a later close must not free the place of a writer started after this one.
      RUNNING.remove(queue.store());
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  // ------------------------------------------------------------------ writer thread

  /**
   * Reads the known tenants' ordinals into the allocator's cache before the first group ({@link
   * TenantAllocator#warm}), so that after a restart a tenant's first group does not read its row. A
   * failed read is logged and left: the tenants not cached are read with their first group as
   * before, where a damaged row is met only if a group names its tenant.
   */
  private void warmOrdinals() {
    try {
      int read = queue.allocator().warm(store);
      LOG.debug(
          "writer of the store at {}: {} tenant ordinals cached at start", store.directory(), read);
    } catch (StoreException e) {
      LOG.warn(
          "writer of the store at {}: reading the tenants' ordinals at start failed; each tenant's"
              + " ordinal is read with its first group instead",
          store.directory(),
          e);
    }
  }

  private void runWriter() {
    List<PendingIngest> group = new ArrayList<>(config.maxGroupHooks());
    long nextSweepAt = clock.getAsLong() + config.dedupeSweepIntervalMs();
    try {
      warmOrdinals();
      while (true) {
        WalSyncer.FenceReport report = fenceReport;
        if (report != null) {
          repair(report);
          continue;
        }
        if (fenced || storeLost) {
          refuseQueued();
          if (storeLost && drainedForClose()) {
            break;
          }
          input.awaitItems(IDLE_PARK_NANOS);
          continue;
        }
        if (appliedSeq - syncer.durableSeq() >= config.queueCapacity()) {
          // Requests may be queued, but none may be applied until durableSeq moves: wait for the
          // syncer's signal (or close, or a fence report), never spin over the queued requests.
          input.awaitWake(IDLE_PARK_NANOS);
          continue;
        }
        runTasks();
        drainGroup(group);
        long now = clock.getAsLong();
        if (group.isEmpty()) {
          if (drainedForClose()) {
            break;
          }
          if (now >= nextSweepAt) {
            nextSweepAt = sweep(now);
            continue;
          }
          input.awaitItems(
              Math.min(IDLE_PARK_NANOS, SingleConsumerQueue.millisToNanos(nextSweepAt - now)));
          continue;
        }
        applyGroup(group, now);
        group.clear();
        if (now >= nextSweepAt && !fenced) {
          nextSweepAt = sweep(now);
        }
      }
    } catch (Throwable t) {
      LOG.error(
          "the writer of the store at {} failed unexpectedly; refusing every request until closed",
          store.directory(),
          t);
      storeLost = true;
      fenced = true;
      for (PendingIngest p : group) {
        p.future().complete(IngestResult.unavailable(IngestResult.FENCED));
      }
      while (!drainedForClose()) {
        refuseQueued();
        input.awaitItems(IDLE_PARK_NANOS);
      }
    } finally {
      refuseQueued();
      refuseTasks();
      syncer.submit(new WalSyncer.Stop());
    }
  }

  /** Whether close was asked, no caller is mid-offer, and the input is empty. */
  private boolean drainedForClose() {
    return closing && entering.get() == 0 && input.isEmpty();
  }

  /**
   * Takes the next group: up to maxGroupHooks requests and maxGroupBytes (at least one request).
   */
  private void drainGroup(List<PendingIngest> group) {
    long bytes = 0;
    while (group.size() < config.maxGroupHooks()) {
      PendingIngest next = input.peek();
      if (next == null || (!group.isEmpty() && bytes + next.bytes() > config.maxGroupBytes())) {
        return;
      }
      input.poll();
      queued.decrementAndGet();
      group.add(next);
      bytes += next.bytes();
    }
  }

  /** Answers every queued request UNAVAILABLE (fenced, or closed once closing). */
  private void refuseQueued() {
    IngestResult refusal =
        IngestResult.unavailable(closing && !fenced ? IngestResult.CLOSED : IngestResult.FENCED);
    PendingIngest p;
    while ((p = input.poll()) != null) {
      queued.decrementAndGet();
      p.future().complete(refusal);
    }
  }

  /**
   * One group: duplicates found ({@link #dedupe}), ordinals resolved ({@link #allocate}), seqs
   * given and rows built ({@link #assign}), one NO_SYNC batch written ({@link #write}), replies to
   * the syncer. Each step is its own method; this one only orders them and answers a failure.
   */
  private void applyGroup(List<PendingIngest> group, long now) {
    IngestResult[] results = new IngestResult[group.size()];
    try {
      unacked.pruneDurable(syncer.durableSeq());
      int[] firstWithKey = dedupe(group, results);
      TenantAllocator.Allocation allocation = allocate(group, results, firstWithKey);
      GroupRows rows = assign(group, results, firstWithKey, allocation, now);
      shareFates(results, firstWithKey);
      if (rows.hooks() > 0) {
        write(rows, allocation);
      }
    } catch (RuntimeException e) {
      writeFailed(group, e);
      return;
    }
    reply(group, results, now);
  }

  /**
   * Allocation: the ordinals of the tenants whose requests will be stored (not yet refused, not a
   * duplicate; a duplicate never creates an ordinal), new ones allocated but not yet written.
   */
  private TenantAllocator.Allocation allocate(
      List<PendingIngest> group, IngestResult[] results, int[] firstWithKey) {
    List<TenantId> tenants = new ArrayList<>(group.size());
    for (int i = 0; i < group.size(); i++) {
      if (results[i] == null && firstWithKey[i] < 0) {
        tenants.add(group.get(i).tenant());
      }
    }
    return queue.allocator().resolve(store, tenants);
  }

  /**
   * Gives each request to store the next seq and builds its rows (the hook, its due rows and
   * counter deltas, its dedupe and expiry keys) into a {@link GroupRows}; a request whose tenant
   * got no ordinal (the tenant cap) is answered instead. Writes nothing.
   */
  private GroupRows assign(
      List<PendingIngest> group,
      IngestResult[] results,
      int[] firstWithKey,
      TenantAllocator.Allocation allocation,
      long now) {
    GroupRows rows = new GroupRows(lastSeq + 1, group.size());
    for (int i = 0; i < group.size(); i++) {
      if (results[i] != null || firstWithKey[i] >= 0) {
        continue;
      }
      PendingIngest p = group.get(i);
      Long ord = allocation.ord(p.tenant());
      if (ord == null) {
        results[i] =
            IngestResult.tenantLimit(
                new TenantLimitException(p.tenant().value(), queue.config().tenantsMax())
                    .getMessage());
        continue;
      }
      long seq = ++lastSeq;
      rows.add(p, seq, ord, archive, now + config.dedupeTtlMs());
      results[i] = IngestResult.created(seq);
    }
    return rows;
  }

  /** A request repeating a key earlier in the group shares that request's fate. */
  private static void shareFates(IngestResult[] results, int[] firstWithKey) {
    for (int i = 0; i < results.length; i++) {
      if (firstWithKey[i] >= 0) {
        IngestResult first = results[firstWithKey[i]];
        results[i] =
            first.outcome() == IngestResult.Outcome.CREATED
                    || first.outcome() == IngestResult.Outcome.DUPLICATE
                ? IngestResult.duplicate(first.seq())
                : first;
      }
    }
  }

  /**
   * Batch assembly and the write: the group's rows with their counter deltas, the allocation's
   * ordinal puts and {@code m:last_seq}, in one NO_SYNC batch; the group is remembered as
   * unacknowledged and {@code appliedSeq} raised before the write, so a reader that sees the batch
   * sees it as not durable.
   */
  private void write(GroupRows rows, TenantAllocator.Allocation allocation) {
    Batch batch = rows.toBatch(queue.counters());
    Map<TenantId, Long> created = new LinkedHashMap<>(allocation.created());
    allocation.appendTo(batch);
    batch.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(lastSeq).encode());
    unacked.add(
        new UnackedGroups.AppliedGroup(
            rows.firstSeq(), lastSeq, rows.ords(), rows.dedupeEntries(), created));
    appliedSeq = lastSeq;
    store.write(batch, Durability.NO_SYNC);
    queue.dueRowsWritten(rows.transition());
    allocation.committed();
    groups++;
    hooks += rows.hooks();
  }

  /** Hands the group's answers to the syncer, which completes them once the group is durable. */
  private void reply(List<PendingIngest> group, IngestResult[] results, long now) {
    List<WalSyncer.Reply> replies = new ArrayList<>(group.size());
    long dups = 0;
    for (int i = 0; i < group.size(); i++) {
      replies.add(new WalSyncer.Reply(group.get(i).future(), results[i]));
      if (results[i].outcome() == IngestResult.Outcome.DUPLICATE) {
        dups++;
      }
    }
    duplicates += dups;
    syncer.submit(new WalSyncer.GroupReplies(appliedSeq, now, replies));
  }

  /**
   * Marks duplicates in {@code results} (in memory first, then one multiGet) and returns, per
   * request, the index of an earlier request of the group with the same key (-1 when none).
   */
  private int[] dedupe(List<PendingIngest> group, IngestResult[] results) {
    int n = group.size();
    int[] firstWithKey = new int[n];
    java.util.Arrays.fill(firstWithKey, -1);
    Map<DedupeRowKey, Integer> inGroup = new HashMap<>();
    List<byte[]> lookups = new ArrayList<>();
    List<Integer> lookupIndex = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      PendingIngest p = group.get(i);
      if (p.dedupe() == null) {
        continue;
      }
      Long pipelined = unacked.seqOf(p.dedupe());
      if (pipelined != null) {
        results[i] = IngestResult.duplicate(pipelined);
        continue;
      }
      Integer first = inGroup.putIfAbsent(p.dedupe(), i);
      if (first != null) {
        firstWithKey[i] = first;
        continue;
      }
      lookups.add(p.dedupe().rowKey());
      lookupIndex.add(i);
    }
    if (!lookups.isEmpty()) {
      List<byte[]> found = store.multiGet(Format3.INDEX, lookups);
      for (int j = 0; j < found.size(); j++) {
        byte[] v = found.get(j);
        if (v != null) {
          results[lookupIndex.get(j)] =
              IngestResult.duplicate(DedupeValue.decodeAt(lookups.get(j), v).seq());
        }
      }
    }
    return firstWithKey;
  }

  /** A write (or a read of the group) failed: answer the group, fence, let the syncer report. */
  private void writeFailed(List<PendingIngest> group, Throwable cause) {
    fenced = true;
    IngestResult refusal = IngestResult.unavailable(IngestResult.FENCED);
    for (PendingIngest p : group) {
      p.future().complete(refusal);
    }
    syncer.submit(new WalSyncer.WriteFailed(cause));
  }

  /**
   * Sweeps expired dedupe keys; returns when to sweep next. A failure fences like a failed write.
   */
  private long sweep(long now) {
    int swept;
    try {
      swept = DedupeExpiry.sweep(queue, now, SWEEP_LIMIT);
    } catch (RuntimeException e) {
      writeFailed(List.of(), e);
      return now + config.dedupeSweepIntervalMs();
    }
    // A full turn means more are due: sweep again at the next chance.
    return swept >= SWEEP_LIMIT ? now : now + config.dedupeSweepIntervalMs();
  }

  /**
   * After the syncer reported a fence: refuse what is queued, delete every unacknowledged group in
   * one SYNC write, reset the allocator, and resume with {@code durableSeq = appliedSeq = lastSeq}.
   */
  private void repair(WalSyncer.FenceReport report) {
    fenceReport = null;
    fences++;
    refuseQueued();
    if (report.storeLost()) {
      storeLost = true;
      return;
    }
    long durable = syncer.durableSeq();
    RuntimeException last = null;
    for (int attempt = 1; attempt <= REPAIR_ATTEMPTS; attempt++) {
      try {
        int deleted = unacked.deleteUnacknowledged(queue, durable, lastSeq);
        LOG.warn(
            "queue at {} fenced by a failed write or sync: deleted {} unacknowledged hooks above durableSeq {};"
                + " resuming at seq {}",
            store.directory(),
            deleted,
            durable,
            lastSeq,
            report.cause());
        last = null;
        break;
      } catch (RuntimeException e) {
        last = e;
        LOG.warn(
            "deleting the unacknowledged groups of the store at {} failed (attempt {} of {})",
            store.directory(),
            attempt,
            REPAIR_ATTEMPTS,
            e);
        try {
          store.reportWriteFailure(e);
        } catch (RuntimeException lost) {
          LOG.error(
              "the store at {} could not recover; refusing every request until closed",
              store.directory(),
              lost);
          break;
        }
      }
    }
    if (last != null) {
      storeLost = true;
      return;
    }
    queue.allocator().reset();
    unacked.clear();
    appliedSeq = lastSeq;
    fenced = false;
    syncer.submit(new WalSyncer.Resume(lastSeq, clock.getAsLong()));
  }
}
