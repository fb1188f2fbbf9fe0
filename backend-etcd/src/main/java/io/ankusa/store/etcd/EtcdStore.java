package io.ankusa.store.etcd;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreWriteFailedException;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store on an etcd cluster: a key prefix, a sub-prefix per family ({@link EtcdKeys}).
 *
 * <ul>
 *   <li>{@link #write}: the batch's net effect ({@link NetBatch}) as one transaction,
 *       all-or-nothing; a batch over the members' {@code --max-txn-ops} or {@code
 *       --max-request-bytes} is refused whole ({@code StoreArgumentException}), never split. Every
 *       transaction compares the owner key's create revision, the fencing token ({@link
 *       Ownership}): a process that lost the store writes nothing ({@link OwnershipLostException});
 *   <li>merge: etcd has no server-side add. The store reads the counters a batch merges onto (or
 *       takes them from the {@link CounterCache} of what it last wrote), adds, and puts the sums in
 *       the same transaction under a compare on each counter's mod revision; a counter changed
 *       meanwhile fails the compare, and the batch is read and sent again, at most {@value
 *       #ATTEMPTS} times in all ({@link #retried()} counts them). Writes of this store that merge
 *       onto the same counter take turns on its lock stripe, and one process owns a store, so the
 *       compare fails only on a stale cache entry;
 *   <li>{@link #snapshot()} and scans read at a fixed revision, scans in pages; the history is
 *       compacted only below the lowest revision an open read of any store on the cluster holds
 *       ({@link CompactionPins}), every {@code etcd.compactEvery} revisions.
 * </ul>
 *
 * <p>Durability: etcd acknowledges a transaction once a quorum of members has it in its fsynced
 * write-ahead log. So a {@code NO_SYNC} write is as durable as a {@code SYNC} one when it returns —
 * it survives a kill of this process, a kill -9 of any minority of members, and a kill -9 of the
 * whole cluster (each member fsyncs before it acknowledges) — and {@link #syncWal()} has nothing to
 * add: it only checks that the store is open.
 *
 * <p>Failover: a write whose answer is lost (its leader killed, no answer in time) is sent again
 * until {@code etcd.requestTimeoutMs} are spent in all, never applied twice ({@link WriteLedger});
 * so the loss of a leader costs an election's time, not a failed write. Past that budget — the
 * cluster lost its quorum — the write fails with {@link StoreWriteFailedException}, never hangs,
 * and the queue's writer fences; {@link #reportWriteFailure} then waits (up to {@code
 * etcd.recoverWaitMs}) for the quorum to come back. Reads wait for the quorum up to {@code
 * etcd.recoverWaitMs}, asking again.
 *
 * <p>Reads: only this process writes the store, so a read of the latest state is answered by any
 * member whose state has reached this process's last write and every revision its reads saw before
 * (a serializable read: no quorum round through the leader), else through the leader ({@link
 * EtcdView#mustSee()}); reads at a fixed revision by any member that has applied it.
 *
 * <p>Thread safety: every method may be called from any thread; writes from several threads are
 * serialised by the cluster (merges by their compares).
 */
class EtcdStore extends EtcdView implements Store {
  /**
   * What this backend claims; see {@link Capabilities}. Keys up to 4 KiB and values up to 2 MiB:
   * the queue's largest envelope (a 1 MiB payload and its headers) fits, and a batch of the
   * writer's groups fits the request size the members are started with (docs/scale-out.md). No
   * {@code detectsDamage}: the data lives in the members' files, which this backend does not reach
   * (etcd checks its own database with hashes between members, which the suite does not see).
   */
  static final Capabilities CAPABILITIES =
      Capabilities.builder()
          .concurrentWriters(true)
          .snapshots(true)
          .durableAfterProcessKill(true)
          .filesInDirectory(true)
          .maxKeyBytes(4096)
          .maxValueBytes(2 << 20)
          .build();

  /**
   * Tries of a transaction whose merge compares failed (a counter changed between read and write).
   */
  static final int ATTEMPTS = 16;

  /** How often the housekeeping looks whether a compaction is due. */
  static final long HOUSEKEEPING_MILLIS = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(EtcdStore.class);

  private final DirectoryClaim claim;
  private final Client client;
  private final EtcdSettings settings;
  private final WriteFence fence;
  private final Ownership ownership;
  private final CompactionPins pins;
  private final String prefix;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final OpenResources open = new OpenResources();
  private final AtomicLong retried = new AtomicLong();

  /** Tries sent again after a failure that passes (no leader, no answer in time). */
  private final AtomicLong resent = new AtomicLong();

  /** The highest revision a read of the latest state has seen: later reads see at least it. */
  private final AtomicLong highestSeen = new AtomicLong();

  private final WriteLedger ledger = new WriteLedger();

  /**
   * Test seam: answers of applied tries to drop, as a killed leader would; see {@code
   * LostAnswerTest}.
   */
  final AtomicLong answersToLose = new AtomicLong();

  /**
   * Test seam: when set, the next try is built but not sent — kept in {@link #heldTry}, as a try
   * stuck in a dying leader's log — and the write sends it again; the test sends the held try
   * later.
   */
  final AtomicBoolean holdNextTry = new AtomicBoolean();

  final java.util.concurrent.atomic.AtomicReference<io.etcd.jetcd.Txn> heldTry =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final ScheduledFuture<?> housekeeping;
  private final CounterMerges merges = new CounterMerges(this);

  /**
   * Takes ownership of everything passed in: {@code client} (released on close), {@code ownership}
   * (closed on close; null for a read-only open) and {@code claim}.
   */
  EtcdStore(
      DirectoryClaim claim,
      Client client,
      FamilyCatalog catalog,
      EtcdKeys keys,
      EtcdSettings settings,
      String prefix,
      String cluster,
      WriteFence fence,
      Ownership ownership,
      CompactionPins pins) {
    super(
        client.getKVClient(),
        catalog,
        keys,
        settings.requestTimeoutMs(),
        settings.recoverWaitMs(),
        cluster);
    this.claim = claim;
    this.client = client;
    this.settings = settings;
    this.fence = fence;
    this.ownership = ownership;
    this.pins = pins;
    this.prefix = prefix;
    this.housekeeping =
        ownership == null
            ? null
            : SharedClients.scheduler()
                .scheduleWithFixedDelay(
                    this::housekeep,
                    HOUSEKEEPING_MILLIS,
                    HOUSEKEEPING_MILLIS,
                    TimeUnit.MILLISECONDS);
  }

  private void housekeep() {
    if (closed.get() || !pins.due()) {
      return;
    }
    try {
      pins.compact();
    } catch (RuntimeException e) {
      LOG.debug("compaction of {} failed; trying again later", cluster, e);
    }
  }

  @Override
  void checkOpen() {
    if (closed.get()) {
      throw new StoreClosedException(label() + " is closed");
    }
  }

  @Override
  long fixedRevision() {
    return 0;
  }

  @Override
  long mustSee() {
    return fence == null ? 0 : Math.max(1, Math.max(pins.lastWritten(), highestSeen.get()));
  }

  @Override
  void saw(long revision) {
    highestSeen.accumulateAndGet(revision, Math::max);
  }

  @Override
  boolean hold(long revision) {
    return pins.register(revision);
  }

  @Override
  void letGo(long revision) {
    pins.release(revision);
  }

  @Override
  OpenResources scans() {
    return open;
  }

  @Override
  String label() {
    return "etcd store " + claim.directory() + " (prefix '" + prefix + "' on " + cluster + ")";
  }

  @Override
  public void write(Batch batch, Durability durability) {
    checkOpen();
    catalog.validate(batch, durability); // refuse a bad batch whole, before anything is sent
    if (batch.isEmpty()) {
      return;
    }
    NetBatch net = NetBatch.of(batch.ops());
    String what = "a write of " + batch.size() + " ops to families " + families(batch);
    List<ReentrantLock> held = merges.lockStripes(net);
    try {
      writeLocked(net, what);
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).unlock();
      }
    }
  }

  private void writeLocked(NetBatch net, String what) {
    WriteLedger.Slot slot = ledger.borrow();
    boolean answered = false;
    try {
      answered = writeWith(slot, net, what);
    } finally {
      if (answered) {
        ledger.giveBack(slot);
      }
    }
  }

  /**
   * Sends {@code net} as one transaction under {@code slot}'s ledger compare, again while the
   * cluster fails in a way that passes (for up to {@code etcd.requestTimeoutMs} in all) or a
   * counter changed under a merge (at most {@value #ATTEMPTS} times).
   *
   * @return true once the write applied (its slot's state is known)
   */
  private boolean writeWith(WriteLedger.Slot slot, NetBatch net, String what) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    long next = slot.seq + 1;
    ByteSequence ledgerKey = keys.ledger(token(), slot.id);
    ByteSequence mark =
        ByteSequence.from(Long.toString(next), java.nio.charset.StandardCharsets.US_ASCII);
    String label = what + " to " + label();
    boolean trustCache = true;
    int conflicts = 0;
    while (true) {
      TxnResponse r;
      Map<ByteBuffer, Long> sums = new HashMap<>();
      try {
        Map<ByteBuffer, CounterCache.Known> bases =
            net.mergesOnto() == 0 ? Map.of() : merges.bases(net, what, trustCache);
        List<Cmp> compares = new ArrayList<>(fence.compares());
        compares.add(new Cmp(ledgerKey, Cmp.Op.EQUAL, CmpTarget.modRevision(slot.modRevision)));
        List<io.etcd.jetcd.op.Op> ops = new ArrayList<>();
        plan(net, bases, compares, ops, sums);
        ops.add(io.etcd.jetcd.op.Op.put(ledgerKey, mark, PutOption.DEFAULT));
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        io.etcd.jetcd.Txn txn =
            kv.txn()
                .If(compares.toArray(new Cmp[0]))
                .Then(ops.toArray(new io.etcd.jetcd.op.Op[0]))
                .Else(
                    io.etcd.jetcd.op.Op.get(keys.owner(), GetOption.DEFAULT),
                    io.etcd.jetcd.op.Op.get(ledgerKey, GetOption.DEFAULT));
        if (holdNextTry.compareAndSet(true, false)) {
          heldTry.set(txn);
          resent.incrementAndGet();
          continue;
        }
        r =
            EtcdCalls.await(
                txn.commit(), Math.min(tryMillis(), left), EtcdCalls.Kind.WRITE, label, cluster);
      } catch (StoreException e) {
        if (!EtcdCalls.passing(e) || System.nanoTime() >= deadline) {
          throw e; // the slot's state is unknown: it is dropped
        }
        resent.incrementAndGet();
        LOG.debug("{}: {}; sending it again", label, e.getMessage());
        EtcdCalls.pauseBeforeRetry();
        continue;
      }
      if (r.isSucceeded() && answersToLose.get() > 0 && answersToLose.getAndDecrement() > 0) {
        resent.incrementAndGet(); // the try applied, but its answer is dropped: send it again, as
        // after a lost leader
        continue;
      }
      if (r.isSucceeded()) {
        long revision = r.getHeader().getRevision();
        slot.seq = next;
        slot.modRevision = revision;
        pins.wrote(revision);
        merges.remember(net, sums, revision);
        return true;
      }
      KeyValue mine = kvIn(r, 1);
      if (mine != null && mine.getValue().equals(mark)) {
        // an earlier try of this write applied (its answer was lost): done, and the sums it wrote
        // are not known here
        slot.seq = next;
        slot.modRevision = mine.getModRevision();
        pins.wrote(mine.getModRevision());
        merges.remember(net, Map.of(), mine.getModRevision());
        return true;
      }
      KeyValue owner = kvIn(r, 0);
      if (!fence.holds(owner)) {
        throw new OwnershipLostException(
            label()
                + " refused "
                + what
                + ": this process no longer owns the store;"
                + " it is owned by "
                + fence.describe(owner)
                + ". Nothing of the batch was applied, and no later write"
                + " of this store object will be: close it, and open the store again to take it over once it is free");
      }
      conflicts++;
      if (conflicts >= ATTEMPTS) {
        throw new StoreWriteFailedException(
            label()
                + ": "
                + what
                + " met a changed counter "
                + conflicts
                + " times"
                + " in a row (another writer merges onto the same counters); nothing of it was applied: call"
                + " reportWriteFailure and write it again");
      }
      trustCache = false;
      retried.incrementAndGet();
      LOG.debug(
          "{}: a counter changed under {} (attempt {}); reading it again",
          label(),
          what,
          conflicts);
      if (conflicts > 1) {
        pause(conflicts);
      }
    }
  }

  /**
   * How long one try of a write waits before it is given up and sent again (through whichever
   * member answers): a quarter of the write's budget, at least half a second, so a try parked on a
   * member that waits for a new leader does not spend the whole budget.
   */
  private long tryMillis() {
    return Math.max(500, timeoutMs / 4);
  }

  /**
   * The deletes, puts and compares of {@code net}, with the merges onto {@code bases} summed into
   * {@code sums}.
   */
  private void plan(
      NetBatch net,
      Map<ByteBuffer, CounterCache.Known> bases,
      List<Cmp> compares,
      List<io.etcd.jetcd.op.Op> ops,
      Map<ByteBuffer, Long> sums) {
    for (Map.Entry<String, NetBatch.FamilyEffects> fe : net.families().entrySet()) {
      String family = fe.getKey();
      NetBatch.FamilyEffects f = fe.getValue();
      byte[] start = keys.familyStart(family);
      for (NetBatch.Range range : f.rangesToDelete()) {
        ops.add(
            io.etcd.jetcd.op.Op.delete(
                ByteSequence.from(EtcdKeys.concat(start, range.lo())),
                DeleteOption.builder()
                    .withRange(ByteSequence.from(EtcdKeys.concat(start, range.hi())))
                    .build()));
      }
      for (Map.Entry<byte[], NetBatch.Effect> e : f.keys.entrySet()) {
        byte[] key = e.getKey();
        byte[] fullKey = EtcdKeys.concat(start, key);
        ByteSequence full = ByteSequence.from(fullKey);
        NetBatch.Effect effect = e.getValue();
        if (effect instanceof NetBatch.Put p) {
          ops.add(io.etcd.jetcd.op.Op.put(full, ByteSequence.from(p.value()), PutOption.DEFAULT));
        } else if (effect instanceof NetBatch.MergeOnto m) {
          CounterCache.Known base = bases.get(ByteBuffer.wrap(fullKey));
          long sum = Int64Add.apply(base == null ? 0 : base.value(), m.delta());
          compares.add(
              new Cmp(
                  full,
                  Cmp.Op.EQUAL,
                  CmpTarget.modRevision(base == null ? 0 : base.modRevision())));
          ops.add(
              io.etcd.jetcd.op.Op.put(
                  full, ByteSequence.from(Int64Add.encode(sum)), PutOption.DEFAULT));
          sums.put(ByteBuffer.wrap(fullKey), sum);
        } else if (!f.coveredByRange(key)) {
          ops.add(io.etcd.jetcd.op.Op.delete(full, DeleteOption.DEFAULT));
        }
      }
    }
  }

  /** The key the {@code i}th get of a refused transaction's else branch found, or null. */
  private static KeyValue kvIn(TxnResponse r, int i) {
    if (r.getGetResponses().size() <= i || r.getGetResponses().get(i).getKvs().isEmpty()) {
      return null;
    }
    return r.getGetResponses().get(i).getKvs().get(0);
  }

  private static Set<String> families(Batch batch) {
    Set<String> names = new LinkedHashSet<>();
    batch.ops().forEach((Op op) -> names.add(op.family()));
    return names;
  }

  private static void pause(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(1, 2 + 4 * attempt));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreWriteFailedException(
          "interrupted while waiting to send a transaction again", e);
    }
  }

  /**
   * Nothing to do: every write the cluster acknowledged is already on the disks of a quorum of
   * members (see the class documentation). Checks only that the store is open.
   */
  @Override
  public void syncWal() {
    checkOpen();
  }

  @Override
  public Snapshot snapshot() {
    checkOpen();
    while (true) {
      long revision = currentRevision();
      if (pins.register(revision)) {
        return new EtcdSnapshot(
            kv, catalog, keys, timeoutMs, readBudgetMs, cluster, revision, pins, open);
      }
    }
  }

  /**
   * The cluster's current revision, by a linearizable read: every write acknowledged before is at
   * or below it.
   */
  long currentRevision() {
    return read(
            local ->
                kv.get(
                    keys.meta(),
                    GetOption.builder().withCountOnly(true).withSerializable(local).build()),
            g -> g.getHeader().getRevision(),
            0,
            "the current revision")
        .getHeader()
        .getRevision();
  }

  /**
   * Closes the scans and snapshots open on the store, then waits up to {@code etcd.recoverWaitMs}
   * for the cluster to answer (a quorum back, a leader elected) and checks that this process still
   * owns the store.
   *
   * @throws OwnershipLostException if another process owns it now, or nobody (the lease lapsed):
   *     the store is then closed
   * @throws StoreWriteFailedException if the cluster does not answer in time: the store is then
   *     closed
   */
  @Override
  public void reportWriteFailure(Throwable cause) {
    checkOpen();
    FamilyCatalog.checkCause(cause);
    open.closeAll("closed by reportWriteFailure; open a new one");
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.recoverWaitMs());
    StoreException last;
    do {
      KeyValue owner;
      try {
        List<KeyValue> kvs =
            EtcdCalls.await(
                    kv.get(keys.owner(), GetOption.DEFAULT),
                    timeoutMs,
                    EtcdCalls.Kind.READ,
                    "the owner key of " + label(),
                    cluster)
                .getKvs();
        owner = kvs.isEmpty() ? null : kvs.get(0);
      } catch (StoreException e) {
        last = e;
        try {
          Thread.sleep(100);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          break;
        }
        continue;
      }
      if (fence.holds(owner)) {
        LOG.info("{} answers again after a write failure; this process still owns it", label());
        return;
      }
      String who = fence.describe(owner);
      close();
      OwnershipLostException lost =
          new OwnershipLostException(
              label()
                  + " is owned by "
                  + who
                  + " now: this"
                  + " process lost it and may not write; the store is closed. Open it again to take it over once it is free");
      lost.addSuppressed(cause);
      throw lost;
    } while (System.nanoTime() < deadline);
    close();
    StoreWriteFailedException failed =
        new StoreWriteFailedException(
            "the etcd cluster "
                + cluster
                + " did not"
                + " answer within "
                + settings.recoverWaitMs()
                + " ms ("
                + EtcdSettings.RECOVER_WAIT
                + ") after a write failure"
                + " of "
                + label()
                + "; the store is closed: open it again once a majority of the members is up",
            last);
    failed.addSuppressed(cause);
    throw failed;
  }

  @Override
  public Capabilities capabilities() {
    return CAPABILITIES;
  }

  @Override
  public List<FamilySpec> families() {
    return catalog.specs();
  }

  @Override
  public Path directory() {
    return claim.directory();
  }

  /** Transactions sent again after a merge compare failed, for tests, benches and logs. */
  long retried() {
    return retried.get();
  }

  /** Write tries sent again after a failure that passed (a leader lost, no answer in time). */
  long resent() {
    return resent.get();
  }

  /** The fencing token this open holds; 0 for a read-only open. */
  long token() {
    return ownership == null ? 0 : ownership.token();
  }

  /**
   * Compacts the cluster's history now, as far as the pins allow; returns the revision compacted
   * to, or 0.
   */
  long compactNow() {
    checkOpen();
    return pins.compact();
  }

  String prefix() {
    return prefix;
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (housekeeping != null) {
      housekeeping.cancel(false);
    }
    List<RuntimeException> failures = new ArrayList<>();
    try {
      open.closeAll("its store is closed");
    } catch (RuntimeException e) {
      failures.add(e);
    }
    if (ownership != null) {
      try { // this open's write ledger, fenced: gone with the owner key when the lease is revoked
        // next
        EtcdCalls.await(
            kv.txn()
                .If(fence.compares().toArray(new Cmp[0]))
                .Then(
                    io.etcd.jetcd.op.Op.delete(
                        keys.ledgerStart(token()),
                        DeleteOption.builder().withRange(keys.ledgerEnd(token())).build()))
                .commit(),
            timeoutMs,
            EtcdCalls.Kind.WRITE,
            "the deletion of the write ledger of " + label(),
            cluster);
      } catch (RuntimeException e) {
        LOG.debug("{}: its write ledger stays (the next owner's open deletes it)", label(), e);
      }
      try {
        ownership.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    SharedClients.release(client);
    claim.close();
    if (!failures.isEmpty()) {
      throw new StoreException("closing " + label() + ": " + failures.get(0), failures.get(0));
    }
  }
}
