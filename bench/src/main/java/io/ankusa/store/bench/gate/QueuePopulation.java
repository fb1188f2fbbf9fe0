package io.ankusa.store.bench.gate;

import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightKey;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.TenantAllocator;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Fills a new queue with a {@link GateCell}'s shape, fast: batches of {@value #BATCH} hooks built
 * the way {@code DirectIngest} builds them (ordinals from the queue's {@link TenantAllocator}, rows
 * and counts from the {@link Deliveries} op builders) but written {@code NO_SYNC}, with one {@code
 * syncWal()} at the end — so 10⁶ rows take seconds, not the minutes a SYNC per batch would.
 *
 * <p>Shape: row {@code i} belongs to tenant {@code i mod tenants}; tenants {@code 0..active-1} are
 * active, their rows due now, spread over ten seconds that ended ten seconds ago (ten markers per
 * active tenant). Every other tenant's rows alternate between scheduled a day ahead and dead (each
 * dead row is ingested, claimed and dead-lettered in one batch, so its counts are exact and its one
 * marker lies a day ahead). Counters equal a fold afterwards (checked by {@code
 * QueuePopulationTest}).
 *
 * <p>REQUIRES: the queue is new and nothing else writes to it while this runs.
 */
public final class QueuePopulation {
  /** Hooks per batch. */
  public static final int BATCH = 1_000;

  /** Payload bytes of every bench hook. */
  public static final int PAYLOAD_BYTES = 64;

  /** Seconds the active tenants' due rows are spread over. */
  public static final int DUE_SECONDS = 10;

  private static final long DAY_MS = 86_400_000L;

  private QueuePopulation() {}

  /**
   * What was written.
   *
   * @param activeOrds the ordinals of the active tenants
   * @param activeTenants their ids, in the same order
   * @param dueBaseAt the first second (ms, whole second) of the active tenants' due rows
   * @param aheadBaseAt the first second of the rows scheduled a day ahead
   * @param lastSeq the highest seq written ({@code m:last_seq})
   * @param millis how long population took, sync included
   */
  public record Population(
      List<Long> activeOrds,
      List<TenantId> activeTenants,
      long dueBaseAt,
      long aheadBaseAt,
      long lastSeq,
      long millis) {}

  /** Populates {@code queue} with {@code cell}'s rows, relative to wall-clock time {@code now}. */
  public static Population populate(DeliveryQueue queue, GateCell cell, long now) {
    long started = System.nanoTime();
    long dueBase = (now / 1000 - 2L * DUE_SECONDS) * 1000;
    long aheadBase = (now / 1000) * 1000 + DAY_MS;
    byte[] payload = new byte[PAYLOAD_BYTES];
    TenantAllocator allocator = queue.allocator();
    long seq = queue.lastSeq();
    List<TenantId> tenantIds = new ArrayList<>(cell.tenants());
    for (int t = 0; t < cell.tenants(); t++) {
      tenantIds.add(tenantId(t));
    }
    Long[] activeOrds = new Long[cell.active()];
    for (long from = 0; from < cell.rows(); from += BATCH) {
      long to = Math.min(cell.rows(), from + BATCH);
      Set<TenantId> batchTenants = new LinkedHashSet<>();
      for (long i = from; i < to; i++) {
        batchTenants.add(tenantIds.get((int) (i % cell.tenants())));
      }
      TenantAllocator.Allocation allocation = allocator.resolve(queue.store(), batchTenants);
      Transition t = new Transition();
      for (long i = from; i < to; i++) {
        int tenant = (int) (i % cell.tenants());
        long nth = i / cell.tenants();
        TenantId id = tenantIds.get(tenant);
        long ord = allocation.ord(id);
        seq++;
        if (tenant < cell.active()) {
          activeOrds[tenant] = ord;
          long at = dueBase + (nth % DUE_SECONDS) * 1000 + (i % 1000);
          Deliveries.ingest(t, hook(seq, id, at, payload), ord, false);
        } else if (nth % 2 == 0) {
          long at = aheadBase + (nth % 3600) * 1000 + (i % 1000);
          Deliveries.ingest(t, hook(seq, id, at, payload), ord, false);
        } else {
          deadRow(t, hook(seq, id, aheadBase, payload), ord, now - 3_600_000L + (i % 1000));
        }
      }
      Batch batch = new Batch();
      allocation.appendTo(batch);
      if (to == cell.rows()) {
        batch.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(seq).encode());
      }
      batch.addAll(t.toBatch(queue.counters()));
      queue.store().write(batch, Durability.NO_SYNC);
      queue.dueRowsWritten(t);
      allocation.committed();
    }
    queue.store().syncWal();
    return new Population(
        List.of(activeOrds),
        List.copyOf(tenantIds.subList(0, cell.active())),
        dueBase,
        aheadBase,
        seq,
        (System.nanoTime() - started) / 1_000_000);
  }

  /** The tenant id of tenant number {@code n}. */
  public static TenantId tenantId(int n) {
    return TenantId.of(String.format("tenant-%07d", n));
  }

  /** A bench hook: one sink (0), {@link #PAYLOAD_BYTES} of payload. */
  public static HookEnvelope hook(long seq, TenantId tenant, long receivedAt, byte[] payload) {
    return new HookEnvelope(
        seq, tenant.value(), "bench", "h" + seq, null, receivedAt, List.of(0), payload);
  }

  /**
   * Ingest, claim and dead-letter of {@code hook} in one transition: a dead row with exact counts.
   */
  private static void deadRow(Transition t, HookEnvelope hook, long ord, long deadAt) {
    long size = hook.payload().length;
    Deliveries.ingest(t, hook, ord, false);
    Deliveries.claim(
        t,
        new DueRow(
            new DueKey(ord, hook.receivedAt(), hook.seq(), 0),
            new DueValue(size, DueKind.FIRST_ATTEMPT)));
    InflightRow inflight =
        new InflightRow(new InflightKey(ord, hook.seq(), 0), new InflightValue(size));
    Deliveries.deadLetter(
        t,
        inflight,
        DeliveryRow.first(hook.receivedAt(), size),
        deadAt,
        hook.sourceId(),
        hook.hookId(),
        "bench: gave up");
  }
}
