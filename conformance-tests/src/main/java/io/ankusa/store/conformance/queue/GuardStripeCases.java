package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.TransitionCase.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.Reclaim;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Example;

/**
 * The guard's lock stripes, with a second thread forced into the window between a write's re-read
 * and its batch: a transition on a row another write is about to move waits for that write and then
 * finds the row moved; a transition of a tenant in another stripe is not held up; reclaim's check
 * that nothing owes a hook and its delete keep an expand of the hook out. Threads are let go when
 * they wait on a lock or are done, never on a timer.
 *
 * <p>Part of the transition layer: {@link TransitionConformance} runs these cases against the
 * backend its subclass names. Each needs {@code concurrentWriters}.
 */
public interface GuardStripeCases extends TransitionCase {
  /**
   * acme and globex (tenants of different stripes) each have three rows inflight. While the settle
   * of acme's rows is inside its store write (re-read done, batch not yet applied), a retry of the
   * same rows starts on a second thread and a settle of globex's rows on a third. The globex settle
   * completes while acme's write is still held (its stripe is free); the retry waits for acme's
   * stripe, then finds the rows delivered and is dropped whole. Every thread ends; the counters
   * equal a fold.
   */
  @Example
  default void aConflictingTransitionWaitsForAWriteUnderWayAndATransitionOfAnotherStripeDoesNot()
      throws InterruptedException {
    requireCapability(
        backend().capabilities().concurrentWriters(),
        "concurrentWriters",
        "this case writes transitions from three threads at once");
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = dueRowsOf(queue, "acme", 3);
      long globex = dueRowsOf(queue, "globex", 3);
      assertThat(Math.floorMod(acme, TransitionGuard.STRIPES))
          .as("acme's and globex's stripes")
          .isNotEqualTo(Math.floorMod(globex, TransitionGuard.STRIPES));
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      QueueDriver d = new QueueDriver(queue);
      Transition settle = new Transition();
      Transition retry = new Transition();
      Transition other = new Transition();
      for (InflightRow row : claimed) {
        if (row.ord() == acme) {
          Deliveries.delivered(settle, row);
          Deliveries.retry(retry, row, d.deliveryRow(row.key().seq(), 1), 6_000, "503");
        } else {
          Deliveries.delivered(other, row);
        }
      }
      AtomicInteger retryDropped = new AtomicInteger(-1);
      AtomicInteger otherDropped = new AtomicInteger(-1);
      Thread retrying =
          new Thread(() -> retryDropped.set(queue.write(retry, Durability.SYNC)), "retry-of-acme");
      Thread settling =
          new Thread(
              () -> otherDropped.set(queue.write(other, Durability.SYNC)), "settle-of-globex");
      boolean[] otherDoneWhileHeld = new boolean[1];
      boolean[] retryDoneWhileHeld = new boolean[1];
      store.beforeWrite(
          b -> true,
          () -> {
            settling.start();
            try {
              settling.join(TimeUnit.SECONDS.toMillis(THREAD_WAIT_SECONDS));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            otherDoneWhileHeld[0] = !settling.isAlive();
            startAndWaitUntilWaitingOrDone(retrying);
            retryDoneWhileHeld[0] = !retrying.isAlive();
          });

      int settleDropped = queue.write(settle, Durability.SYNC);

      String when =
          backend().name()
              + ": a retry of acme's rows and a settle of globex's started while acme's"
              + " settle was inside its write";
      joinOrFail(retrying, when);
      joinOrFail(settling, when);
      assertThat(otherDoneWhileHeld[0])
          .as("%s: globex's settle (another stripe) completed meanwhile", when)
          .isTrue();
      assertThat(retryDoneWhileHeld[0])
          .as("%s: the retry of acme's rows completed before acme's settle was written", when)
          .isFalse();
      assertThat(settleDropped).as("%s: steps of acme's settle dropped", when).isZero();
      assertThat(otherDropped.get()).as("%s: steps of globex's settle dropped", when).isZero();
      assertThat(retryDropped.get()).as("%s: steps of the retry dropped", when).isEqualTo(3);
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertThat(queue.counters().read(store, globex))
          .as("%s: globex's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertExact(store, when);
    }
  }

  /**
   * Reclaim has found that nothing owes a delivered hook; before it deletes the hook, another
   * thread expands the hook with a second sink. The expand waits for reclaim's hook stripe, then
   * finds the hook gone and writes nothing: no due row or delivery row is left without its hook.
   */
  @Example
  default void anExpandWaitsOutReclaimsCheckAndDeleteOfItsHook() throws InterruptedException {
    requireCapability(
        backend().capabilities().concurrentWriters(),
        "concurrentWriters",
        "this case runs an expand on a second thread while reclaim runs");
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      new DirectIngest(queue)
          .ingest(
              List.of(
                  new HookEnvelope(
                      0, "acme", "src", "hook", null, 1_000, List.of(1), new byte[10])));
      long seq = queue.lastSeq();
      Transition delivered = new Transition();
      dispatcher(queue).tick(5_000).claimed().forEach(row -> Deliveries.delivered(delivered, row));
      queue.write(delivered, Durability.SYNC);
      long acme = Tenants.ord(store, TenantId.of("acme")).getAsLong();
      HookEnvelope hook = new QueueDriver(queue).hook(seq);
      HookEnvelope expanded =
          new HookEnvelope(seq, "acme", "src", "hook", null, 1_000, List.of(1, 2), hook.payload());
      int[] expandDropped = {-1};
      Thread expander =
          new Thread(
              () -> {
                Transition e = new Transition();
                Deliveries.expand(e, expanded, acme, List.of(2), 6_000);
                expandDropped[0] = queue.write(e, Durability.SYNC);
              },
              "expander");
      store.afterScan(
          scan -> scan.family().equals(Format3.DELIVERIES),
          () -> startAndWaitUntilWaitingOrDone(expander));

      int reclaimed = Reclaim.run(queue, 10);

      String when =
          backend().name()
              + ": an expand of a hook started inside reclaim's check and delete of it";
      joinOrFail(expander, when);
      assertThat(reclaimed).as("%s: hooks reclaimed", when).isEqualTo(1);
      assertThat(store.get(Format3.HOOKS, Keys.hook(seq))).as("%s: the hook", when).isNull();
      assertThat(expandDropped[0]).as("%s: steps of the expand dropped", when).isEqualTo(1);
      assertThat(count(store, KeyFamily.DUE)).as("%s: due rows", when).isZero();
      assertExact(store, when);
    }
  }
}
