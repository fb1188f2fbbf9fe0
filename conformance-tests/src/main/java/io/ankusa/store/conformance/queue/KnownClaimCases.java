package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.TransitionCase.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.FaultInjectingStore;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import net.jqwik.api.Example;

/**
 * The claim → settle path, where the guard trusts the claims its own dispatcher wrote instead of
 * reading them again: a tick's claims and the settle of what it claimed read no row a second time,
 * and every way a claim stops being as written (a settle, a second settle in the same batch, a
 * settle under the caller's stripe, a write with an unknown outcome, a claim that was itself
 * dropped) makes the next settle of the row read it, so a settle is never written blind.
 *
 * <p>Part of the transition layer: {@link TransitionConformance} runs these cases against the
 * backend its subclass names.
 */
public interface KnownClaimCases extends TransitionCase {
  /**
   * A dispatcher tick reads acme's and initech's due rows once and writes its claims of both
   * tenants in one batch without reading them again (it holds the tenants' stripes from the scan to
   * the write), and the settle of the rows the tick claimed is written without reading them either;
   * a second queue on the same store, which made no claim, reads them before its settle.
   */
  @Example
  default void theClaimAndSettleOfARowReadItOnce() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      long initech = dueRowsOf(queue, "initech", 2);
      String when =
          backend().name() + ": acme's 3 and initech's 2 due rows claimed by a tick and settled";

      store.clearReads();
      AtomicInteger writes = new AtomicInteger();
      store.beforeWrite(
          b ->
              b.ops().stream()
                      .anyMatch(
                          op ->
                              op instanceof Op.Put put
                                  && startsWith(put.key(), KeyFamily.INFLIGHT.prefix()))
                  && writes.incrementAndGet() < 0,
          () -> {});
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      store.beforeWrite(b -> false, () -> {});
      assertThat(claimed).as("%s: rows claimed", when).hasSize(5);
      assertThat(writes.get())
          .as("%s: batches of the tick that put inflight rows", when)
          .isEqualTo(1);
      assertThat(pointReadsOf(store, KeyFamily.DUE))
          .as("%s: point reads of due rows by the tick", when)
          .isEmpty();

      Transition settle = new Transition();
      claimed.forEach(row -> Deliveries.delivered(settle, row));
      store.clearReads();
      assertThat(queue.write(settle, Durability.SYNC)).as("%s: steps dropped", when).isZero();
      assertThat(pointReadsOf(store, KeyFamily.INFLIGHT))
          .as("%s: point reads of inflight rows by the settle", when)
          .isEmpty();
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertThat(queue.counters().read(store, initech))
          .as("%s: initech's counters", when)
          .isEqualTo(TenantCounts.ZERO);

