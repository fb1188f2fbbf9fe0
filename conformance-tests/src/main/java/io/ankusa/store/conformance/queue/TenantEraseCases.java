package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.ExpiryKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantByOrdValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.dispatch.TenantLimits;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.DedupeExpiry;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.maintenance.TenantErase;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;

/**
 * Erasing a tenant ({@link TenantErase}): refused while the tenant has rows, then it removes one
 * tenant and nothing of its neighbours, and a tenant coming back gets a new ordinal and dedupes
 * afresh.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface TenantEraseCases extends LayoutCase {
  /**
   * An erase removes exactly one tenant and nothing of its neighbours: {@code acme} sits between
   * two ordinals ({@code globex} before, {@code acme-eu} after, whose name starts with {@code
   * acme}); all three have pending, retrying, inflight and dead rows, archive obligations, dispatch
   * limits and idempotency keys. The erase is refused while {@code acme} has rows, naming how many;
   * once they are purged, settled and archived it succeeds, and the store differs from before only
   * in {@code acme}'s {@code 'n'} row (gone), {@code 't'} row (a tombstone), counter rows, dispatch
   * limits, {@code 'u'} dedupe keys and {@code 'e'} expiry keys (all gone) — every row, counter,
   * limit and key of the neighbours is unchanged. A second erase finds nothing; {@code acme} coming
   * back through the same queue gets a new ordinal and dedupes afresh within the TTL (its old
   * expiry key cannot sweep the new dedupe key, so a retry is still a duplicate), and the verifier
   * finds nothing.
   */
  @Example
  default void eraseRemovesOneTenantAndNothingOfItsNeighbours() throws Exception {
    long ttl = 60_000;
    AtomicLong clock = new AtomicLong(START);
    WriterConfig writerConfig = WriterConfig.defaults().withDedupeTtlMs(ttl);
    List<String> tenants = List.of("globex", "acme", "acme-eu");
    TenantId acme = TenantId.of("acme");
    try (TempDirStore t = openQueueStore()) {
      Store store = t.store();
      QueueDriver d = new QueueDriver(store, queueConfig().withArchive(true));
      Map<String, List<Long>> seqs = new LinkedHashMap<>();
      try (QueueWriter writer = QueueWriter.start(d.queue(), writerConfig, clock::get)) {
        Map<String, List<CompletableFuture<IngestResult>>> pending = new LinkedHashMap<>();
        for (String tenant :
            tenants) { // submitted at once, so the writer commits them in few groups
          for (int i = 1; i <= 5; i++) {
            long at =
                i == 5 ? START + DAY_MS : START; // the fifth hook is not due at the tick: pending
            pending
                .computeIfAbsent(tenant, k -> new ArrayList<>())
                .add(
                    writer.ingest(
                        new IngestRequest(
                            tenant,
                            "src",
                            tenant + "-h" + i,
                            tenant + "-k" + i,
                            at,
                            List.of(1),
                            new byte[i])));
          }
        }
        for (Map.Entry<String, List<CompletableFuture<IngestResult>>> e : pending.entrySet()) {
          for (CompletableFuture<IngestResult> f : e.getValue()) {
            IngestResult r = f.get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(r.outcome())
                .as("ingest of a hook of %s", e.getKey())
                .isEqualTo(IngestResult.Outcome.CREATED);
            seqs.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(r.seq());
          }
        }
      }
      long acmeOrd = ordOf(store, "acme");
      assertThat(List.of(ordOf(store, "globex"), acmeOrd, ordOf(store, "acme-eu")))
          .as("ordinals")
          .containsExactly(acmeOrd - 1, acmeOrd, acmeOrd + 1);
      for (String tenant : tenants) {
        TenantLimits.set(d.queue(), TenantId.of(tenant), new TenantLimitsValue(2, 10, 0));
      }
      List<InflightRow> claimed =
          new Dispatcher(d.queue(), () -> Long.MAX_VALUE, 100, Long.MAX_VALUE)
              .tick(START + 1_000)
              .claimed();
      assertThat(claimed).as("hooks 1-4 of each tenant claimed").hasSize(12);
      Transition settle = new Transition();
      for (InflightRow row : claimed) {
        String tenant = tenants.get((int) (row.key().ord() - acmeOrd + 1));
        int hook = seqs.get(tenant).indexOf(row.key().seq()) + 1;
        DeliveryRow state = d.deliveryRow(row.key().seq(), row.key().sink());
        switch (hook) {
          case 1 -> {} // stays inflight
          case 2 -> Deliveries.retry(settle, row, state, START + 2 * DAY_MS, "503");
          case 3 ->
              Deliveries.deadLetter(
                  settle, row, state, START + 2_000, "src", tenant + "-h3", "410 gone");
          default -> Deliveries.delivered(settle, row);
        }
      }
      d.write(settle);
      TenantCounts before = d.queue().counters().read(store, acmeOrd);
      assertThat(before)
          .as("acme: one pending, retrying, inflight and dead row each, five obligations")
          .isEqualTo(new TenantCounts(1, 1, 1, 1, 1 + 2 + 3 + 5, 5));
      assertThatThrownBy(() -> TenantErase.erase(d.queue(), acme))
          .as("erasing acme while it has rows")
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("tenant 'acme' (ord " + acmeOrd + ") still has 9 rows")
          .hasMessageContaining("purge");

      assertThat(Purge.purgeTenant(d.queue(), acme, EnumSet.allOf(Purge.Kind.class)))
          .as("acme's due and dead rows")
          .isEqualTo(3);
      Transition delivered = new Transition();
      inflightOf(store, acmeOrd).forEach(row -> Deliveries.delivered(delivered, row));
      d.write(delivered);
      d.archiveWatermark(
          seqs.get("acme").get(4)); // globex's and acme's hooks; acme-eu's obligations stay
      assertThat(d.archiver().drain().settled())
          .as("globex's and acme's obligations archived")
          .isEqualTo(10);
      assertThat(d.queue().counters().read(store, acmeOrd))
          .as("acme's counters before the erase")
          .isEqualTo(TenantCounts.ZERO);
      Map<String, Map<String, String>> kept = everyEntry(store);
      assertThat(TenantErase.erase(d.queue(), acme))
          .as("erasing acme, which has no rows left")
          .isTrue();
      Map<String, Map<String, String>> after = everyEntry(store);

      Map<String, Integer> erasedByKind = new TreeMap<>();
      List<String> wrong = new ArrayList<>();
      for (String family : kept.keySet()) {
        Set<String> keys = new TreeSet<>(kept.get(family).keySet());
        keys.addAll(after.get(family).keySet());
        for (String hex : keys) {
          byte[] key = Bytes.fromHex(hex);
          String kind = acmeKeyKind(family, key, acme, acmeOrd);
          String was = kept.get(family).get(hex);
          String now = after.get(family).get(hex);
          if (kind == null) {
            if (!Objects.equals(was, now)) {
              wrong.add(
                  family + " " + hex + " is not acme's but changed from " + was + " to " + now);
            }
            continue;
          }
          String expected =
              kind.equals("'t'") ? Bytes.fullHex(TenantByOrdValue.ERASED.encode()) : null;
          if (!Objects.equals(now, expected)) {
            wrong.add(
                family
                    + " "
                    + hex
                    + " (acme's "
                    + kind
                    + ") is "
                    + now
                    + " after the erase, expected "
                    + expected);
          }
          if (was != null) {
            erasedByKind.merge(kind, 1, Integer::sum);
          }
        }
      }
      assertThat(wrong)
          .as("what the erase changed: acme's keys only, each gone or a tombstone")
          .isEmpty();
      assertThat(erasedByKind.keySet())
          .as("kinds of acme's keys the store held before the erase")
          .containsExactlyInAnyOrder("'n'", "'t'", "counter", "limits", "'u'", "'e'");
      assertThat(erasedByKind.get("'u'")).as("acme's dedupe keys").isEqualTo(5);
      assertThat(Tenants.ord(store, acme)).isEmpty();
      assertThat(Tenants.name(store, acmeOrd)).isEmpty();
      assertThat(QueueVerifier.verify(store)).as("the verifier after the erase").isEmpty();
      assertThat(TenantErase.erase(d.queue(), acme)).as("a second erase of acme").isFalse();

      clock.addAndGet(ttl / 2);
      try (QueueWriter writer = QueueWriter.start(d.queue(), writerConfig, clock::get)) {
        IngestResult back =
            writer
                .ingest(
                    new IngestRequest(
                        "acme", "src", "acme-again", "acme-k1", START, List.of(1), new byte[1]))
                .get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(back.outcome())
            .as("acme back with its old idempotency key after the erase")
            .isEqualTo(IngestResult.Outcome.CREATED);
        assertThat(Tenants.ord(store, acme))
            .as("acme's new ordinal: never the erased one")
            .hasValue(acmeOrd + 2);
        assertThat(DedupeExpiry.sweep(d.queue(), START + ttl, 1000))
            .as("keys expiring at acme's old expiry: the neighbours' 10, none of acme's")
            .isEqualTo(10);
        assertThat(
                writer
                    .ingest(
                        new IngestRequest(
                            "acme",
                            "src",
                            "acme-again-2",
                            "acme-k1",
                            START,
                            List.of(1),
                            new byte[1]))
                    .get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS))
            .as("a retry of acme-k1 within the TTL of its new dedupe key")
            .isEqualTo(IngestResult.duplicate(back.seq()));
      }
      assertThat(QueueVerifier.verify(store)).as("the verifier after acme came back").isEmpty();
    }
  }

  /**
   * Which of acme's kinds of key {@code key} of {@code family} is, or null when it is not acme's.
   */
  private static String acmeKeyKind(String family, byte[] key, TenantId acme, long acmeOrd) {
    KeyRange dedupe = Keys.dedupeOf(acme);
    KeyRange expiry = Keys.realKeysOf(KeyFamily.EXPIRY);
    KeyRange counters = Keys.countersOf(acmeOrd);
    if (family.equals(Format3.TENANTS) && Arrays.equals(key, Keys.ordByTenant(acme))) {
      return "'n'";
    } else if (family.equals(Format3.TENANTS) && Arrays.equals(key, Keys.tenantByOrd(acmeOrd))) {
      return "'t'";
    } else if (family.equals(Format3.DEFAULT) && Arrays.equals(key, Keys.tenantLimits(acmeOrd))) {
      return "limits";
    } else if (family.equals(counters.columnFamily()) && counters.contains(key)) {
      return "counter";
    } else if (family.equals(dedupe.columnFamily()) && dedupe.contains(key)) {
      return "'u'";
    } else if (family.equals(expiry.columnFamily())
        && expiry.contains(key)
        && ExpiryKey.decode(key).tenant().equals(acme)) {
      return "'e'";
    }
    return null;
  }

  /** Every entry of every format-3 family, as full hex key to full hex value, per family. */
  private static Map<String, Map<String, String>> everyEntry(ReadView view) {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (FamilySpec family : Format3.families()) {
      Map<String, String> entries = new TreeMap<>();
      try (Scan scan = view.scan(family.name(), new byte[0], null, Direction.FORWARD)) {
        while (scan.hasNext()) {
          Entry e = scan.next();
          entries.put(Bytes.fullHex(e.key()), Bytes.fullHex(e.value()));
        }
      }
      out.put(family.name(), entries);
    }
    return out;
  }
}
