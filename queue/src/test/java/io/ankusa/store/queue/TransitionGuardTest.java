package io.ankusa.store.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.counter.CounterFold;
import io.ankusa.store.queue.counter.TenantCounts;
import io.ankusa.store.queue.dispatch.Dispatcher;
import io.ankusa.store.queue.index.DeadLetters;
import io.ankusa.store.queue.index.DueIndex;
import io.ankusa.store.queue.ingest.DirectIngest;
import io.ankusa.store.queue.maintenance.InflightRecovery;
import io.ankusa.store.queue.maintenance.Purge;
import io.ankusa.store.queue.maintenance.QueueVerifier;
import io.ankusa.store.queue.maintenance.Reclaim;
import io.ankusa.store.queue.record.DeadRow;
import io.ankusa.store.queue.record.DeliveryRow;
import io.ankusa.store.queue.record.DueRow;
import io.ankusa.store.queue.record.HookEnvelope;
import io.ankusa.store.queue.record.InflightRow;
import io.ankusa.store.queue.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conflicting transitions forced into the one interleaving that breaks an unguarded queue: an {@link
 * InterleavingStore} runs the second transition after the first has read its rows and before it
 * writes them. Each case runs twice: with the queue's {@link TransitionGuard} (the counters equal a
 * fold, the verifier finds nothing, no row is moved twice) and with a guard that re-checks nothing —
 * the queue as it was before the guard — where the same interleaving must leave the breach it names,
 * so each case is shown able to fail.
 */
class TransitionGuardTest {
  private static final String GUARDED = "guarded";
  private static final String UNGUARDED = "unguarded";
  private static final TenantId ACME = TenantId.of("acme");

  private Path dir;
  private InterleavingStore store;
  private DeliveryQueue queue;

  /** The queue before the guard: every write goes through blind, as read long before; reclaim locks nothing. */
  static final class RechecksNothing extends TransitionGuard {
    @Override
    protected boolean rechecks(Transition.Kind kind) {
      return false;
    }

    @Override
    public Held lockHooks(Collection<Long> seqs) {
      return Held.nothing();
    }

    @Override
    public Held lockTenant(long ord) {
      return Held.nothing();
    }

    @Override
    public Held tryLockTenant(long ord) {
      return Held.nothing();
    }
  }

  private void open(String guard) {
    dir = Path.of("/memory", UUID.randomUUID().toString());
    Store memory = StoreProvider.named("memory").open(dir, StoreOptions.defaults(), Format3.families());
    store = new InterleavingStore(memory);
    queue = DeliveryQueue.open(store, QueueConfig.defaults(),
        guard.equals(GUARDED) ? new TransitionGuard() : new RechecksNothing());
  }

  @AfterEach
  void close() {
    store.close();
    MemoryStoreProvider.discard(dir);
  }