      long globex = dueRowsOf(queue, "globex", 2);
      List<InflightRow> more = dispatcher(queue).tick(5_000).claimed();
      Transition elsewhere = new Transition();
      more.forEach(row -> Deliveries.delivered(elsewhere, row));
      store.clearReads();
      assertThat(openQueue(store, QueueConfig.defaults()).write(elsewhere, Durability.SYNC))
          .as("%s: steps dropped by a queue that made no claim", when)
          .isZero();
      assertThat(pointReadsOf(store, KeyFamily.INFLIGHT))
          .as("%s: inflight rows read by a queue that made no claim", when)
          .isNotEmpty();
      assertThat(queue.counters().read(store, globex))
          .as("%s: globex's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertExact(store, when);
    }
  }

  /**
   * Two settles of one claimed row in one batch, behind settles of the other two: the first is
   * trusted on the claim, the second must not be (the first consumes the row), so exactly the last
   * step is dropped and acme's counters are all zero.
   */
  @Example
  default void twoSettlesOfOneClaimedRowInOneBatchWriteOne() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      Transition settle = new Transition();
      claimed.forEach(row -> Deliveries.delivered(settle, row));
      Deliveries.delivered(settle, claimed.get(0));

      String when =
          backend().name() + ": a settle batch delivering acme's 3 claims and the first one again";
      assertThat(queue.write(settle, Durability.SYNC)).as("%s: steps dropped", when).isEqualTo(1);
      assertThat(settle.applied(3))
          .as("%s: the second settle of the first row written", when)
          .isFalse();
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertExact(t.store(), when);
    }
  }

  /**
   * A settle written under acme's stripe by a caller that took it ({@link
   * TransitionGuard#lockTenant}, the batch marked {@link Transition#readUnderStripes}) consumes the
   * claim like any settle: a later retry of the same row is checked against the store and dropped,
   * also when written under the stripe but not marked as read under it; acme's other two rows stay
   * inflight.
   */
  @Example
  default void aSettleWrittenUnderTheCallersStripeConsumesTheClaim() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      QueueDriver d = new QueueDriver(queue);
      InflightRow row = claimed.get(0);
      Transition retry = new Transition();
      Deliveries.retry(retry, row, d.deliveryRow(row.key().seq(), 1), 6_000, "503");
      int settleDropped;
      int retryDropped;
      try (TransitionGuard.Held held = queue.guard().lockTenant(acme)) {
        Transition settle = new Transition().readUnderStripes(true);
        Deliveries.delivered(settle, row);
        settleDropped = queue.write(settle, Durability.SYNC);
        retryDropped = queue.write(retry, Durability.SYNC);
      }

      String when =
          backend().name() + ": a settle under acme's stripe, then a retry of the same claim";
      assertThat(settleDropped).as("%s: steps of the settle dropped", when).isZero();
      assertThat(retryDropped)
          .as("%s: steps of a retry written under the stripe, unmarked", when)
          .isEqualTo(1);
      assertThat(queue.write(retry, Durability.SYNC))
          .as("%s: steps of the later retry dropped", when)
          .isEqualTo(1);
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(0, 0, 2, 0, 20, 0));
      assertExact(t.store(), when);
    }
  }

  /**
   * A claim that is dropped (its due row was claimed by a tick in between, and that claim settled
   * since) leaves nothing to trust behind: a late retry of the row it would have made is checked
   * against the store, finds no inflight row, and is dropped.
   */
  @Example
  default void aDroppedClaimIsNotTrustedAsAClaim() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = openQueue(t.store(), QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      DueRow stale = DueIndex.firstDue(t.store(), acme);
      QueueDriver d = new QueueDriver(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      InflightRow first =
          claimed.stream()
              .filter(r -> r.key().seq() == stale.key().seq())
              .findFirst()
              .orElseThrow();
      Transition retry = new Transition();
      Deliveries.retry(retry, first, d.deliveryRow(first.key().seq(), 1), 6_000, "503");
      Transition settle = new Transition();
      Deliveries.delivered(settle, first);
      queue.write(settle, Durability.SYNC);
      Transition claim = new Transition();
      InflightRow wouldMake = Deliveries.claim(claim, stale);

      String when =
          backend().name()
              + ": a stale claim of a row claimed and settled since, then a late retry";
      assertThat(wouldMake).as("%s: the row the stale claim would make", when).isEqualTo(first);
      assertThat(queue.write(claim, Durability.SYNC))
          .as("%s: steps of the stale claim dropped", when)
          .isEqualTo(1);
      assertThat(queue.write(retry, Durability.SYNC))
          .as("%s: steps of the late retry dropped", when)
          .isEqualTo(1);
      assertThat(queue.counters().read(t.store(), acme))
          .as("%s: acme's counters", when)
          .isEqualTo(new TenantCounts(0, 0, 2, 0, 20, 0));
      assertExact(t.store(), when);
    }
  }

  /**
   * A settle whose write fails has an unknown outcome: here the engine applied the batch and then
   * failed. The retried settle must not be trusted on the claims: it reads the rows, finds them
   * gone, and is dropped whole, so acme's rows leave once.
   */
  @Example
  default void aSettleRetriedAfterAFailedWriteReadsItsRows() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      FaultInjectingStore faults = new FaultInjectingStore(t.store());
      RecordingStore store = new RecordingStore(faults);
      DeliveryQueue queue = openQueue(store, QueueConfig.defaults());
      long acme = threeDueRowsOfAcme(queue);
      List<InflightRow> claimed = dispatcher(queue).tick(5_000).claimed();
      Transition failing = new Transition();
      claimed.forEach(row -> Deliveries.delivered(failing, row));
      faults.failNextWrite((batch, durability) -> true, true);

      String when =
          backend().name()
              + ": a settle of acme's 3 claims applied, its write failed, then retried";
      assertThatThrownBy(() -> queue.write(failing, Durability.SYNC))
          .as("%s: the failed write", when)
          .isInstanceOf(StoreWriteFailedException.class);
      Transition retried = new Transition();
      claimed.forEach(row -> Deliveries.delivered(retried, row));
      store.clearReads();
      assertThat(queue.write(retried, Durability.SYNC))
          .as("%s: steps of the retried settle dropped", when)
          .isEqualTo(3);
      assertThat(pointReadsOf(store, KeyFamily.INFLIGHT))
          .as("%s: inflight rows read by the retry", when)
          .isNotEmpty();
      assertThat(queue.counters().read(store, acme))
          .as("%s: acme's counters", when)
          .isEqualTo(TenantCounts.ZERO);
      assertExact(store, when);
    }
  }

  /**
   * The point reads ({@code get}, {@code multiGet}) recorded by {@code store} of keys of {@code
   * family}.
   */
  private static List<RecordingStore.PointRead> pointReadsOf(
      RecordingStore store, KeyFamily family) {
    return store.pointReads().stream()
        .filter(
            p ->
                p.family().equals(family.columnFamily())
                    && p.keys().stream().anyMatch(k -> startsWith(k, family.prefix())))
        .toList();
  }
}
