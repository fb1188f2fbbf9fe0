package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.IngestRequest;
import io.ankusa.store.queue.IngestResult;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.config.WriterConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.ingest.QueueWriter;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.tenant.TenantLimitException;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.jqwik.api.Example;

/**
 * The tenant directory: an ordinal is assigned once and never reused (a fence included), and the
 * tenant cap refuses only new tenants.
 *
 * <p>Part of the layout layer: {@link LayoutConformance} runs these cases against the backend its
 * subclass names.
 */
public interface TenantDirectoryCases extends LayoutCase {
  /**
   * A tenant ordinal is assigned once and never reused: ordinals 1, 2, 3 … in first-sight order
   * (within a batch too), the same ordinal when a tenant comes back, the next one for a new tenant
   * in a later batch (also through a second ingest of the same queue), and after a reopen (new
   * queue, new ingest) new tenants continue from {@code m:next_ord}; {@code 't'} and {@code 'n'}
   * agree and the rows are filed under the ordinal.
   */
  @Example
  default void tenantOrdinalIsAssignedOnceAndNeverReused() {
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), queueConfig());
      d.ingest()
          .ingest(List.of(hook(d, "globex"), hook(d, "acme"), hook(d, "globex"), hook(d, null)));
      Map<String, Long> expected = new LinkedHashMap<>();
      expected.put("globex", 1L);
      expected.put("acme", 2L);
      expected.put(TenantId.DEFAULT_NAME, 3L);
      assertOrdinals(
          t.store(), expected, 4, "after the first batch (first sight: globex, acme, default)");

      d.ingest().ingest(List.of(hook(d, "acme"), hook(d, null)));
      assertOrdinals(t.store(), expected, 4, "after acme and default came back");

      d.ingest().ingest(List.of(hook(d, "initech"), hook(d, "acme")));
      expected.put("initech", 4L);
      assertOrdinals(
          t.store(), expected, 5, "after a new tenant in a later batch of the same queue");
      new DirectIngest(d.queue()).ingest(List.of(hook(d, "umbrella"), hook(d, "globex")));
      expected.put("umbrella", 5L);
      assertOrdinals(
          t.store(), expected, 6, "after a new tenant through a second ingest of the same queue");

      Store reopened = t.reopen();
      QueueDriver again = new QueueDriver(reopened, queueConfig());
      again
          .ingest()
          .ingest(List.of(hook(again, "hooli"), hook(again, "acme"), hook(again, "vandelay")));
      expected.put("hooli", 6L);
      expected.put("vandelay", 7L);
      assertOrdinals(
          reopened, expected, 8, "after a reopen and a new queue: hooli, acme, vandelay");
      assertThat(DueIndex.pendingForTenant(reopened, 2, 100))
          .as("acme's four rows under ordinal 2")
          .hasSize(4)
          .allSatisfy(r -> assertThat(r.ord()).isEqualTo(2));
      assertThat(QueueVerifier.verify(reopened))
          .as("verifier (ordinals dense, unique, 't'/'n' agree)")
          .isEmpty();
    }
  }

  /**
   * {@code tenants.max} refuses a new tenant with tenant_limit and an existing tenant is never
   * refused at the cap: with {@code tenants.max = 3}, a 4th tenant is refused with {@link
   * TenantLimitException} and gets no ordinal ({@code 'n'} absent, {@code next_ord} unchanged,
   * nothing of its batch written, even beside existing tenants); existing tenants still ingest,
   * also after a reopen.
   */
  @Example
  default void tenantsMaxRefusesANewTenantAndNeverAnExistingOne() {
    QueueConfig capped = queueConfig().withTenantsMax(3);
    try (TempDirStore t = openQueueStore()) {
      QueueDriver d = new QueueDriver(t.store(), capped);
      d.ingest().ingest(List.of(hook(d, "a"), hook(d, "b"), hook(d, null)));
      long lastSeq = d.queue().lastSeq();
      assertThatThrownBy(() -> d.ingest().ingest(hook(d, "d")))
          .as("the 4th tenant at tenants.max = 3")
          .isInstanceOf(TenantLimitException.class)
          .hasMessageContaining("'d'");
      assertRefusedLeftNoTrace(t.store(), d, "d", lastSeq, 3);
      assertThatThrownBy(() -> d.ingest().ingest(List.of(hook(d, "a"), hook(d, "e"))))
          .as("a batch with an existing tenant and a new one beyond the cap")
          .isInstanceOf(TenantLimitException.class);
      assertRefusedLeftNoTrace(t.store(), d, "e", lastSeq, 3);

      d.ingest().ingest(List.of(hook(d, "a"), hook(d, "b"), hook(d, null)));
      assertThat(d.queue().counters().aggregate(t.store()).pending())
          .as("existing tenants ingest at the cap")
          .isEqualTo(6);

      Store reopened = t.reopen();
      QueueDriver again = new QueueDriver(reopened, capped);
      again.ingest().ingest(hook(again, "b"));
      assertThatThrownBy(() -> again.ingest().ingest(hook(again, "f")))
          .as("a new tenant after a reopen at the cap")
          .isInstanceOf(TenantLimitException.class);
      assertThat(Tenants.nextOrdinal(reopened)).isEqualTo(4);
      assertThat(QueueVerifier.verify(reopened)).isEmpty();
    }
  }

  private static void assertRefusedLeftNoTrace(
      Store store, QueueDriver d, String tenant, long lastSeq, long pending) {
    assertThat(Tenants.ord(store, TenantId.of(tenant)))
        .as("refused tenant %s has no 'n' row", tenant)
        .isEmpty();
    assertThat(Tenants.nextOrdinal(store)).as("next_ord after refusing %s", tenant).isEqualTo(4);
    assertThat(Tenants.name(store, 4)).as("no 't' row for ordinal 4").isEmpty();
    assertThat(d.queue().lastSeq()).as("no seq assigned by the refused batch").isEqualTo(lastSeq);
    assertThat(d.queue().counters().aggregate(store).pending())
        .as("no row of the refused batch")
        .isEqualTo(pending);
  }

  /**
   * Ordinals are never reused, even across a fence: a new tenant whose group was applied but never
   * acknowledged (its WAL sync failed) has its ordinal retired by the writer's repair — {@code 't'}
   * a tombstone, no {@code 'n'} row, {@code m:next_ord} past it — so the tenant's retry and a later
   * new tenant get new ordinals, and the verifier finds the store clean.
   */
  @Example
  default void aFenceNeverReusesAnOrdinal() throws Exception {
    try (TempDirStore t = openQueueStore()) {
      SyncFailingStore store = new SyncFailingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, queueConfig());
      try (QueueWriter writer = QueueWriter.start(queue, WriterConfig.defaults())) {
        assertThat(ingestThrough(writer, "acme").outcome())
            .as("acme, ordinal 1")
            .isEqualTo(IngestResult.Outcome.CREATED);
        store.failNextSync();
        assertThat(ingestThrough(writer, "newco").outcome())
            .as("newco (ordinal 2), whose group's sync failed")
            .isEqualTo(IngestResult.Outcome.UNAVAILABLE);
        assertThat(retryWhileFenced(writer, "newco").outcome())
            .as("newco's retry after the repair")
            .isEqualTo(IngestResult.Outcome.CREATED);
        assertThat(ingestThrough(writer, "globex").outcome())
            .isEqualTo(IngestResult.Outcome.CREATED);
      }
      assertThat(Tenants.ord(store, TenantId.of("newco")))
          .as("newco's retry gets a new ordinal, not the retired 2")
          .hasValue(3);
      assertThat(store.get(Format3.TENANTS, Keys.tenantByOrd(2)))
          .as("'t' 2 is a tombstone")
          .isNotNull()
          .isEmpty();
      assertThat(Tenants.ord(store, TenantId.of("globex"))).as("a later new tenant").hasValue(4);
      assertThat(Tenants.nextOrdinal(store)).as("m:next_ord").isEqualTo(5);
      assertThat(QueueVerifier.verify(store)).as("verifier after a fence and its repair").isEmpty();
    }
  }

  private static IngestResult ingestThrough(QueueWriter writer, String tenant) throws Exception {
    IngestRequest request =
        new IngestRequest(
            tenant,
            "src",
            tenant + "-" + System.nanoTime(),
            null,
            START,
            List.of(1),
            new byte[] {1, 2, 3});
    return writer.ingest(request).get(THREAD_WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /**
   * Ingests until the answer is not UNAVAILABLE (the writer refuses everything until its repair is
   * done).
   */
  private static IngestResult retryWhileFenced(QueueWriter writer, String tenant) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(THREAD_WAIT_SECONDS);
    while (true) {
      IngestResult r = ingestThrough(writer, tenant);
      if (r.outcome() != IngestResult.Outcome.UNAVAILABLE || System.nanoTime() > deadline) {
        return r;
      }
      Thread.sleep(1);
    }
  }

  /** A store whose next {@code syncWal()}, once armed, fails as a disk that refused an fsync. */
  final class SyncFailingStore extends ForwardingStore {
    private final AtomicBoolean failNext = new AtomicBoolean();

    SyncFailingStore(Store delegate) {
      super(delegate);
    }

    void failNextSync() {
      failNext.set(true);
    }

    @Override
    public void syncWal() {
      if (failNext.compareAndSet(true, false)) {
        throw new StoreWriteFailedException(
            "WAL sync of "
                + delegate.directory()
                + " refused by the conformance suite (aFenceNeverReusesAnOrdinal)");
      }
      delegate.syncWal();
    }
  }

  private static void assertOrdinals(
      ReadView view, Map<String, Long> expected, long next, String when) {
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      assertThat(Tenants.ord(view, TenantId.of(e.getKey())))
          .as("%s: 'n' %s", when, e.getKey())
          .hasValue(e.getValue());
      assertThat(Tenants.name(view, e.getValue()))
          .as("%s: 't' %d", when, e.getValue())
          .contains(TenantId.of(e.getKey()));
    }
    assertThat(Tenants.nextOrdinal(view)).as("%s: next_ord", when).isEqualTo(next);
    assertThat(Tenants.name(view, next)).as("%s: no 't' row at next_ord", when).isEmpty();
  }
}
