package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.DispatchBacklogs.NOW;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.deliver;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.ingestBacklogs;
import static io.ankusa.store.conformance.queue.DispatchBacklogs.ingestNewestFirst;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.CloseRace;
import io.ankusa.store.conformance.FaultInjectingStore;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.conformance.queue.DispatchConformance.Backlog;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.ScanCursor;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;

/**
 * How a tick writes its claims among the store's other writers: the claims of one round are one
 * batch, a claim write that fails loses no row, a tick never waits while it holds a tenant's
 * stripe, a row another queue's write put behind the cursors is claimed, and settling a claimed row
 * waits for its tenant's stripe. Stripes are held by the case and writes counted or failed by a
 * wrapping store ({@link WriteCountingStore}, {@link FaultInjectingStore}): the interleavings are
 * forced, never hoped for.
 *
 * <p>Part of the dispatch layer: {@link DispatchConformance} runs these cases against the backend
 * its subclass names.
 */
public interface TickWriteCases {
  /** The backend under test (its fixture, made once per suite instance). */
  BackendFixture backend();

  /** The dispatcher under test ({@link DispatchConformance#dispatcher}). */
  Dispatcher dispatcher(DeliveryQueue queue, int rowLimit, long byteBudget);

  /**
   * A claim write that fails loses no row: the tick throws the store's failure, every row it tried
   * to claim is still due, and later ticks claim each row exactly once — the dispatcher does not
   * skip the rows its failed tick had scanned past.
   */
  @Example
  default void aFailedClaimWriteLeavesTheRowsDueForTheNextTick() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      FaultInjectingStore store = new FaultInjectingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      ingestNewestFirst(queue, 2, 10, 96);
      Dispatcher dispatcher = dispatcher(queue, 6, 1L << 20);
      String on = backend().name();
      java.util.Set<String> claimed = new java.util.HashSet<>();
      dispatcher.tick(NOW).claimed().forEach(r -> claimed.add(r.key().toString()));
      store.failNextWrite((batch, durability) -> WriteCountingStore.writesClaims(batch), false);
      assertThatThrownBy(() -> dispatcher.tick(NOW))
          .as("%s: a tick whose claim write fails", on)
          .isInstanceOf(StoreWriteFailedException.class);
      assertThat(store.injected()).as("%s: failures injected", on).isEqualTo(1);
      assertThat(queue.counters().aggregate(store).pending())
          .as("%s: rows due after the failed tick", on)
          .isEqualTo(20 - claimed.size());
      for (int i = 0; i < 10; i++) {
        for (InflightRow row : dispatcher.tick(NOW).claimed()) {
          assertThat(claimed.add(row.key().toString()))
              .as("%s: %s claimed once", on, row.key())
              .isTrue();
        }
      }
      assertThat(claimed).as("%s: rows claimed in all", on).hasSize(20);
      assertThat(QueueVerifier.verify(store))
          .as("%s: the verifier after the failed tick", on)
          .isEmpty();
    }
  }

  /**
   * A round of a tick writes the claims of every tenant it visited as one batch: acme's and bolt's
   * rows, claimed in one round, are one write.
   */
  @Example
  default void oneRoundOfSeveralTenantsIsOneClaimBatch() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      WriteCountingStore store = new WriteCountingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      List<Long> ords =
          ingestBacklogs(
              queue, List.of(new Backlog(1, List.of(10, 10)), new Backlog(1, List.of(10, 10))));
      store.claimWrites.set(0);
      Dispatcher.TickReport report =
          new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1L << 20).tick(NOW);
      String on = backend().name();
      assertThat(report.rowsClaimed()).as("%s: rows claimed", on).isEqualTo(4);
      assertThat(store.claimWrites.get())
          .as("%s: batches that wrote inflight rows", on)
          .isEqualTo(1);
      for (long ord : ords) {
        assertThat(queue.counters().read(store, ord).inflight())
            .as("%s: tenant %d's inflight", on, ord)
            .isEqualTo(2);
      }
      assertThat(QueueVerifier.verify(store)).as("%s: the verifier", on).isEmpty();
    }
  }

  /**
   * A tick never waits while it holds a tenant's stripe: bolt's stripe is held by another
   * transition when the tick visits it after acme, so the tick writes acme's claims and lets acme's
   * stripe go before it waits (another thread can take acme's stripe then); once bolt's stripe is
   * free it claims bolt's rows too, in a second write.
   */
  @Example
  default void aBusyStripeMakesTheRoundWriteWhatItHasAndLetGoBeforeWaiting() throws Exception {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      WriteCountingStore store = new WriteCountingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      List<Long> ords =
          ingestBacklogs(
              queue, List.of(new Backlog(1, List.of(10, 10)), new Backlog(1, List.of(10, 10))));
      long acme = ords.get(0);
      long bolt = ords.get(1);
      String on = backend().name();
      assertThat(acme).as("%s: the first round visits acme, then bolt", on).isLessThan(bolt);
      store.claimWrites.set(0);
      java.util.concurrent.atomic.AtomicReference<Dispatcher.TickReport> report =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread tick;
      try (TransitionGuard.Held boltHeld = queue.guard().lockTenant(bolt)) {
        tick =
            CloseRace.startAndExpectItToBlock(
                "a tick visiting bolt while bolt's stripe is held",
                () ->
                    report.set(
                        new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1L << 20).tick(NOW)));
        assertThat(queue.counters().read(store, acme).inflight())
            .as("%s: acme's claims, written before the wait", on)
            .isEqualTo(2);
        java.util.concurrent.atomic.AtomicBoolean acmeFree =
            new java.util.concurrent.atomic.AtomicBoolean();
        Thread probe =
            new Thread(
                () -> {
                  TransitionGuard.Held h = queue.guard().tryLockTenant(acme);
                  acmeFree.set(h != null);
                  if (h != null) {
                    h.close();
                  }
                });
        probe.start();
        probe.join();
        assertThat(acmeFree.get())
            .as("%s: acme's stripe is let go while the tick waits", on)
            .isTrue();
      }
      tick.join(
          java.util.concurrent.TimeUnit.SECONDS.toMillis(LayoutAssertions.THREAD_WAIT_SECONDS));
      assertThat(report.get())
          .as("%s: the tick's report once bolt's stripe was let go", on)
          .isNotNull();
      assertThat(report.get().rowsClaimed()).as("%s: rows claimed", on).isEqualTo(4);
      assertThat(queue.counters().read(store, bolt).inflight())
          .as("%s: bolt's inflight", on)
          .isEqualTo(2);
      assertThat(store.claimWrites.get())
          .as("%s: batches that wrote inflight rows", on)
          .isEqualTo(2);
      assertThat(QueueVerifier.verify(store)).as("%s: the verifier", on).isEmpty();
    }
  }

  /**
   * A row that another queue on the same store puts behind this dispatcher's cursors is claimed:
   * the dispatcher claimed acme's rows up to +5 s (its due cursor and its marker floor are there);
   * a second {@link DeliveryQueue} opened on the store, whose writes lower neither, ingests an acme
   * hook received at +1 s. Within {@link ScanCursor#REWIND_EVERY} ticks one scans the markers from
   * their head, sees that second's marker before acme's cursor and scans acme from there, so it
   * claims the row.
   */
  @Example
  default void aRowAnotherQueuePutBehindTheCursorIsClaimed() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      DirectIngest ingest = new DirectIngest(queue);
      for (int i = 0; i < 3; i++) {
        ingest.ingest(
            new HookEnvelope(
                0,
                "acme",
                "src",
                "h" + i,
                null,
                QueueDriver.START_MS + 5_000 + i,
                List.of(1),
                new byte[10]));
      }
      Dispatcher dispatcher = dispatcher(queue, 2, 1L << 20);
      String on = backend().name();
      assertThat(dispatcher.tick(NOW).claimed())
          .as("%s: the first tick's claims (row limit 2)", on)
          .hasSize(2);
      DeliveryQueue other = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      long early =
          new DirectIngest(other)
              .ingest(
                  new HookEnvelope(
                      0,
                      "acme",
                      "src",
                      "early",
                      null,
                      QueueDriver.START_MS + 1_000,
                      List.of(1),
                      new byte[10]));
      List<Long> claimed = new ArrayList<>();
      for (int i = 0; i < ScanCursor.REWIND_EVERY && !claimed.contains(early); i++) {
        dispatcher.tick(NOW).claimed().forEach(r -> claimed.add(r.key().seq()));
      }
      assertThat(claimed)
          .as(
              "%s: the claims of the next %d ticks, once one of them scanned the markers from their"
                  + " head",
              on, ScanCursor.REWIND_EVERY)
          .contains(early)
          .hasSize(2);
      assertThat(
              queue
                  .counters()
                  .read(t.store(), Tenants.ord(t.store(), TenantId.of("acme")).getAsLong())
                  .due())
          .as("%s: acme's rows left due", on)
          .isZero();
    }
  }

  /**
   * Settling a claimed row takes its tenant's stripe: while another transition holds acme's stripe,
   * a delivered write of an acme row the tick claimed waits for it (forced: the case holds the
   * stripe), and completes once it is let go.
   */
  @Example
  default void settlingAClaimedRowWaitsForItsTenantsStripe() throws Exception {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      long acme = ingestBacklogs(queue, List.of(new Backlog(1, List.of(10)))).get(0);
      InflightRow row = dispatcher(queue, 10, 1L << 20).tick(NOW).claimed().get(0);
      String on = backend().name();
      Thread settle;
      try (TransitionGuard.Held held = queue.guard().lockTenant(acme)) {
        settle =
            CloseRace.startAndExpectItToBlock(
                on + ": delivering acme's row while acme's stripe is held",
                () -> deliver(queue, row));
      }
      settle.join(
          java.util.concurrent.TimeUnit.SECONDS.toMillis(LayoutAssertions.THREAD_WAIT_SECONDS));
      assertThat(queue.counters().read(t.store(), acme).inflight())
          .as("%s: acme's inflight once delivered", on)
          .isZero();
    }
  }
}