  /** Three hooks of acme, 10 bytes each, one sink, received at 1 000, 1 001, 1 002. */
  private void threeHooksOfAcme() {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      hooks.add(new HookEnvelope(0, "acme", "src", "hook-" + i, null, 1_000 + i, List.of(1), new byte[10]));
    }
    new DirectIngest(queue).ingest(hooks);
  }

  private Dispatcher dispatcher() {
    return new Dispatcher(queue, () -> Long.MAX_VALUE, 100, 1L << 20);
  }

  private TenantCounts acme() {
    return queue.counters().read(store, Tenants.ord(store, ACME).getAsLong());
  }

  /** Claims every due row of acme and dead-letters them all. */
  private void deadLetterEverything() {
    Transition t = new Transition();
    for (InflightRow row : dispatcher().tick(5_000).claimed()) {
      DeliveryRow state = DeliveryRow.decode(store.get(Format3.DELIVERIES, Keys.delivery(row.key().seq(), row.key().sink())));
      Deliveries.deadLetter(t, row, state, 6_000, "src", "hook", "410");
    }
    queue.write(t, Durability.SYNC);
  }

  private List<String> breaches() {
    return QueueVerifier.verify(store).stream().map(QueueVerifier.Breach::toString).toList();
  }

  /**
   * The reproduction: a dispatcher tick claims acme's three due rows between {@link Purge}'s scan and
   * its batch. Guarded, the purge finds its rows moved and purges none; unguarded it drives {@code
   * pending} to −3 and deletes the delivery rows of three inflight rows.
   */
  @ParameterizedTest
  @ValueSource(strings = {GUARDED, UNGUARDED})
  void purgeBesideADispatcherTick(String guard) {
    open(guard);
    threeHooksOfAcme();
    List<InflightRow> claimed = new ArrayList<>();
    store.afterNextScanOf('D', () -> claimed.addAll(dispatcher().tick(5_000).claimed()));

    long purged = Purge.purgeTenant(queue, ACME, EnumSet.of(Purge.Kind.DUE));

    assertThat(store.ran()).as("the tick ran inside the purge").isTrue();
    assertThat(claimed).hasSize(3);
    if (guard.equals(GUARDED)) {
      assertThat(purged).as("rows purged: all three were claimed first").isZero();
      assertThat(acme()).isEqualTo(new TenantCounts(0, 0, 3, 0, 30, 0));
      assertThat(breaches()).isEmpty();
    } else {
      assertThat(acme().pending()).isEqualTo(-3);
      assertThat(breaches()).anyMatch(b -> b.startsWith("counter-not-negative"))
          .anyMatch(b -> b.startsWith("index-row-has-delivery-row"));
    }
  }

  /**
   * A replay revives one of acme's dead rows between the purge's scan of {@code 'X'} and its batch.
   * Guarded, the revived row is left due and the other two are purged; unguarded the purge deletes the
   * revived row's delivery row and counts {@code dead} −1 once too often.
   */
  @ParameterizedTest
  @ValueSource(strings = {GUARDED, UNGUARDED})
  void reviveBesidePurgeOfDeadRows(String guard) {
    open(guard);
    threeHooksOfAcme();
    deadLetterEverything();
    store.afterNextScanOf('X', () -> reviveOldestDead(7_000));

    long purged = Purge.purgeTenant(queue, ACME, EnumSet.of(Purge.Kind.DEAD));

    assertThat(store.ran()).as("the revive ran inside the purge").isTrue();
    if (guard.equals(GUARDED)) {
      assertThat(purged).isEqualTo(2);
      assertThat(acme()).isEqualTo(new TenantCounts(1, 0, 0, 0, 10, 0));
      assertThat(breaches()).isEmpty();
    } else {
      assertThat(acme().dead()).isEqualTo(-1);
      assertThat(breaches()).isNotEmpty();
    }
  }

  private void reviveOldestDead(long now) {
    DeadRow dead = DeadLetters.deadPage(store, null, 100, null).rows().get(2); // newest first: [2] is the oldest
    DeliveryRow state = DeliveryRow.decode(store.get(Format3.DELIVERIES, Keys.delivery(dead.key().seq(), dead.key().sink())));
    Transition t = new Transition();
    Deliveries.revive(t, dead, state, now);
    queue.write(t, Durability.SYNC);
  }

  /**
   * Two dispatchers on one queue: the second, on its own thread, ticks while the first has scanned
   * acme's due rows and not yet written its claims. Guarded, the second waits for the tenant's stripe
   * and then finds nothing due: each row is claimed once. Unguarded both report the same three rows
   * (each would be delivered twice) and {@code pending} is −3.
   */
  @ParameterizedTest
  @ValueSource(strings = {GUARDED, UNGUARDED})
  void twoDispatchersClaimingTheSameRows(String guard) throws Exception {
    open(guard);
    threeHooksOfAcme();
    List<InflightRow> second = new ArrayList<>();
    Thread other = new Thread(() -> second.addAll(dispatcher().tick(5_000).claimed()), "second-dispatcher");
    store.afterNextScanOf('D', () -> startAndWaitUntilBlockedOrDone(other));

    List<InflightRow> first = dispatcher().tick(5_000).claimed();
    other.join(10_000);

    assertThat(store.ran()).as("the second tick ran inside the first").isTrue();
    assertThat(first).hasSize(3);
    if (guard.equals(GUARDED)) {
      assertThat(second).as("rows the second dispatcher claimed too").isEmpty();
      assertThat(acme()).isEqualTo(new TenantCounts(0, 0, 3, 0, 30, 0));
      assertThat(breaches()).isEmpty();
    } else {
      assertThat(second).hasSize(3);
      assertThat(acme().pending()).isEqualTo(-3);
      assertThat(acme().inflight()).isEqualTo(6);
      assertThat(breaches()).isNotEmpty();
    }
  }

  /**
   * A replay reads a dead row and its delivery row; before it writes the revive, the tenant's dead rows are purged and
   * reclaim deletes the hooks nothing owes any more. Guarded, the revive finds its dead row gone and
   * writes nothing; unguarded it makes a due row and a delivery row for a hook reclaim has deleted
   * (and counts {@code dead} −1).
   */
  @ParameterizedTest
  @ValueSource(strings = {GUARDED, UNGUARDED})
  void reclaimBesideRevive(String guard) {
    open(guard);
    threeHooksOfAcme();
    deadLetterEverything();
    int[] reclaimed = new int[1];
    store.afterNextGetOf(Format3.DELIVERIES, () -> {
      Purge.purgeTenant(queue, ACME, EnumSet.of(Purge.Kind.DEAD));
      reclaimed[0] = Reclaim.run(queue, 100);
    });

    reviveOldestDead(7_000);

    assertThat(store.ran()).as("purge and reclaim ran inside the revive").isTrue();
    assertThat(reclaimed[0]).isEqualTo(3);
    if (guard.equals(GUARDED)) {
      assertThat(acme()).isEqualTo(TenantCounts.ZERO);
      assertThat(count(KeyFamily.DUE)).isZero();
      assertThat(breaches()).isEmpty();
    } else {
      assertThat(count(KeyFamily.DUE)).isEqualTo(1);
      assertThat(breaches()).anyMatch(b -> b.startsWith("index-row-has-hook"));
    }
  }

  /**
   * Reclaim has found that nothing owes a delivered hook; before it deletes the hook, another thread
   * expands the hook with a second sink. Guarded, the expand waits for reclaim's hook stripe, then
   * finds the hook gone and writes nothing; unguarded it adds a due row and a delivery row that reclaim
   * then leaves without their hook.
   */
  @ParameterizedTest
  @ValueSource(strings = {GUARDED, UNGUARDED})
  void reclaimBesideExpand(String guard) throws Exception {
    open(guard);
    new DirectIngest(queue).ingest(new HookEnvelope(0, "acme", "src", "hook", null, 1_000, List.of(1), new byte[10]));
    Transition delivered = new Transition();
    dispatcher().tick(5_000).claimed().forEach(row -> Deliveries.delivered(delivered, row));
    queue.write(delivered, Durability.SYNC);
    long ord = Tenants.ord(store, ACME).getAsLong();
    HookEnvelope hook = HookEnvelope.decode(store.get(Format3.HOOKS, Keys.hook(1)));
    HookEnvelope expanded = new HookEnvelope(1, "acme", "src", "hook", null, 1_000, List.of(1, 2), hook.payload());
    Thread expander = new Thread(() -> {
      Transition t = new Transition();
      Deliveries.expand(t, expanded, ord, List.of(2), 6_000);
      queue.write(t, Durability.SYNC);
    }, "expander");
    store.afterNextScanOf(Format3.DELIVERIES, () -> startAndWaitUntilBlockedOrDone(expander));

    int reclaimed = Reclaim.run(queue, 10);
    expander.join(10_000);

    assertThat(store.ran()).as("the expand ran inside reclaim's check and delete").isTrue();
    assertThat(reclaimed).isEqualTo(1);
    assertThat(store.get(Format3.HOOKS, Keys.hook(1))).isNull();
    if (guard.equals(GUARDED)) {
      assertThat(count(KeyFamily.DUE)).isZero();
      assertThat(breaches()).isEmpty();
    } else {
      assertThat(count(KeyFamily.DUE)).isEqualTo(1);
      assertThat(breaches()).anyMatch(b -> b.startsWith("index-row-has-hook"));
    }
  }

  /** Starts {@code t} and returns once it waits on a lock or has finished: never on a clock. */
  private static void startAndWaitUntilBlockedOrDone(Thread t) {
    t.start();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TERMINATED) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(t.getName() + " neither finished nor waited on a lock within 10 s: " + t.getState());
      }
      Thread.onSpinWait();
    }
  }

  /**
   * One batch holding an ingest and the claim of a row that a tick claimed between the read and the
   * write: the ingest is written (its step expects nothing), the stale claim is not.
   */
  @Test
  void aBatchMixingIngestWithAStaleClaimWritesTheIngestOnly() {
    open(GUARDED);
    threeHooksOfAcme();
    long ord = Tenants.ord(store, ACME).getAsLong();
    DueRow stale = DueIndex.firstDue(store, ord);
    dispatcher().tick(5_000);
    Transition t = new Transition();
    Deliveries.ingest(t, new HookEnvelope(4, "acme", "src", "hook-3", null, 9_000, List.of(1), new byte[10]), ord, false);
    Deliveries.claim(t, stale);

    assertThat(queue.write(t, Durability.SYNC)).as("steps dropped").isEqualTo(1);

    assertThat(t.applied(0)).as("the ingest").isTrue();
    assertThat(t.applied(1)).as("the stale claim").isFalse();
    assertThat(acme()).isEqualTo(new TenantCounts(1, 0, 3, 0, 40, 0));
  }

  /**
   * The guard remembers the inflight rows its claims wrote, so a settle of such a row is checked
   * without a read. Recovery that makes the claimed rows due again must take them out of that memory:
   * the late settle that follows is then checked against the store, finds its rows due, not inflight,
   * and is dropped.
   */
  @Test
  void aSettleAfterRecoveryOfItsClaimedRowsIsDropped() {
    open(GUARDED);
    threeHooksOfAcme();
    List<InflightRow> claimed = dispatcher().tick(5_000).claimed();
    assertThat(claimed).hasSize(3);

    InflightRecovery.recoverInflight(queue, 6_000);
    Transition late = new Transition();
    claimed.forEach(row -> Deliveries.delivered(late, row));

    assertThat(queue.write(late, Durability.SYNC)).as("steps dropped").isEqualTo(3);
    assertThat(acme()).isEqualTo(new TenantCounts(3, 0, 0, 0, 30, 0));
    assertThat(breaches()).isEmpty();
  }

  /** A row settled twice (a sink reporting the same delivery again) moves its counters once. */
  @Test
  void aSecondSettleOfTheSameClaimedRowIsDropped() {
    open(GUARDED);
    threeHooksOfAcme();
    List<InflightRow> claimed = dispatcher().tick(5_000).claimed();
    for (int round = 0; round < 2; round++) {
      Transition t = new Transition();
      claimed.forEach(row -> Deliveries.delivered(t, row));
      assertThat(queue.write(t, Durability.SYNC)).as("steps dropped in round %d", round).isEqualTo(round * 3);
    }
    assertThat(acme()).isEqualTo(new TenantCounts(0, 0, 0, 0, 0, 0));
    assertThat(breaches()).isEmpty();
  }

  /**
   * Two settles of one claimed row in the same batch: the first is trusted on the guard's memory of the
   * claim, the second must not be (the row is consumed by the first), so exactly one is written.
   */
  @Test
  void twoSettlesOfOneClaimedRowInOneBatchWriteOne() {
    open(GUARDED);
    threeHooksOfAcme();
    List<InflightRow> claimed = dispatcher().tick(5_000).claimed();
    Transition t = new Transition();
    claimed.forEach(row -> Deliveries.delivered(t, row));
    Deliveries.delivered(t, claimed.get(0));

    assertThat(queue.write(t, Durability.SYNC)).as("steps dropped").isEqualTo(1);
    assertThat(t.applied(3)).as("the second settle of the first row").isFalse();
    assertThat(acme()).isEqualTo(new TenantCounts(0, 0, 0, 0, 0, 0));
    assertThat(breaches()).isEmpty();
  }

  /**
   * The saving the guard's memory of claims buys, and its bound: a settle of rows the guard's own tick
   * just claimed is written without any re-read, and the rows are forgotten once settled.
   */
  @Test
  void aSettleOfRowsTheGuardClaimedReadsNothing() {
    open(GUARDED);
    threeHooksOfAcme();
    List<InflightRow> claimed = dispatcher().tick(5_000).claimed();
    assertThat(queue.guard().knownClaims()).as("claims known after the tick").isEqualTo(3);

    int before = store.multiGets();
    Transition t = new Transition();
    claimed.forEach(row -> Deliveries.delivered(t, row));
    assertThat(queue.write(t, Durability.SYNC)).as("steps dropped").isZero();

    assertThat(store.multiGets() - before).as("re-reads by the settle").isZero();
    assertThat(queue.guard().knownClaims()).as("claims known after the settle").isZero();
    assertThat(acme()).isEqualTo(new TenantCounts(0, 0, 0, 0, 0, 0));
    assertThat(breaches()).isEmpty();
  }

  /**
   * A settle whose write fails has an unknown outcome (the engine may have applied it), so the guard
   * forgets its rows: the retried settle reads them again and is dropped if the first one did land.
   * Here the failure is injected before anything is written, so the retry reads, finds the rows and
   * applies.
   */
  @Test
  void aFailedSettleForgetsItsClaimsSoTheRetryReads() {
    open(GUARDED);
    threeHooksOfAcme();
    List<InflightRow> claimed = dispatcher().tick(5_000).claimed();
    Transition failing = new Transition();
    claimed.forEach(row -> Deliveries.delivered(failing, row));
    store.failNextWrite();
    assertThatThrownBy(() -> queue.write(failing, Durability.SYNC))
        .isInstanceOf(StoreWriteFailedException.class);
    assertThat(queue.guard().knownClaims()).as("claims known after the failed write").isZero();

    int before = store.multiGets();
    Transition retry = new Transition();
    claimed.forEach(row -> Deliveries.delivered(retry, row));
    assertThat(queue.write(retry, Durability.SYNC)).as("steps dropped").isZero();
    assertThat(store.multiGets() - before).as("re-reads by the retried settle").isPositive();
    assertThat(acme()).isEqualTo(new TenantCounts(0, 0, 0, 0, 0, 0));
  }

  private long count(KeyFamily family) {
    long[] n = new long[1];
    CounterFold.foldFamily(store, family, e -> n[0]++);
    return n[0];
  }
}
