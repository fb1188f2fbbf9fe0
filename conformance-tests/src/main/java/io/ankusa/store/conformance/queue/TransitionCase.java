package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.layout.ArchiveKey;
import io.ankusa.store.layout.DeliveryKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What every case of the transition layer needs from the suite that runs it (the backend under
 * test, the queue to open on it, the visible skip), and the checks and set-ups the cases share.
 * {@link TransitionConformance} implements it; the cases live in one interface per topic.
 */
public interface TransitionCase {
  /** How long a case waits for a thread it started before it calls the run failed. */
  long THREAD_WAIT_SECONDS = 120;

  /** The backend under test (its fixture, made once per suite instance). */
  BackendFixture backend();

  /** Skips the calling case, visibly, when the backend does not claim a capability. */
  void requireCapability(boolean claimed, String capability, String why);

  /**
   * The queue under test on {@code store}. The suite's own mutants override this to open a queue
   * whose guard lets some transitions through unchecked; a backend's test class does not.
   */
  DeliveryQueue openQueue(Store store, QueueConfig config);

  /** Three hooks of acme, 10 bytes, sink 1, received at 1 000 … 1 002; returns acme's ordinal. */
  static long threeDueRowsOfAcme(DeliveryQueue queue) {
    return dueRowsOf(queue, "acme", 3);
  }

  /**
   * {@code n} hooks of {@code tenant}, 10 bytes, sink 1, received at 1 000, 1 001, …; returns its
   * ordinal.
   */
  static long dueRowsOf(DeliveryQueue queue, String tenant, int n) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      hooks.add(
          new HookEnvelope(
              0, tenant, "src", "hook-" + i, null, 1_000 + i, List.of(1), new byte[10]));
    }
    new DirectIngest(queue).ingest(hooks);
    return Tenants.ord(queue.store(), TenantId.of(tenant)).getAsLong();
  }

  /** A dispatcher that sees every row as durable, 100 rows and 1 MiB per tick. */
  static Dispatcher dispatcher(DeliveryQueue queue) {
    return new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1L << 20);
  }

  /** Whether {@code key} starts with {@code prefix}. */
  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** Starts {@code t} and returns once it waits on a lock or has finished: never on a clock. */
  static void startAndWaitUntilWaitingOrDone(Thread t) {
    t.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(THREAD_WAIT_SECONDS);
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TERMINATED) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            t.getName() + " neither finished nor waited on a lock: " + t.getState());
      }
      Thread.onSpinWait();
    }
  }

  /**
   * Waits for {@code t} to finish and fails the case if it does not (a lock never let go, a
   * deadlock).
   */
  static void joinOrFail(Thread t, String when) throws InterruptedException {
    t.join(TimeUnit.SECONDS.toMillis(THREAD_WAIT_SECONDS));
    assertThat(t.isAlive())
        .as(
            "%s: %s still running after %d s (a lock never let go?)",
            when, t.getName(), THREAD_WAIT_SECONDS)
        .isFalse();
  }

  /**
   * The end state of a case: counters, markers, the verifier, and nothing owed without its hook.
   */
  static void assertExact(Store store, String when) {
    LayoutAssertions.assertCountersEqualFold(store, when);
    LayoutAssertions.assertEveryDueRowHasAMarker(store, when);
    assertThat(QueueVerifier.verify(store)).as("%s: the verifier's breaches", when).isEmpty();
    assertEverythingOwedHasItsHook(store, when);
  }

  /**
   * Every delivery row and archive obligation still has its hook (reclaim deleted nothing owed).
   */
  static void assertEverythingOwedHasItsHook(ReadView view, String when) {
    List<String> lost = new ArrayList<>();
    CounterFold.foldFamily(
        view,
        KeyFamily.DELIVERY,
        e -> {
          long seq = DeliveryKey.decode(e.key()).seq();
          if (view.get(Format3.HOOKS, Keys.hook(seq)) == null) {
            lost.add(
                "delivery row "
                    + DeliveryKey.decode(e.key())
                    + " owes hook "
                    + seq
                    + ", which is gone");
          }
        });
    CounterFold.foldFamily(
        view,
        KeyFamily.ARCHIVE,
        e -> {
          long seq = ArchiveKey.decode(e.key()).seq();
          if (view.get(Format3.HOOKS, Keys.hook(seq)) == null) {
            lost.add("archive obligation of seq " + seq + " owes a hook that is gone");
          }
        });
    assertThat(lost).as("%s: no hook that a row still owes was deleted", when).isEmpty();
  }

  /** How many rows of {@code family} the store holds. */
  static long count(ReadView view, KeyFamily family) {
    long[] n = new long[1];
    CounterFold.foldFamily(view, family, e -> n[0]++);
    return n[0];
  }
}
