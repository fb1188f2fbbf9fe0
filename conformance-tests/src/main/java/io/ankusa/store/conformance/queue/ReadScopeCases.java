package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.DeadKey;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.index.DeadLetters;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import net.jqwik.api.Example;

/**
 * What reads touch: per-tenant reads and purge stay in one tenant, a dispatch tick visits only
 * tenants with work, gauges read counters and the active index, not rows.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface ReadScopeCases extends LayoutCase {
  /**
   * Pending for a tenant, dead for a tenant and purge of a tenant touch one tenant: through a
   * {@link RecordingStore}, {@link DueIndex#pendingForTenant}, {@link DeadLetters#deadForTenant},
   * {@link DeadLetters#deadPage} for one tenant and {@link Purge#purgeTenant} scan only ranges
   * inside that tenant's {@code 'D'}, {@code 'X'} (and {@code 'F'}) prefixes, plus point reads, and
   * never read a hook. Purge changes no other tenant's rows or counters, never touches inflight
   * rows, and is idempotent (a second call purges nothing).
   */
  @Example
  default void pendingDeadAndPurgeTouchOneTenant() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      Store raw = t.store();
      QueueDriver d = new QueueDriver(rec, queueConfig().withArchive(true));
      List<String> tenants = Arrays.asList("acme", null, "globex", "initech");
      for (String tenant : tenants) {
        List<HookEnvelope> hooks = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
          hooks.add(d.newHook(tenant, START + i * 300L, 2, 10 + i));
        }
        d.ingest().ingest(hooks);
        long ord = ordOf(raw, tenant);
        List<DueRow> due = DueIndex.pendingForTenant(raw, ord, 100);
        Transition claim = new Transition();
        due.subList(0, 6).forEach(r -> Deliveries.claim(claim, r));
        d.write(claim);
        List<InflightRow> inflight = inflightOf(raw, ord);
        Transition moves = new Transition();
        Deliveries.deadLetter(
            moves,
            inflight.get(0),
            d.deliveryRow(inflight.get(0).key().seq(), inflight.get(0).key().sink()),
            START + 9_000,
            "src",
            "h",
            "410");
        Deliveries.deadLetter(
            moves,
            inflight.get(1),
            d.deliveryRow(inflight.get(1).key().seq(), inflight.get(1).key().sink()),
            START + 9_500,
            "src",
            "h",
            "410");
        Deliveries.retry(
            moves,
            inflight.get(2),
            d.deliveryRow(inflight.get(2).key().seq(), inflight.get(2).key().sink()),
            START + 60_000,
            "503");
        d.write(moves);
      }
      long acme = ordOf(raw, "acme");
      KeyRange acmeDue = Keys.dueOf(acme);
      KeyRange acmeDead = Keys.deadByTenantOf(acme);
      KeyRange acmeInflight = Keys.inflightOf(acme);

      rec.clearReads();
      List<DueRow> pending = DueIndex.pendingForTenant(rec, acme, 1000);
      assertThat(pending)
          .as("acme's due rows")
          .hasSize(7)
          .allSatisfy(r -> assertThat(r.ord()).isEqualTo(acme));
      assertScansWithin(rec, "pendingForTenant(acme)", acmeDue);
      assertNoHookRead(rec, "pendingForTenant(acme)");

      rec.clearReads();
      assertThat(DeadLetters.deadForTenant(rec, acme, 1000))
          .as("acme's dead rows")
          .hasSize(2)
          .allSatisfy(k -> assertThat(k.ord()).isEqualTo(acme));
      assertScansWithin(rec, "deadForTenant(acme)", acmeDead);
      assertNoHookRead(rec, "deadForTenant(acme)");

      rec.clearReads();
      DeadLetters.DeadPage page = DeadLetters.deadPage(rec, null, 1000, TenantId.of("acme"));
      assertThat(page.rows())
          .as("acme's dead page")
          .hasSize(2)
          .allSatisfy(r -> assertThat(r.ord()).isEqualTo(acme));
      assertScansWithin(rec, "deadPage(acme)", acmeDead);
      assertNoHookRead(rec, "deadPage(acme)");

      Map<Long, String> othersBefore = new TreeMap<>();
      for (String other : tenants.subList(1, tenants.size())) {
        long o = ordOf(raw, other);
        othersBefore.put(o, tenantState(raw, d.queue().counters(), o));
      }
      List<InflightRow> acmeInflightBefore = inflightOf(raw, acme);
      TenantCounts acmeBefore = d.queue().counters().read(raw, acme);

      rec.clearReads();
      long purged =
          Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.allOf(Purge.Kind.class));
      assertThat(purged).as("acme's 7 due and 2 dead rows purged").isEqualTo(9);
      assertScansWithin(rec, "purgeTenant(acme)", acmeDue, acmeDead, acmeInflight);
      assertNoHookRead(rec, "purgeTenant(acme)");
      for (Map.Entry<Long, String> other : othersBefore.entrySet()) {
        assertThat(tenantState(raw, d.queue().counters(), other.getKey()))
            .as("rows and counters of tenant ord %d after purging acme", other.getKey())
            .isEqualTo(other.getValue());
      }
      assertThat(inflightOf(raw, acme))
          .as("purge never touches inflight rows")
          .isEqualTo(acmeInflightBefore);
      TenantCounts acmeAfter = d.queue().counters().read(raw, acme);
      assertThat(acmeAfter)
          .as("acme's counters after the purge: only inflight rows and their bytes left")
          .isEqualTo(
              new TenantCounts(
                  0,
                  0,
                  acmeBefore.inflight(),
                  0,
                  acmeInflightBefore.stream().mapToLong(InflightRow::size).sum(),
                  acmeBefore.archivePending()));
      assertCountersEqualFold(raw, "after purging acme");
      assertThat(Purge.purgeTenant(d.queue(), TenantId.of("acme"), EnumSet.allOf(Purge.Kind.class)))
          .as("purge is idempotent: a second call purges nothing")
          .isZero();
      assertThat(QueueVerifier.verify(raw)).isEmpty();
    }
  }

  /**
   * A dispatch tick visits only tenants with work: 1 000 tenants, 3 with a row due now, the other
   * 997 with only a retry scheduled a day ahead or a dead row; the tick visits 3 tenants and scans
   * 3 {@code 'D'} ranges.
   */
  @Example
  default void dispatchTickVisitsOnlyTenantsWithWork() {
    final int tenants = 1000;
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(rec, queueConfig());
      List<HookEnvelope> hooks = new ArrayList<>();
      for (int i = 0; i < tenants; i++) {
        hooks.add(d.newHook("tenant-" + i, START + i % 1000, 1, 4));
      }
      d.ingest().ingest(hooks);
      d.advance(5_000);
      Dispatcher dispatcher =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 2 * tenants, Long.MAX_VALUE);
      assertThat(dispatcher.tick(d.now()).rowsClaimed())
          .as("first tick claims every row")
          .isEqualTo(tenants);
      Transition settle = new Transition();
      for (InflightRow row : d.inflightRows()) {
        long i = row.ord() - 1;
        if (i < 3) {
          Deliveries.delivered(settle, row);
        } else if (i % 2 == 0) {
          Deliveries.retry(
              settle,
              row,
              d.deliveryRow(row.key().seq(), row.key().sink()),
              d.now() + DAY_MS,
              "503");
        } else {
          Deliveries.deadLetter(
              settle,
              row,
              d.deliveryRow(row.key().seq(), row.key().sink()),
              d.now(),
              "src",
              "h",
              "410");
        }
      }
      d.write(settle);
      d.advance(5_000);
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("tenant-0", d.now(), 1, 4),
                  d.newHook("tenant-1", d.now(), 1, 4),
                  d.newHook("tenant-2", d.now(), 1, 4)));
      d.advance(1_000);

      rec.clearReads();
      Dispatcher.TickReport tick = dispatcher.tick(d.now());
      assertThat(tick.tenantsVisited())
          .as("tenants visited by a tick with 3 of 1000 tenants due")
          .isEqualTo(3);
      assertThat(tick.rowsClaimed()).isEqualTo(3);
      Set<Long> dueRangesScanned = new TreeSet<>();
      for (RecordingStore.ScanRead s : rec.scans()) {
        if (s.lo().length >= 5 && s.lo()[0] == 'D') {
          dueRangesScanned.add(Integer.toUnsignedLong(ByteBuffer.wrap(s.lo(), 1, 4).getInt()));
        }
      }
      assertThat(dueRangesScanned)
          .as("tenants whose 'D' range the tick scanned")
          .containsExactly(1L, 2L, 3L);
      assertThat(QueueVerifier.verify(t.store())).isEmpty();
    }
  }

  /**
   * Queue gauges read counters: through a {@link RecordingStore}, {@link QueueGauges#measure} never
   * scans an {@code 'F'}, {@code 'x'}, {@code 'X'} or {@code 'a'} range nor the counters family,
   * takes at most one entry from any {@code 'D'} range (seeking the first due row of at most 33
   * tenants to verify the first marker), and reads the node aggregate's six counters with one
   * multiGet; its numbers equal the fold's aggregate.
   */
  @Example
  default void queueGaugesReadCounters() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(rec, queueConfig().withArchive(true));
      populateMixedState(d, 40);
      Map<Long, TenantCounts> fold = CounterFold.fold(t.store());

      rec.clearReads();
      QueueGauges.Gauge gauge = new QueueGauges(d.queue()).measure(d.now());
      List<RecordingStore.Read> reads = rec.reads();

      assertThat(gauge.aggregate())
          .as("gauge numbers vs a fold's aggregate")
          .isEqualTo(fold.get(0L));
      assertThat(gauge.tenants()).isEqualTo(Tenants.count(t.store()));
      for (RecordingStore.ScanRead s : rec.scans()) {
        assertThat(s.family())
            .as("family of %s (gauge reads %s)", s, reads)
            .isEqualTo(Format3.INDEX);
        byte prefix = s.lo().length == 0 ? 0 : s.lo()[0];
        assertThat(prefix)
            .as("gauge scan %s is not of 'F', 'x', 'X' or 'a'", s)
            .isNotIn((byte) 'F', (byte) 'x', (byte) 'X', (byte) 'a');
        assertThat(prefix)
            .as("gauge scan %s is of the active index or one tenant's due range", s)
            .isIn((byte) 'A', (byte) 'D');
        if (prefix == 'D') {
          assertThat(s.entriesConsumed()).as("entries taken from %s", s).isLessThanOrEqualTo(1);
        }
      }
      assertThat(rec.scans().stream().filter(s -> s.lo()[0] == 'D').count())
          .as("tenants' first due rows sought")
          .isLessThanOrEqualTo(ActiveIndex.STALE_MARKER_SKIP + 1);
      List<RecordingStore.PointRead> counterReads =
          rec.pointReads().stream().filter(p -> p.family().equals(Format3.COUNTERS)).toList();
      assertThat(counterReads).as("counter reads of a gauge tick: %s", reads).hasSize(1);
      assertThat(counterReads.get(0).call()).isEqualTo("multiGet");
      Set<String> aggregateKeys = new TreeSet<>();
      for (CounterField f : CounterField.values()) {
        aggregateKeys.add(Bytes.fullHex(Keys.counter(0, f)));
        for (int shard = 0;
            queueConfig().shardedAggregate() && shard < Keys.AGGREGATE_SHARDS;
            shard++) {
          aggregateKeys.add(Bytes.fullHex(Keys.aggregateShard(f, shard)));
        }
      }
      Set<String> read =
          counterReads.get(0).keys().stream()
              .map(Bytes::fullHex)
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(read)
          .as("the multiGet reads the six counters of ord 0 (and their shards when sharded)")
          .isEqualTo(aggregateKeys);
    }
  }

  /**
   * The oldest due age comes from the active index: the age is now minus the first due row of the
   * tenant of the first marker at or before now; a stale first marker (its tenant's row claimed,
   * the marker not yet cleaned) is skipped, up to 32 of them; rows due later do not count; with
   * nothing due it is 0. The computation scans the active index and seeks tenants' first due rows
   * only.
   */
  @Example
  default void oldestDueAgeComesFromTheActiveIndex() {
    try (TempDirStore t = openQueueStore()) {
      RecordingStore rec = new RecordingStore(t.store());
      QueueDriver d = new QueueDriver(rec, queueConfig());
      QueueGauges gauges = new QueueGauges(d.queue());
      long now = START + 100_000;
      d.ingest()
          .ingest(
              List.of(
                  d.newHook("a", START + 300, 1, 4),
                  d.newHook("b", START + 2_400, 1, 4),
                  d.newHook("c", START + 5_000, 1, 4),
                  d.newHook("later", now + 5_000, 1, 4)));
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as("age of a's row, the oldest")
          .isEqualTo(now - (START + 300));
      assertOnlyActiveAndFirstDueReads(rec, gauges, now);

      claimAllOf(d, ordOf(t.store(), "a"));
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as("a's stale marker skipped: age of b's row")
          .isEqualTo(now - (START + 2_400));

      d.ingest().ingest(d.newHook("a", START + 3_100, 1, 4));
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as(
              "a's stale marker still skipped (a's first due row is in a later second): age of b's row")
          .isEqualTo(now - (START + 2_400));

      List<HookEnvelope> staleMakers = new ArrayList<>();
      for (int i = 0; i < ActiveIndex.STALE_MARKER_SKIP - 1; i++) {
        staleMakers.add(d.newHook("stale-" + i, START - 1_000 + i, 1, 4));
      }
      d.ingest().ingest(staleMakers);
      for (int i = 0; i < ActiveIndex.STALE_MARKER_SKIP - 1; i++) {
        claimAllOf(d, ordOf(t.store(), "stale-" + i));
      }
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as("32 stale markers (31 + a's) skipped: age of b's row")
          .isEqualTo(now - (START + 2_400));
      assertOnlyActiveAndFirstDueReads(rec, gauges, now);

      for (String tenant : List.of("a", "b", "c")) {
        claimAllOf(d, ordOf(t.store(), tenant));
      }
      new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 1, Long.MAX_VALUE).tick(now);
      assertThat(ActiveIndex.activeTenants(t.store(), now, ActiveIndex.DEFAULT_LIMIT))
          .as("a tick cleaned every stale marker")
          .isEmpty();
      assertThat(gauges.measure(now).oldestDueAgeMs())
          .as("nothing due at or before now (a row due later does not count)")
          .isZero();
      assertThat(gauges.measure(now + 7_000).oldestDueAgeMs())
          .as("the later row, 2 s after it came due")
          .isEqualTo(2_000);
    }
  }

  private static void assertOnlyActiveAndFirstDueReads(
      RecordingStore rec, QueueGauges gauges, long now) {
    rec.clearReads();
    gauges.measure(now);
    for (RecordingStore.ScanRead s : rec.scans()) {
      assertThat(s.lo()[0])
          .as("oldest-age read %s is of the active index or a tenant's due range", s)
          .isIn((byte) 'A', (byte) 'D');
      if (s.lo()[0] == 'D') {
        assertThat(s.entriesConsumed()).as("entries taken from %s", s).isLessThanOrEqualTo(1);
      }
    }
  }

  /**
   * Top tenants by pending: tenants ordered by their pending rows (kind 0; a retry scheduled for
   * later is not pending), largest first (ties by ordinal), names resolved (the default tenant by
   * its name), tenants with nothing pending left out, and only tenants with a marker due by now: a
   * tenant whose rows are all due later is not listed. The numbers equal the counters and a fold of
   * the rows.
   */
  @Example
  default void topTenantsByPending() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      long now = START + 10_000;
      List<HookEnvelope> hooks = new ArrayList<>();
      addHooks(d, hooks, "acme", 5);
      addHooks(d, hooks, null, 3);
      addHooks(d, hooks, "globex", 1);
      addHooks(d, hooks, "initech", 5);
      addHooks(d, hooks, "hooli", 2);
      for (int i = 0; i < 9; i++) {
        hooks.add(d.newHook("later", now + 5_000 + i, 1, 4));
      }
      d.ingest().ingest(hooks);
      long acme = ordOf(store, "acme");
      List<DueRow> acmeRows = DueIndex.pendingForTenant(store, acme, 10);
      Transition claim = new Transition();
      Deliveries.claim(claim, acmeRows.get(0));
      Deliveries.claim(claim, acmeRows.get(1));
      d.write(claim);
      Transition retry = new Transition();
      for (InflightRow row : inflightOf(store, acme)) {
        Deliveries.retry(
            retry, row, d.deliveryRow(row.key().seq(), row.key().sink()), START + 60_000, "503");
      }
      d.write(retry);
      claimAllOf(d, ordOf(store, "hooli"));

      List<QueueGauges.TenantPending> top = new QueueGauges(d.queue()).topTenantsByPending(3, now);
      assertThat(top)
          .extracting(p -> p.tenant().value())
          .as("top 3 by pending, ties by ordinal")
          .containsExactly("initech", "acme", TenantId.DEFAULT_NAME);
      assertThat(top).extracting(QueueGauges.TenantPending::pending).containsExactly(5L, 3L, 3L);
      assertThat(d.queue().counters().read(store, acme))
          .as("acme: 3 pending and 2 scheduled")
          .extracting(TenantCounts::pending, TenantCounts::scheduled)
          .containsExactly(3L, 2L);
      Map<Long, TenantCounts> fold = CounterFold.fold(store);
      for (QueueGauges.TenantPending p : top) {
        assertThat(p.pending())
            .as("top tenant %s vs a fold", p.tenant().value())
            .isEqualTo(fold.get(p.ord()).pending());
        assertThat(p.ord()).isEqualTo(ordOf(store, p.tenant().value()));
      }
      List<QueueGauges.TenantPending> all = new QueueGauges(d.queue()).topTenantsByPending(10, now);
      assertThat(all)
          .extracting(p -> p.tenant().value())
          .as(
              "every tenant with something pending and a marker due now, and no other ('later' is due later)")
          .containsExactly("initech", "acme", TenantId.DEFAULT_NAME, "globex");
      assertThat(new QueueGauges(d.queue()).topTenantsByPending(1, now + 60_000))
          .as("once its rows are due, 'later' leads")
          .extracting(p -> p.tenant().value())
          .containsExactly("later");
    }
  }

  /**
   * The dead-letter queue pages newest first, across tenants and per tenant: acme's rows died at
   * +1, +2 and +3 s, globex's at +1.5 and +2.5 s. Pages of 2 list them newest first, each page's
   * cursor leading to the next and the last page's cursor null (a full last page's cursor leads to
   * an empty page); a tenant's pages list its rows alone; a tenant that never ingested has an empty
   * page. The rows of a page revived are due again and gone from the later pages; a per-tenant
   * index key whose global row is missing is refused, naming the missing key.
   */
  @Example
  default void deadLettersPageNewestFirstAndRevivedRowsLeaveThem() {
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig());
      String on = backend().name();
      List<HookEnvelope> hooks = new ArrayList<>();
      addHooks(d, hooks, "acme", 3);
      addHooks(d, hooks, "globex", 2);
      d.ingest().ingest(hooks);
      long acme = ordOf(store, "acme");
      long globex = ordOf(store, "globex");
      Transition claim = new Transition();
      List<InflightRow> claimed = new ArrayList<>();
      for (long ord : List.of(acme, globex)) {
        DueIndex.pendingForTenant(store, ord, 10)
            .forEach(r -> claimed.add(Deliveries.claim(claim, r)));
      }
      d.write(claim);
      long[] diedAt = {1_000, 2_000, 3_000, 1_500, 2_500};
      Transition die = new Transition();
      for (int i = 0; i < claimed.size(); i++) {
        InflightRow row = claimed.get(i);
        Deliveries.deadLetter(
            die,
            row,
            d.deliveryRow(row.key().seq(), row.key().sink()),
            START + diedAt[i],
            "src",
            "h" + i,
            "410");
      }
      d.write(die);

      List<List<Long>> pages = new ArrayList<>();
      byte[] cursor = null;
      do {
        DeadLetters.DeadPage page = DeadLetters.deadPage(store, cursor, 2, null);
        pages.add(page.rows().stream().map(r -> r.key().at() - START).collect(Collectors.toList()));
        cursor = page.next();
      } while (cursor != null && pages.size() < 10);
      assertThat(pages)
          .as("%s: pages of 2 of the whole DLQ, died at (ms after start)", on)
          .containsExactly(List.of(3_000L, 2_500L), List.of(2_000L, 1_500L), List.of(1_000L));
      DeadLetters.DeadPage full = DeadLetters.deadPage(store, null, 5, null);
      assertThat(full.rows())
          .extracting(r -> r.ord())
          .as("%s: the tenants of the DLQ's rows, newest first", on)
          .containsExactly(acme, globex, acme, globex, acme);
      assertThat(DeadLetters.deadPage(store, full.next(), 5, null).rows())
          .as("%s: the page after a full last page", on)
          .isEmpty();

      DeadLetters.DeadPage acmeFirst = DeadLetters.deadPage(store, null, 2, TenantId.of("acme"));
      assertThat(acmeFirst.rows())
          .extracting(r -> r.key().at() - START)
          .as("%s: acme's first page", on)
          .containsExactly(3_000L, 2_000L);
      DeadLetters.DeadPage acmeNext =
          DeadLetters.deadPage(store, acmeFirst.next(), 2, TenantId.of("acme"));
      assertThat(acmeNext.rows())
          .extracting(r -> r.key().at() - START)
          .as("%s: acme's second page", on)
          .containsExactly(1_000L);
      assertThat(acmeNext.next()).as("%s: the cursor after acme's last page", on).isNull();
      DeadLetters.DeadPage nobody = DeadLetters.deadPage(store, null, 2, TenantId.of("nobody"));
      assertThat(nobody.rows()).as("%s: the page of a tenant that never ingested", on).isEmpty();
      assertThat(nobody.next()).as("%s: its cursor", on).isNull();
      assertThat(DeadLetters.deadForTenant(store, acme, 2))
          .extracting(k -> k.at() - START)
          .as("%s: acme's 2 oldest dead rows through its own index", on)
          .containsExactly(1_000L, 2_000L);

      Transition revive = new Transition();
      for (var dead : acmeFirst.rows()) {
        Deliveries.revive(
            revive, dead, d.deliveryRow(dead.key().seq(), dead.key().sink()), START + 10_000);
      }
      d.write(revive);
      assertThat(DeadLetters.deadPage(store, null, 10, null).rows())
          .extracting(r -> r.key().at() - START)
          .as("%s: the DLQ after acme's first page was revived", on)
          .containsExactly(2_500L, 1_500L, 1_000L);
      assertThat(d.queue().counters().read(store, acme).pending())
          .as("%s: acme's revived rows, due again", on)
          .isEqualTo(2);

      var gone = DeadLetters.deadPage(store, null, 1, TenantId.of("acme")).rows().get(0).key();
      byte[] goneKey = Keys.dead(gone.at(), gone.seq(), gone.sink());
      store.write(
          new io.ankusa.store.spi.Batch().delete(Format3.INDEX, goneKey),
          io.ankusa.store.spi.Durability.SYNC);
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> DeadLetters.deadPage(store, null, 2, TenantId.of("acme")))
          .as("%s: acme's page with a global dead row missing", on)
          .isInstanceOf(io.ankusa.store.spi.StoreCorruptionException.class)
          .hasMessageContaining(Bytes.hex(goneKey));
    }
  }

  private static void addHooks(QueueDriver d, List<HookEnvelope> into, String tenant, int n) {
    for (int i = 0; i < n; i++) {
      into.add(d.newHook(tenant, START + i * 10L, 1, 4));
    }
  }

  /**
   * Everything of tenant {@code ord} a purge of another tenant must leave alone, as text: its
   * {@code 'D'}, {@code 'F'}, {@code 'X'} rows, its {@code 'x'} rows, their delivery rows and
   * hooks, and its counters.
   */
  private static String tenantState(ReadView view, Counters counters, long ord) {
    StringBuilder sb = new StringBuilder();
    Set<Long> seqs = new TreeSet<>();
    List<byte[]> deliveryKeys = new ArrayList<>();
    for (KeyRange r : List.of(Keys.dueOf(ord), Keys.inflightOf(ord), Keys.deadByTenantOf(ord))) {
      try (Scan scan = view.scan(r.columnFamily(), r.lo(), r.hi(), Direction.FORWARD)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          sb.append(Bytes.fullHex(e.key()))
              .append('=')
              .append(Bytes.fullHex(e.value()))
              .append('\n');
        }
      }
    }
    CounterFold.foldFamily(
        view,
        KeyFamily.DEAD,
        e -> {
          if (DeadValue.decodeAt(e.key(), e.value()).ord() == ord) {
            DeadKey k = DeadKey.decode(e.key());
            sb.append(Bytes.fullHex(e.key()))
                .append('=')
                .append(Bytes.fullHex(e.value()))
                .append('\n');
            seqs.add(k.seq());
            deliveryKeys.add(Keys.delivery(k.seq(), k.sink()));
          }
        });
    for (DueRow r : DueIndex.pendingForTenant(view, ord, 100_000)) {
      seqs.add(r.seq());
      deliveryKeys.add(Keys.delivery(r.seq(), r.key().sink()));
    }
    for (InflightRow r : inflightOf(view, ord)) {
      seqs.add(r.key().seq());
      deliveryKeys.add(Keys.delivery(r.key().seq(), r.key().sink()));
    }
    List<byte[]> rows =
        deliveryKeys.isEmpty() ? List.of() : view.multiGet(Format3.DELIVERIES, deliveryKeys);
    for (int i = 0; i < rows.size(); i++) {
      sb.append("delivery ")
          .append(Bytes.fullHex(deliveryKeys.get(i)))
          .append('=')
          .append(rows.get(i) == null ? "absent" : Bytes.fullHex(rows.get(i)))
          .append('\n');
    }
    for (long seq : seqs) {
      sb.append("hook ")
          .append(seq)
          .append(view.get(Format3.HOOKS, Keys.hook(seq)) == null ? " absent" : " present")
          .append('\n');
    }
    return sb.append("counters ").append(counters.read(view, ord)).toString();
  }

  /** Every recorded scan lies within one of {@code allowed} (same family, inside its bounds). */
  private static void assertScansWithin(RecordingStore rec, String call, KeyRange... allowed) {
    List<RecordingStore.ScanRead> scans = rec.scans();
    assertThat(scans).as("%s scans something", call).isNotEmpty();
    for (RecordingStore.ScanRead s : scans) {
      boolean inside = false;
      for (KeyRange r : allowed) {
        inside |=
            s.family().equals(r.columnFamily())
                && Bytes.compare(s.lo(), r.lo()) >= 0
                && s.hi() != null
                && Bytes.compare(s.hi(), r.hi()) <= 0;
      }
      assertThat(inside)
          .as(
              "%s: scan %s lies within the tenant's ranges %s",
              call,
              s,
              Arrays.stream(allowed)
                  .map(r -> "[" + Bytes.hex(r.lo()) + ", " + Bytes.hex(r.hi()) + ")")
                  .toList())
          .isTrue();
    }
  }

  private static void assertNoHookRead(RecordingStore rec, String call) {
    assertThat(rec.reads())
        .as("%s reads no hook envelope", call)
        .noneMatch(r -> r.family().equals(Format3.HOOKS));
  }

  /**
   * A queue with every kind of row over {@code tenants} tenants (the default among them): due rows
   * of both kinds in past and future seconds, inflight rows, dead rows, archive obligations, and
   * stale markers (rows claimed without a cleanup). Leaves the clock at a time with rows due.
   */
  private static void populateMixedState(QueueDriver d, int tenants) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (int i = 0; i < tenants; i++) {
      String tenant = i == 0 ? null : "tenant-" + i;
      hooks.add(d.newHook(tenant, START + i * 100L, 1 + i % 3, 5 + i));
      hooks.add(d.newHook(tenant, START + 20_000 + i * 100L, 1, 7));
    }
    d.ingest().ingest(hooks);
    d.advance(10_000);
    new Dispatcher(d.queue(), () -> Long.MAX_VALUE, tenants, Long.MAX_VALUE).tick(d.now());
    Transition t = new Transition();
    int i = 0;
    for (InflightRow row : d.inflightRows()) {
      switch (i++ % 3) {
        case 0:
          Deliveries.retry(
              t, row, d.deliveryRow(row.key().seq(), row.key().sink()), d.now() + 3_000, "503");
          break;
        case 1:
          Deliveries.deadLetter(
              t, row, d.deliveryRow(row.key().seq(), row.key().sink()), d.now(), "src", "h", "410");
          break;
        default:
          break;
      }
    }
    d.write(t);
    for (int k = 1; k < 5; k++) {
      claimAllOf(d, k);
    }
    d.advance(5_000);
  }
}
