package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.record.DeadRow;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Counters: after any sequence of transitions they equal a fold of the rows, and concurrent writers
 * lose no count.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface CounterCases extends LayoutCase {
  /**
   * Counters equal a fold after any sequence of transitions: ingest (four tenants, the default
   * among them, 1–3 sinks, archive on), dispatch ticks, deliver, retry, dead-letter, revive,
   * inflight recovery, expand, purge, archive settle and drop (by hand and by archiver runs),
   * reclaim — after every action each tenant's six counters and the node aggregate equal a fold of
   * the rows; at the end the verifier finds no breach.
   */
  @Property
  default void countersEqualAFoldAfterAnySequenceOfTransitions(
      @ForAll("queueActions") List<QueueAction> actions) {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      assertCountersEqualFold(t.store(), "on the new store, before any action");
      for (int i = 0; i < actions.size(); i++) {
        String did = actions.get(i).apply(d);
        assertCountersEqualFold(t.store(), describe(i, actions, did));
      }
      assertThat(QueueVerifier.verify(t.store()))
          .as("after all %d actions %s the verifier finds no breach", actions.size(), actions)
          .isEmpty();
    }
  }

  /**
   * Concurrent writers do not lose counts: four threads move disjoint rows of ONE tenant at once
   * through different op builders (claim + delivered; claim + retry + claim + delivered; claim +
   * dead-letter + revive; claim + recover + claim + delivered), one batch per transition, all
   * merging into the same counter keys. Afterwards the tenant's counters and the aggregate equal
   * the fold, and the fold is the exact expected outcome.
   */
  @Example
  default void concurrentWritersDoNotLoseCounts() throws Exception {
    requireCapability(
        capabilities().concurrentWriters(),
        "concurrentWriters",
        "this case writes one tenant's transitions from 4 threads at once");
    final int threads = ConcurrentWorker.values().length;
    final int hooks = 400;
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      for (int from = 0; from < hooks; from += 100) {
        List<HookEnvelope> batch = new ArrayList<>();
        for (int i = from; i < from + 100; i++) {
          batch.add(d.newHook("busy", START + i, 1, 1 + i % 23));
        }
        d.ingest().ingest(batch);
      }
      long ord = ordOf(store, "busy");
      List<DueRow> rows = DueIndex.pendingForTenant(store, ord, hooks + 1);
      assertThat(rows).as("the pre-ingested due rows of the tenant").hasSize(hooks);
      List<List<DueRow>> shares = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        shares.add(new ArrayList<>());
      }
      for (int i = 0; i < rows.size(); i++) {
        shares.get(i % threads).add(rows.get(i));
      }
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        CountDownLatch start = new CountDownLatch(threads);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
          ConcurrentWorker worker = ConcurrentWorker.values()[w];
          List<DueRow> share = shares.get(w);
          running.add(
              pool.submit(
                  () -> {
                    start.countDown();
                    start.await();
                    for (DueRow row : share) {
                      worker.drive(d.queue(), row);
                    }
                    return null;
                  }));
        }
        for (Future<?> f : running) {
          f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
        pool.awaitTermination(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
      }
      Map<Long, TenantCounts> fold = CounterFold.fold(store);
      assertThat(d.queue().counters().read(store, ord))
          .as("counters of the tenant written by 4 threads vs a fold")
          .isEqualTo(fold.getOrDefault(ord, TenantCounts.ZERO));
      assertThat(d.queue().counters().aggregate(store))
          .as("the aggregate (ord 0) vs a fold")
          .isEqualTo(fold.get(0L));
      List<DueRow> revived = shares.get(ConcurrentWorker.CLAIM_DEAD_LETTER_REVIVE.ordinal());
      long revivedBytes = revived.stream().mapToLong(r -> r.value().size()).sum();
      assertThat(fold.get(ord))
          .as("only the revived quarter is left, due as first attempts")
          .isEqualTo(new TenantCounts(revived.size(), 0, 0, 0, revivedBytes, 0));
      assertThat(QueueVerifier.verify(store))
          .as("verifier after the concurrent transitions")
          .isEmpty();
    }
  }

  /**
   * Each of a tenant's six counters is read by its field as by its name, and the node aggregate
   * sums its tenants: acme ingests 10 hooks of 7 bytes (archive on), 8 are claimed, 3 retried a
   * minute later and 1 dead-lettered, so it has 2 pending, 3 scheduled, 4 inflight, 1 dead, 70
   * bytes and 10 archive obligations — six different numbers — and 5 due; globex's one hook adds to
   * the aggregate.
   */
  @Example
  default void everyCounterIsReadByItsField() {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig().withArchive(true));
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        hooks.add(d.newHook("acme", START + i, 1, 7));
      }
      hooks.add(d.newHook("globex", START, 1, 5));
      d.ingest().ingest(hooks);
      long acme = ordOf(t.store(), "acme");
      List<DueRow> due = DueIndex.pendingForTenant(t.store(), acme, 8);
      Transition claim = new Transition();
      List<InflightRow> inflight = new ArrayList<>();
      due.forEach(r -> inflight.add(Deliveries.claim(claim, r)));
      d.write(claim);
      Transition settle = new Transition();
      for (int i = 0; i < 3; i++) {
        Deliveries.retry(
            settle,
            inflight.get(i),
            d.deliveryRow(inflight.get(i).key().seq(), 1),
            START + 60_000,
            "503");
      }
      Deliveries.deadLetter(
          settle,
          inflight.get(3),
          d.deliveryRow(inflight.get(3).key().seq(), 1),
          START,
          "src",
          "h",
          "410");
      d.write(settle);
      String on = backend().name();
      TenantCounts counts = d.queue().counters().read(t.store(), acme);
      assertThat(counts)
          .as("%s: acme's counters", on)
          .isEqualTo(new TenantCounts(2, 3, 4, 1, 70, 10));
      assertThat(counts.due()).as("%s: acme's due rows (pending + scheduled)", on).isEqualTo(5);
      TenantCounts aggregate = d.queue().counters().aggregate(t.store());
      assertThat(aggregate)
          .as("%s: the node aggregate", on)
          .isEqualTo(new TenantCounts(3, 3, 4, 1, 75, 11));
      for (CounterField field : CounterField.values()) {
        long byName =
            switch (field) {
              case PENDING -> counts.pending();
              case SCHEDULED -> counts.scheduled();
              case INFLIGHT -> counts.inflight();
              case DEAD -> counts.dead();
              case BYTES -> counts.bytes();
              case ARCHIVE_PENDING -> counts.archivePending();
            };
        assertThat(counts.get(field))
            .as("%s: acme's %s read by its field", on, field)
            .isEqualTo(byName);
      }
      assertCountersEqualFold(t.store(), on + ": after the transitions");
    }
  }

  /**
   * A fold that does not see a family's sentinels is refused, never read as low counts: with the
   * due rows' hi sentinel deleted, and then (the first put back) the inflight rows' lo sentinel,
   * {@link CounterFold#fold} fails with {@code StoreCorruptionException} naming the family and the
   * missing sentinel's key; with both back it equals the counters again.
   */
  @Example
  default void aFoldMissingASentinelIsRefused() {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig());
      d.ingest().ingest(hook(d, "acme"));
      String on = backend().name();
      for (KeyFamily family : List.of(KeyFamily.DUE, KeyFamily.INFLIGHT)) {
        FamilySentinels s = Keys.family(family);
        byte[] gone = family == KeyFamily.DUE ? s.hi() : s.lo();
        t.store().write(new Batch().delete(family.columnFamily(), gone), Durability.SYNC);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CounterFold.fold(t.store()))
            .as("%s: a fold without the %s sentinel %s", on, family, Bytes.hex(gone))
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining("key family " + family)
            .hasMessageContaining(Bytes.hex(gone));
        t.store().write(new Batch().put(family.columnFamily(), gone, new byte[0]), Durability.SYNC);
      }
      assertCountersEqualFold(t.store(), on + ": with both sentinels back");
    }
  }

  /** What each thread of {@link #concurrentWritersDoNotLoseCounts} does with each of its rows. */
  enum ConcurrentWorker {
    CLAIM_DELIVER {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        Transition t = new Transition();
        Deliveries.delivered(t, inflight);
        q.write(t, Durability.NO_SYNC);
      }
    },
    CLAIM_RETRY_CLAIM_DELIVER {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        long at = row.key().at() + 60_000;
        Transition retry = new Transition();
        Deliveries.retry(retry, inflight, stateOf(q, row), at, "503");
        q.write(retry, Durability.NO_SYNC);
        DueRow again =
            new DueRow(
                new DueKey(row.ord(), at, row.seq(), row.key().sink()),
                new DueValue(row.value().size(), DueKind.RETRY));
        Transition delivered = new Transition();
        Deliveries.delivered(delivered, claim(q, again));
        q.write(delivered, Durability.NO_SYNC);
      }
    },
    CLAIM_DEAD_LETTER_REVIVE {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        long at = row.key().at() + 30_000;
        Transition dead = new Transition();
        Deliveries.deadLetter(
            dead, inflight, stateOf(q, row), at, "src", "hook-" + row.seq(), "410");
        q.write(dead, Durability.NO_SYNC);
        byte[] deadKey = Keys.dead(at, row.seq(), row.key().sink());
        byte[] deadValue = q.store().get(Format3.INDEX, deadKey);
        assertThat(deadValue).as("dead row %s just written", Bytes.hex(deadKey)).isNotNull();
        DeadRow read = new DeadRow(DeadKey.decode(deadKey), DeadValue.decodeAt(deadKey, deadValue));
        Transition revive = new Transition();
        Deliveries.revive(revive, read, stateOf(q, row), at + 10_000);
        q.write(revive, Durability.NO_SYNC);
      }
    },
    CLAIM_RECOVER_CLAIM_DELIVER {
      @Override
      void drive(DeliveryQueue q, DueRow row) {
        InflightRow inflight = claim(q, row);
        long at = row.key().at() + 50_000;
        Transition recover = new Transition();
        Deliveries.recoverInflight(recover, inflight, at);
        q.write(recover, Durability.NO_SYNC);
        DueRow again =
            new DueRow(
                new DueKey(row.ord(), at, row.seq(), row.key().sink()),
                new DueValue(row.value().size(), DueKind.FIRST_ATTEMPT));
        Transition delivered = new Transition();
        Deliveries.delivered(delivered, claim(q, again));
        q.write(delivered, Durability.NO_SYNC);
      }
    };

    abstract void drive(DeliveryQueue q, DueRow row);

    static InflightRow claim(DeliveryQueue q, DueRow row) {
      Transition t = new Transition();
      Deliveries.claim(t, row);
      q.write(t, Durability.NO_SYNC);
      return new InflightRow(
          new InflightKey(row.ord(), row.seq(), row.key().sink()),
          new InflightValue(row.value().size()));
    }

    static DeliveryRow stateOf(DeliveryQueue q, DueRow row) {
      byte[] v = q.store().get(Format3.DELIVERIES, Keys.delivery(row.seq(), row.key().sink()));
      assertThat(v).as("delivery row of %s", row.key()).isNotNull();
      return DeliveryRow.decode(v);
    }
  }
}
