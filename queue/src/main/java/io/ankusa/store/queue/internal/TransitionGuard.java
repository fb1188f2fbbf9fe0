package io.ankusa.store.queue.internal;

import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The guard that keeps conflicting transitions of one queue exact when they run at the same time in
 * one process (docs/architecture.md, "The transition guard"). Every transition that consumes a row
 * (claim, delivered, retry, dead-letter, revive, recover, orphan drop, purge, archive settle and
 * drop, expand) is a {@link Transition.Step} naming the rows it read and the value it read them
 * with. {@link #write} takes the lock stripes of the steps' tenants (and, for a step that rewrites
 * a hook, of its seq), reads those rows again, drops every step whose rows are no longer as read,
 * writes the rest as one batch, and only then lets go. So a row moves once, its counters move once,
 * and a transition that lost the race is skipped ({@link Transition#applied}), never written blind.
 *
 * <p>Two kinds of stripe, each an array of {@value #STRIPES} locks, always taken in one order
 * (tenant stripes ascending, then hook stripes ascending) so no two writers wait on each other:
 *
 * <ul>
 *   <li><b>tenant stripes</b> by ordinal ({@code ord mod STRIPES}): every row of a delivery (due,
 *       inflight, dead, its delivery row) belongs to one tenant for its whole life, and so does an
 *       archive obligation (its value carries the ordinal);
 *   <li><b>hook stripes</b> by seq: {@link io.ankusa.store.queue.internal.maintenance.Reclaim}
 *       deletes a hook when nothing owes it, and the only transition that makes an existing hook
 *       owed again is {@link Deliveries#expand}, which takes both its tenant's and its hook's
 *       stripe.
 * </ul>
 *
 * <p>The re-read is skipped for one common case: a settle of an inflight row that this guard's
 * dispatcher claimed and that no transition has consumed since ({@link KnownClaims}); under the
 * stripe that row can only be as the claim wrote it.
 *
 * <p>Ingest ({@link Deliveries#ingest}) adds new keys only and takes no lock. The fence repair of
 * the writer ({@link Deliveries#revertIngest}) reads and deletes rows under {@link #exclusive()}.
 *
 * <p>What it does not cover: several processes on one store (the locks live in this object), and a
 * caller that writes index rows past {@link DeliveryQueue#write} with {@code store.write}.
 * Thread-safe.
 */
public class TransitionGuard {
  /** Locks per kind of stripe. */
  public static final int STRIPES = 64;

  private static final Logger LOG = LoggerFactory.getLogger(TransitionGuard.class);

  private final ReentrantLock[] tenantStripes = newStripes();
  private final ReentrantLock[] hookStripes = newStripes();
  private final KnownClaims claims = new KnownClaims(STRIPES);

  /** The guard every queue uses. */
  public TransitionGuard() {}

  /** Locks taken by {@link #exclusive()} or {@link #lockHooks}; {@link #close()} lets them go. */
  public static final class Held implements AutoCloseable {
    private final List<ReentrantLock> locks;

    private Held(List<ReentrantLock> locks) {
      this.locks = locks;
    }

    @Override
    public void close() {
      for (int i = locks.size() - 1; i >= 0; i--) {
        locks.get(i).unlock();
      }
    }
  }

  /**
   * Whether {@link #write} re-reads the rows a step of {@code kind} read. Always true here; a
   * mutant of the conformance suite overrides it to show what a transition without the guard does.
   */
  protected boolean rechecks(Transition.Kind kind) {
    return true;
  }

  /**
   * Whether a step that consumes an inflight row takes the row's claim out of the known set ({@link
   * KnownClaims}). Always true here; a mutant of the conformance suite overrides it to show a
   * settle trusted on a claim that recovery or an earlier settle already consumed.
   */
  protected boolean forgetsConsumedClaims() {
    return true;
  }

  /**
   * Writes {@code t} (ops, then its coalesced counter merges) with every step re-checked under its
   * stripes; returns how many steps were dropped because their rows had moved. A transition whose
   * steps expect no row (ingest) is written as it is, without a lock. No-op when empty.
   *
   * <p>REQUIRES: the calling thread holds no stripe of this guard, or holds the stripes of every
   * step and read the rows under them ({@link #lockTenant}).
   */
  int write(Store store, Counters counters, Transition t, Durability durability) {
    if (t.isEmpty()) {
      return 0;
    }
    if (!t.guarded()) {
      store.write(t.toBatch(counters), durability);
      return 0;
    }
    List<Transition.Step> steps = t.steps();
    if (t.readUnderStripes() && heldByCaller(steps)) {
      // read and written under stripes the caller already holds: nothing to take, nothing to
      // re-check
      steps.forEach(
          this::consumesKnownClaim); // what the batch consumes is no longer known as claimed
      BitSet none = new BitSet();
      writeRecording(store, t.toBatch(counters), durability, steps, none);
      t.rejected(none);
      return 0;
    }
    Held held = lock(steps);
    try {
      BitSet rejected = moved(store, steps);
      t.rejected(rejected);
      if (rejected.isEmpty()) {
        writeRecording(store, t.toBatch(counters), durability, steps, rejected);
        return 0;
      }
      Transition kept = t.without(rejected);
      writeRecording(
          store, kept.isEmpty() ? null : kept.toBatch(counters), durability, steps, rejected);
      if (LOG.isDebugEnabled()) {
        LOG.debug(
            "{} of {} transitions skipped: their rows moved since they were read ({})",
            rejected.cardinality(),
            steps.size(),
            t.describeRejected());
      }
      return rejected.cardinality();
    } finally {
      held.close();
    }
  }

  /**
   * Writes {@code batch} (null: nothing left to write), then records in {@link KnownClaims} the
   * claims among the kept steps. Rows that steps consume were taken out of the known set before the
   * write ({@link #consumesKnownClaim}), so a write that throws leaves nothing stale behind: its
   * claims were never recorded. REQUIRES: the stripes of the steps held.
   */
  private void writeRecording(
      Store store,
      Batch batch,
      Durability durability,
      List<Transition.Step> steps,
      BitSet rejected) {
    if (batch != null) {
      store.write(batch, durability);
    }
    for (int i = 0; i < steps.size(); i++) {
      Transition.Step s = steps.get(i);
      if (s.inflight() != null && s.kind().createsInflight() && !rejected.get(i)) {
        claims.claimed(stripeOf(s.ord()), s.inflight());
      }
    }
  }

  /**
   * The stripe of tenant {@code ord}, for a transition that reads the tenant's rows and writes them
   * while holding it: the dispatcher, from its scan of the tenant's due rows to its claim batch. A
   * {@link Transition} marked {@link Transition#readUnderStripes()} and written while its stripes
   * are held is not re-checked: nothing could have moved its rows. Close the result to let go.
   */
  public Held lockTenant(long ord) {
    return lockAll(List.of(tenantStripes[stripeOf(ord)]));
  }

  /** {@link #lockTenant} if the stripe is free (or already the caller's) now; null otherwise. */
  public Held tryLockTenant(long ord) {
    ReentrantLock stripe = tenantStripes[stripeOf(ord)];
    return stripe.tryLock() ? new Held(List.of(stripe)) : null;
  }

  /** Whether the calling thread holds the tenant stripe of every step that expects a row. */
  private boolean heldByCaller(List<Transition.Step> steps) {
    for (Transition.Step s : steps) {
      if (s.expectsRows()
          && (!tenantStripes[stripeOf(s.ord())].isHeldByCurrentThread()
              || (s.hookSeq() != Transition.NO_HOOK
                  && !hookStripes[stripeOf(s.hookSeq())].isHeldByCurrentThread()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every stripe, for the writer's fence repair, which reads rows and deletes them in one batch
   * while nothing else may move them. Close the result to let go.
   */
  public Held exclusive() {
    List<ReentrantLock> locks = new ArrayList<>(2 * STRIPES);
    locks.addAll(List.of(tenantStripes));
    locks.addAll(List.of(hookStripes));
    return lockAll(locks);
  }

  /**
   * The hook stripes of {@code seqs}, for {@link
   * io.ankusa.store.queue.internal.maintenance.Reclaim}: held around its check that nothing owes a
   * hook and its delete, so no {@link Deliveries#expand} of the hook comes between. Close the
   * result to let go.
   */
  public Held lockHooks(Collection<Long> seqs) {
    BitSet hooks = new BitSet(STRIPES);
    seqs.forEach(seq -> hooks.set(stripeOf(seq)));
    List<ReentrantLock> locks = new ArrayList<>(hooks.cardinality());
    hooks.stream().forEach(i -> locks.add(hookStripes[i]));
    return lockAll(locks);
  }

  private Held lock(List<Transition.Step> steps) {
    BitSet tenants = new BitSet(STRIPES);
    BitSet hooks = new BitSet(STRIPES);
    for (Transition.Step s : steps) {
      if (!s.expectsRows()) {
        continue;
      }
      tenants.set(stripeOf(s.ord()));
      if (s.hookSeq() != Transition.NO_HOOK) {
        hooks.set(stripeOf(s.hookSeq()));
      }
    }
    List<ReentrantLock> locks = new ArrayList<>(tenants.cardinality() + hooks.cardinality());
    tenants.stream().forEach(i -> locks.add(tenantStripes[i]));
    hooks.stream().forEach(i -> locks.add(hookStripes[i]));
    return lockAll(locks);
  }

  private static Held lockAll(List<ReentrantLock> locks) {
    for (ReentrantLock l : locks) {
      l.lock();
    }
    return new Held(locks);
  }

  /**
   * Reads every row the steps expect, per family in one multiGet, and returns the steps to drop: a
   * row not as the step read it, or a row an earlier step of the same batch already consumed. A
   * settle of a claim this guard knows ({@link KnownClaims}) is neither built into an expectation
   * nor read: it holds, and the claim is taken out of the known set at once, so a second step of
   * the batch consuming the same row is not trusted and is dropped. Allocates a few arrays per
   * batch, nothing per known row.
   */
  private BitSet moved(Store store, List<Transition.Step> steps) {
    BitSet rejected = new BitSet(steps.size());
    List<List<Transition.Expected>> perStep = new ArrayList<>(steps.size());
    Set<InflightRow> taken = null;
    int total = 0;
    for (Transition.Step s : steps) {
      List<Transition.Expected> e = List.of();
      if (rechecks(s.kind())) {
        if (consumesKnownClaim(s)) {
          taken = taken == null ? new HashSet<>() : taken;
          taken.add(s.inflight());
        } else {
          e = s.expected();
        }
      }
      perStep.add(e);
      total += e.size();
    }
    Transition.Expected[] expected = new Transition.Expected[total];
    int[] stepOf = new int[total];
    int n = 0;
    for (int i = 0; i < steps.size(); i++) {
      List<Transition.Expected> e = perStep.get(i);
      if (taken != null && !e.isEmpty() && taken.contains(steps.get(i).inflight())) {
        rejected.set(i); // a known step of this batch consumes the same row
      }
      for (Transition.Expected x : e) {
        expected[n] = x;
        stepOf[n++] = i;
      }
    }
    byte[][] found = readAll(store, expected);
    for (int j = 0; j < total; j++) {
      if (!expected[j].holds(found[j])) {
        rejected.set(stepOf[j]);
      }
    }
    rejectConsumedTwice(expected, stepOf, rejected);
    return rejected;
  }

  /**
   * Whether {@code s} consumes an inflight row this guard's dispatcher claimed and nothing consumed
   * since: such a row is as the claim wrote it. Takes the claim out of the known set (the step
   * consumes it), unless {@link #forgetsConsumedClaims()} says otherwise. REQUIRES: the step's
   * stripe held.
   */
  private boolean consumesKnownClaim(Transition.Step s) {
    if (s.inflight() == null || s.kind().createsInflight()) {
      return false;
    }
    int stripe = stripeOf(s.ord());
    if (!forgetsConsumedClaims()) {
      return claims.holds(stripe, s.inflight());
    }
    return claims.take(stripe, s.inflight());
  }

  /** The stored value of every expected row (null: absent), one multiGet per family. */
  private static byte[][] readAll(Store store, Transition.Expected[] expected) {
    byte[][] found = new byte[expected.length][];
    List<String> families = new ArrayList<>(3);
    for (Transition.Expected e : expected) {
      if (!families.contains(e.family())) {
        families.add(e.family());
      }
    }
    for (String family : families) {
      List<byte[]> keys = new ArrayList<>(expected.length);
      for (Transition.Expected e : expected) {
        if (e.family().equals(family)) {
          keys.add(e.key());
        }
      }
      List<byte[]> values = store.multiGet(family, keys);
      int next = 0;
      for (int j = 0; j < expected.length; j++) {
        if (expected[j].family().equals(family)) {
          found[j] = values.get(next++);
        }
      }
    }
    return found;
  }

  /**
   * Rejects a step that expects a row an earlier, kept step of the same batch also expects (both
   * would consume it): keys are grouped by hash, so the common batch of distinct rows costs one
   * sort.
   */
  private static void rejectConsumedTwice(
      Transition.Expected[] expected, int[] stepOf, BitSet rejected) {
    if (expected.length < 2) {
      return;
    }
    long[] byHash = new long[expected.length];
    for (int j = 0; j < expected.length; j++) {
      byHash[j] = ((long) Arrays.hashCode(expected[j].key()) << 32) | j;
    }
    Arrays.sort(byHash);
    for (int a = 0; a < byHash.length; a++) {
      for (int b = a + 1; b < byHash.length && (byHash[b] >>> 32) == (byHash[a] >>> 32); b++) {
        int first = (int) byHash[a];
        int second = (int) byHash[b];
        if (stepOf[first] != stepOf[second]
            && !rejected.get(stepOf[first])
            && expected[first].family().equals(expected[second].family())
            && Arrays.equals(expected[first].key(), expected[second].key())) {
          rejected.set(stepOf[second]);
        }
      }
    }
  }

  private static int stripeOf(long value) {
    return (int) Math.floorMod(value, (long) STRIPES);
  }

  private static ReentrantLock[] newStripes() {
    ReentrantLock[] locks = new ReentrantLock[STRIPES];
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
    return locks;
  }
}
