package io.ankusa.store.conformance.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.ingest.DirectIngest;
import io.ankusa.store.queue.internal.maintenance.InflightRecovery;
import io.ankusa.store.queue.internal.maintenance.Purge;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Example;

/**
 * Where a scan that moves rows resumes: past the tombstones of the rows it moved, and never past a
 * row still to move. A dispatcher's scan of a tenant's due rows starts where its last tick stopped,
 * and passes no row still due — not one put while a tick scans (forced between the tick's scan and
 * the move of its cursor), not one above the durable watermark, not one put behind the cursor of a
 * tenant that drained; each chunk of a purge or of inflight recovery starts at the last row of the
 * chunk before. Checked through a {@link RecordingStore}: the lower bound of each scan, and what
 * the next tick claims.
 *
 * <p>Part of the dispatch layer: {@link DispatchConformance} runs these cases against the backend
 * its subclass names.
 */
public interface ScanResumeCases {
  /** The clock of every tick of these cases. */
  long CURSOR_NOW = 10_000;

  /** The backend under test (its fixture, made once per suite instance). */
  BackendFixture backend();

  /**
   * acme has five due rows; a tick with a row limit of 2 claims the first two, and the next tick's
   * scan of acme starts at the last row the first one claimed (not at acme's first key, behind two
   * tombstones) and claims the next two; no scan of that tick (its clean-up of acme's markers
   * included) starts before that row.
   */
  @Example
  default void aTickResumesItsScanAtTheLastRowItClaimed() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      List<Long> seqs = acme(queue, 1_500, 1_501, 1_502, 1_503, 1_504);
      long acme = acmeOrd(queue);
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20);
      String on = backend().name();
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: the first tick's claims", on)
          .containsExactly(seqs.get(0), seqs.get(1));
      store.clearReads();

      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: the second tick's claims", on)
          .containsExactly(seqs.get(2), seqs.get(3));
      byte[] cursor = Keys.dueOfFrom(acme, 1_501, seqs.get(1), 1, CURSOR_NOW).lo();
      List<byte[]> starts = dueScanStarts(store, acme);
      assertThat(starts)
          .as("%s: where the second tick's scans of acme's due rows start", on)
          .first()
          .isEqualTo(cursor);
      assertThat(starts)
          .as(
              "%s: the second tick's scans of acme's due rows (its marker clean-up too) starting before"
                  + " its cursor",
              on)
          .noneMatch(lo -> Arrays.compareUnsigned(lo, cursor) < 0);
    }
  }

  /**
   * A tick's marker clean-up takes a tenant's first due row from the visit's own scan instead of
   * seeking again. acme has three rows in second 1 and one in second 2; a tick with a row limit of
   * 3 claims the three, deletes second 1's marker and keeps second 2's. Its scans of acme's due
   * rows are two: the claim's, from acme's first key, and the clean-up's check of the second it
   * deleted; no batch deletes second 2's marker (the clean-up knew acme's next row is there), and
   * that marker is the one left.
   */
  @Example
  default void aTickCleansMarkersWithTheHeadItsClaimScanSaw() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      List<Long> seqs = acme(queue, 1_000, 1_001, 1_002, 2_500);
      long acme = acmeOrd(queue);
      byte[] secondTwo = Deliveries.markerKey(new ActiveKey(2, acme));
      boolean[] secondTwoDeleted = {false};
      store.beforeWrite(
          batch ->
              batch.ops().stream()
                  .anyMatch(
                      op ->
                          op instanceof Op.Delete d
                              && d.family().equals(Format3.INDEX)
                              && Arrays.equals(d.key(), secondTwo)),
          () -> secondTwoDeleted[0] = true);
      store.clearReads();

      String on = backend().name() + ": a tick claiming acme's three rows of second 1";
      assertThat(seqs(new Dispatcher(queue, () -> Long.MAX_VALUE, 3, 1 << 20).tick(CURSOR_NOW)))
          .as("%s: its claims", on)
          .containsExactly(seqs.get(0), seqs.get(1), seqs.get(2));
      assertThat(dueScanStarts(store, acme))
          .as("%s: where its scans of acme's due rows start", on)
          .containsExactly(
              Keys.dueOfBetween(acme, 0, 0).lo(), Keys.dueOfBetween(acme, 1_000, 1_999).lo());
      assertThat(secondTwoDeleted[0])
          .as("%s: a batch deleted the marker of second 2, where acme's next row is", on)
          .isFalse();
      assertThat(ActiveIndex.all(store))
          .as("%s: the markers left", on)
          .containsExactly(new ActiveKey(2, acme));
    }
  }

  /**
   * A tick scans the active markers from where the last one found the first marker, not from their
   * head (where the markers earlier cleanups deleted lie), and a marker put behind that point while
   * a tick scans the markers is seen by the next tick: acme's two rows of second 5 are claimed by
   * the first tick, whose markers scan starts at the head; the second tick's starts at second 5,
   * and while it scans (forced: when that scan is closed) acme gets a row received in second 2
   * through the queue; the third tick's scan starts at second 2 and claims it.
   */
  @Example
  default void aTickScansTheMarkersFromTheFirstOneTheLastTickSaw() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      List<Long> seqs = acme(queue, 5_000, 5_001);
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 10, 1 << 20);
      String on = backend().name();
      store.clearReads();
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: the first tick's claims", on)
          .containsExactlyElementsOf(seqs);
      assertThat(markerScanStarts(store))
          .as("%s: where the first tick's scan of the markers starts", on)
          .containsExactly(Keys.activeBetween(0, 0).lo());
      long[] behind = {-1};
      store.afterScan(
          scan ->
              scan.family().equals(Format3.INDEX) && scan.lo()[0] == KeyFamily.ACTIVE.prefix()[0],
          () -> behind[0] = acme(queue, 2_000).get(0));
      store.clearReads();

      assertThat(dispatcher.tick(CURSOR_NOW).claimed())
          .as("%s: the second tick's claims", on)
          .isEmpty();
      assertThat(markerScanStarts(store))
          .as("%s: where the second tick's scan of the markers starts", on)
          .containsExactly(Keys.activeBetween(5, 5).lo());
      assertThat(behind[0])
          .as("%s: a row of second 2 put while the second tick scanned the markers", on)
          .isPositive();
      store.clearReads();
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: the third tick's claims", on)
          .containsExactly(behind[0]);
      assertThat(markerScanStarts(store))
          .as("%s: where the third tick's scan of the markers starts", on)
          .containsExactly(Keys.activeBetween(2, 2).lo());
    }
  }

  /**
   * Two rows of acme put while a tick scans acme's due rows, behind the point the scan reached
   * (forced between the scan and the tick's move of acme's cursor), the later one second: the next
   * tick's scan starts at the earlier of them (not at acme's first key) and claims both.
   */
  @Example
  default void aRowPutWhileATickScansIsClaimedByTheNextTick() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      acme(queue, 1_500, 1_501, 1_502);
      long acme = acmeOrd(queue);
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20);
      long[] behind = {-1, -1};
      byte[] dueOfAcme = Keys.dueOf(acme).lo();
      store.afterScan(
          scan ->
              scan.family().equals(Format3.INDEX)
                  && TransitionCase.startsWith(scan.lo(), dueOfAcme),
          () -> {
            behind[0] = acme(queue, 1_000).get(0);
            behind[1] = acme(queue, 1_200).get(0);
          });

      dispatcher.tick(CURSOR_NOW);

      String on =
          backend().name()
              + ": rows put at 1 000 and then 1 200 while a tick scanned acme's rows from 1 500";
      assertThat(behind[1]).as("%s: the puts ran inside the tick", on).isPositive();
      store.clearReads();
      assertThat(seqs(new Dispatcher(queue, () -> Long.MAX_VALUE, 10, 1 << 20).tick(CURSOR_NOW)))
          .as("%s: the next tick's claims", on)
          .contains(behind[0], behind[1]);
      assertThat(dueScanStarts(store, acme))
          .as("%s: where the next tick's scan of acme starts", on)
          .first()
          .isEqualTo(Keys.dueOfFrom(acme, 1_000, 0, 0, CURSOR_NOW).lo());
    }
  }

  /**
   * Rows above the durable watermark are skipped, not passed: of three rows, the one durable is
   * claimed; once the watermark covers the others, the next tick claims both, including the one
   * whose key sorts before the first claim's.
   */
  @Example
  default void aRowAboveTheWatermarkIsNeverPassed() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      // key order by at: (1 000, seq 2), (1 001, seq 1), (1 002, seq 3)
      List<Long> seqs = acme(queue, 1_001, 1_000, 1_002);
      AtomicLong watermark = new AtomicLong(seqs.get(0));
      Dispatcher dispatcher = new Dispatcher(queue, watermark::get, 10, 1 << 20);
      String on = backend().name();
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: claims with only the first seq durable", on)
          .containsExactly(seqs.get(0));

      watermark.set(seqs.get(2));
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: claims once every seq is durable", on)
          .containsExactlyInAnyOrder(seqs.get(1), seqs.get(2));
    }
  }

  /**
   * A tenant whose tick drains it keeps its cursor: its next tick's scan starts at the last row it
   * claimed, not at its first key; a row put behind that cursor afterwards is still claimed.
   */
  @Example
  default void aDrainedTenantResumesAtItsLastClaimAndStillSeesRowsPutBehind() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      List<Long> seqs = acme(queue, 1_500, 1_501);
      long acme = acmeOrd(queue);
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 10, 1 << 20);
      String on = backend().name();
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: the first tick drains acme", on)
          .containsExactly(seqs.get(0), seqs.get(1));
      long next = acme(queue, 1_502).get(0);
      store.clearReads();

      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: the next tick's claims", on)
          .containsExactly(next);
      assertThat(dueScanStarts(store, acme))
          .as("%s: where the drained tenant's next scan starts", on)
          .first()
          .isEqualTo(Keys.dueOfFrom(acme, 1_501, seqs.get(1), 1, CURSOR_NOW).lo());
      long behind = acme(queue, 1_000).get(0);
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: a row put behind the drained tenant's cursor", on)
          .containsExactly(behind);
    }
  }

  /**
   * Rows put behind acme's cursor in the cursor's own second (where the second's marker does not
   * help) are claimed by the next tick: a claimed row retried to an earlier time through the
   * queue's write, then two rows put by one batch, the later one first (the cursor goes back to the
   * earlier).
   */
  @Example
  default void rowsPutBehindTheCursorInItsSecondAreClaimed() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      DeliveryQueue queue = DeliveryQueue.open(t.store(), QueueConfig.defaults());
      List<Long> seqs = acme(queue, 1_500, 1_501, 1_502);
      String on = backend().name() + ": acme's cursor at 1 501";
      List<InflightRow> first =
          new Dispatcher(queue, () -> Long.MAX_VALUE, 2, 1 << 20).tick(CURSOR_NOW).claimed();
      assertThat(first)
          .extracting(r -> r.key().seq())
          .as("%s: the first tick's claims", on)
          .containsExactly(seqs.get(0), seqs.get(1));
      Transition retry = new Transition();
      InflightRow retried = first.get(0);
      Deliveries.retry(
          retry, retried, new QueueDriver(queue).deliveryRow(retried.key().seq(), 1), 1_200, "503");
      queue.write(retry, Durability.SYNC);
      Dispatcher dispatcher = new Dispatcher(queue, () -> Long.MAX_VALUE, 10, 1 << 20);
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: claims after a row was retried to 1 200", on)
          .containsExactlyInAnyOrder(seqs.get(0), seqs.get(2));

      List<Long> behind = acme(queue, 1_400, 1_100);
      assertThat(seqs(dispatcher.tick(CURSOR_NOW)))
          .as("%s: claims after rows at 1 400 and 1 100 were put in one" + " batch", on)
          .containsExactlyInAnyOrder(behind.get(0), behind.get(1));
    }
  }

  /**
   * A purge of acme's {@value Purge#CHUNK} + 20 due rows takes two chunks and one empty read: the
   * second chunk's scan starts at the first chunk's last row (its tombstone), not at acme's first
   * key.
   */
  @Example
  default void eachPurgeChunkResumesAtThePreviousOne() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long[] ats = new long[Purge.CHUNK + 20];
      for (int i = 0; i < ats.length; i++) {
        ats[i] = 1_000 + i;
      }
      acme(queue, ats);
      long acme = acmeOrd(queue);
      store.clearReads();

      long purged = Purge.purgeTenant(queue, TenantId.of("acme"), EnumSet.of(Purge.Kind.DUE));

      String on = backend().name() + ": a purge of " + ats.length + " due rows";
      assertThat(purged).as("%s: rows purged", on).isEqualTo(ats.length);
      List<byte[]> starts = dueScanStarts(store, acme);
      assertThat(starts).as("%s: the purge's scans of due rows", on).hasSize(3);
      assertThat(DueKey.decode(Arrays.copyOf(starts.get(1), DUE_KEY_BYTES)).at())
          .as("%s: the second chunk starts at the first one's last row", on)
          .isEqualTo(1_000 + Purge.CHUNK - 1);
    }
  }

  /**
   * Inflight recovery of 600 claimed rows takes two chunks and one empty read: the second chunk's
   * scan starts past the head of the inflight rows (at the first chunk's last row), and every row
   * is made due again.
   */
  @Example
  default void eachRecoveryChunkResumesAtThePreviousOne() {
    try (TempDirStore t = TempDirStore.open(backend(), Format3.families())) {
      RecordingStore store = new RecordingStore(t.store());
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      long[] ats = new long[600];
      for (int i = 0; i < ats.length; i++) {
        ats[i] = 1_000 + i;
      }
      acme(queue, ats);
      new Dispatcher(queue, () -> Long.MAX_VALUE, ats.length, Long.MAX_VALUE).tick(CURSOR_NOW);
      store.clearReads();

      InflightRecovery.Result result = InflightRecovery.recoverInflight(queue, CURSOR_NOW);

      String on = backend().name() + ": recovery of " + ats.length + " inflight rows";
      assertThat(result.recovered()).as("%s: rows recovered", on).isEqualTo(ats.length);
      byte[] inflight = KeyFamily.INFLIGHT.prefix();
      List<byte[]> starts =
          store.scans().stream()
              .filter(
                  s ->
                      s.family().equals(Format3.INDEX)
                          && TransitionCase.startsWith(s.lo(), inflight))
              .map(RecordingStore.ScanRead::lo)
              .toList();
      assertThat(starts)
          .as("%s: recovery's scans of inflight rows: two chunks and the empty end", on)
          .hasSize(3);
      assertThat(starts.get(1))
          .as("%s: the second chunk's start", on)
          .isNotEqualTo(starts.get(0))
          .hasSize(INFLIGHT_KEY_BYTES);
    }
  }

  /** Bytes of a due key: {@code 'D' ord:32 at:64 seq:64 sink:16}. */
  int DUE_KEY_BYTES = 23;

  /** Bytes of an inflight key: {@code 'F' ord:32 seq:64 sink:16}. */
  int INFLIGHT_KEY_BYTES = 15;

  /**
   * Hooks of acme for sink 1, 10 bytes, received at {@code receivedAt}, in one batch; returns their
   * seqs.
   */
  private static List<Long> acme(DeliveryQueue queue, long... receivedAt) {
    List<HookEnvelope> hooks = new ArrayList<>();
    for (long at : receivedAt) {
      hooks.add(
          new HookEnvelope(
              0,
              "acme",
              "src",
              "h-" + at + "-" + queue.lastSeq() + "-" + hooks.size(),
              null,
              at,
              List.of(1),
              new byte[10]));
    }
    return new DirectIngest(queue).ingest(hooks);
  }

  private static long acmeOrd(DeliveryQueue queue) {
    return Tenants.ord(queue.store(), TenantId.of("acme")).getAsLong();
  }

  private static List<Long> seqs(Dispatcher.TickReport tick) {
    return tick.claimed().stream().map(r -> r.key().seq()).toList();
  }

  /** The lower bounds of the scans of the active markers recorded by {@code store}, in order. */
  private static List<byte[]> markerScanStarts(RecordingStore store) {
    return store.scans().stream()
        .filter(
            s ->
                s.family().equals(Format3.INDEX)
                    && s.lo().length > 0
                    && s.lo()[0] == KeyFamily.ACTIVE.prefix()[0])
        .map(RecordingStore.ScanRead::lo)
        .toList();
  }

  /**
   * The lower bounds of the scans of tenant {@code ord}'s due rows recorded by {@code store}, in
   * order.
   */
  private static List<byte[]> dueScanStarts(RecordingStore store, long ord) {
    byte[] dueOf =
        Arrays.copyOf(Keys.dueOf(ord).lo(), KeyFamily.DUE.prefix().length + Integer.BYTES);
    return store.scans().stream()
        .filter(s -> s.family().equals(Format3.INDEX) && TransitionCase.startsWith(s.lo(), dueOf))
        .map(RecordingStore.ScanRead::lo)
        .toList();
  }
}
