package io.ankusa.store.queue.internal.dispatch;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.TenantLimitsValue;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.DueCursors;
import io.ankusa.store.queue.internal.ScanCursor;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.TransitionGuard;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.index.DueIndex;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.StoreArgumentException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One round of dispatch: find the active tenants, claim their due rows, clean their markers.
 *
 * <p>Claim order ({@link DispatchPolicy}, docs/delivery.md): by default deficit round-robin over
 * the tenants with a marker due now. Each tick serves them in ordinal order, starting after the
 * last tenant the previous tick served (or with the tenant whose visit the previous tick's budget
 * cut short, which resumes without a new quantum). A visit adds the tenant's quantum ({@code
 * quantumBytes × weight}) to its deficit and claims its rows in {@code at} order while each row's
 * cost (its size plus {@code rowCostBytes}) fits; what is left carries to its next visit, and is
 * reset when the tenant drains. Tenants with rows left get further rounds in the same tick until
 * its row limit or byte budget is spent; the last tenant with work left takes what remains of the
 * tick. Per-tenant limits ({@link TenantLimits}: weight, most inflight rows, most rows per tick)
 * are read with one point read per tenant a tick visits; a tenant at its inflight limit is skipped
 * until rows complete. Cost: the marker scan, one seek per visit and the rows claimed — O(tenants
 * with work due + rows claimed), never O(tenants).
 *
 * <p>Each tenant's scan resumes at its {@link DueCursors cursor}, past the rows earlier ticks
 * claimed. Only rows with {@code seq <= visibleSeq} are claimed (the writer's durable watermark):
 * nothing is dispatched before it is durable. Claims are written {@code NO_SYNC}: a claim lost in a
 * crash leaves the row due, and {@link io.ankusa.store.queue.internal.maintenance.InflightRecovery}
 * makes claims that survived due again at boot (at-least-once delivery).
 *
 * <p>Thread-safe beside every other transition, another dispatcher included: each tenant's due rows
 * are scanned and claimed while the tick holds the tenant's {@link TransitionGuard} stripe, so no
 * other transition of the tenant moves a row in between, and a second dispatcher scans only after
 * the first's claims are written. The round-robin position and deficits belong to this dispatcher
 * (its ticks run one at a time); the cursors belong to the queue.
 */
public final class Dispatcher {
  private final DeliveryQueue queue;
  private final LongSupplier visibleSeq;
  private final int rowLimit;
  private final long byteBudget;
  private final DispatchPolicy policy;

  /**
   * What happens to the rows a tick takes before they are written; {@link #CLAIM_ALL} claims them.
   */
  private final ClaimSettler settler;

  /** Deficits carried between visits, of tenants that still had rows when last visited. */
  private final Map<Long, Long> deficits = new HashMap<>();

  /** The tenant the last visit served; the next round starts after it. */
  private long lastServed;

  /**
   * The tenant whose visit a tick's budget cut short (it resumes first, with no new quantum), or 0.
   */
  private long unfinished;

  /**
   * A deficit round-robin dispatcher with {@link DispatchPolicy#defaults()}.
   *
   * @param visibleSeq the durable watermark; rows above it are not claimed
   * @param rowLimit most rows claimed per tick
   * @param byteBudget most bytes claimed per tick (the row that crosses it is the tick's last)
   */
  public Dispatcher(DeliveryQueue queue, LongSupplier visibleSeq, int rowLimit, long byteBudget) {
    this(queue, visibleSeq, rowLimit, byteBudget, DispatchPolicy.defaults());
  }

  /** A dispatcher sharing its ticks by {@code policy}. */
  public Dispatcher(
      DeliveryQueue queue,
      LongSupplier visibleSeq,
      int rowLimit,
      long byteBudget,
      DispatchPolicy policy) {
    this(queue, visibleSeq, rowLimit, byteBudget, policy, CLAIM_ALL);
  }

  /**
   * A dispatcher that hands the rows each tick takes to {@code settler} before writing them: the
   * rows it answers are claimed and settled in one step (no inflight row is ever written), the
   * others claimed.
   */
  public Dispatcher(
      DeliveryQueue queue,
      LongSupplier visibleSeq,
      int rowLimit,
      long byteBudget,
      DispatchPolicy policy,
      ClaimSettler settler) {
    this.queue = queue;
    this.visibleSeq = visibleSeq;
    this.rowLimit = rowLimit;
    this.byteBudget = byteBudget;
    this.policy = policy;
    this.settler = java.util.Objects.requireNonNull(settler, "settler");
  }

  /**
   * What a tick does with the rows it takes, before it writes them: how a synchronous delivery
   * handler answers them in the same batch as their claim. Called on the dispatcher's thread, once
   * or more per tick, while the tick holds the stripes of the rows' tenants ({@link
   * TransitionGuard#lockTenant}), so no other transition of those tenants runs meanwhile: keep it
   * short.
   */
  @FunctionalInterface
  public interface ClaimSettler {
    /**
     * Answers some of {@code rows} (due rows, in claim order) through {@code settlement}; every row
     * it does not answer is claimed (inflight). A throw is rethrown by the tick once the rows are
     * written, the answers given before it included.
     */
    void settle(List<DueRow> rows, Settlement settlement, long now);
  }

  /** The settler that answers nothing: every row is claimed, as a dispatcher without one does. */
  public static final ClaimSettler CLAIM_ALL = (rows, settlement, now) -> {};

  /**
   * The answers for one batch of rows a tick took: each row gets at most one, through these
   * methods, and the rows left unanswered are claimed. The batch built from them is the one the
   * tick writes.
   */
  public static final class Settlement {
    private final List<DueRow> rows;
    private final Transition batch;
    private final BitSet answered;

    Settlement(List<DueRow> rows, Transition batch) {
      this.rows = rows;
      this.batch = batch;
      this.answered = new BitSet(rows.size());
    }

    /**
     * Row {@code i} was delivered: it goes with its delivery row ({@link
     * Deliveries#claimDelivered}).
     */
    public void delivered(int i) {
      Deliveries.claimDelivered(batch, take(i));
    }

    /**
     * Row {@code i} is due again at {@code at} ({@link Deliveries#claimRetry}); {@code state} is
     * its delivery row.
     */
    public void retry(int i, DeliveryRow state, long at, String error) {
      Deliveries.claimRetry(batch, take(i), state, at, error);
    }

    /** Row {@code i} is given up at {@code at} ({@link Deliveries#claimDeadLetter}). */
    public void deadLetter(
        int i, DeliveryRow state, long at, String sourceId, String hookId, String error) {
      Deliveries.claimDeadLetter(batch, take(i), state, at, sourceId, hookId, error);
    }

    private DueRow take(int i) {
      if (i < 0 || i >= rows.size()) {
        throw new StoreArgumentException(
            "row " + i + " is not one of the " + rows.size() + " rows of this batch");
      }
      if (answered.get(i)) {
        DueKey k = rows.get(i).key();
        throw new StoreArgumentException(
            "the delivery of hook seq "
                + k.seq()
                + " to sink "
                + k.sink()
                + " was answered already; each delivery takes one answer");
      }
      answered.set(i);
      return rows.get(i);
    }

    /** How many rows were answered. */
    int answered() {
      return answered.cardinality();
    }

    /** Claims every row left unanswered; returns the inflight rows those claims write. */
    List<InflightRow> claimRest() {
      List<InflightRow> claimed = new ArrayList<>(rows.size() - answered.cardinality());
      for (int i = answered.nextClearBit(0); i < rows.size(); i = answered.nextClearBit(i + 1)) {
        claimed.add(Deliveries.claim(batch, rows.get(i)));
      }
      return claimed;
    }
  }

  /** One tick at time {@code now} (epoch ms). */
  public synchronized TickReport tick(long now) {
    Map<Long, List<Long>> bucketsByTenant = new LinkedHashMap<>();
    ScanCursor floor = queue.markerFloor();
    long from = floor.start();
    long firstSeen = ActiveKey.bucketOf(now) + 1;
    try {
      for (ActiveKey marker :
          ActiveIndex.activeTenants(queue.store(), from, now, ActiveIndex.DEFAULT_LIMIT)) {
        bucketsByTenant.computeIfAbsent(marker.ord(), o -> new ArrayList<>()).add(marker.bucket());
        firstSeen = Math.min(firstSeen, marker.bucket());
      }
    } finally {
      // no marker before the first one seen (none up to now's second when none was): later puts
      // lower it
      floor.finish(Math.max(from, firstSeen));
    }
    Tick tick = new Tick(now, bucketsByTenant);
    try {
      if (policy.order() == DispatchPolicy.ClaimOrder.OLDEST_FIRST) {
        oldestFirst(tick);
      } else {
        roundRobin(tick);
      }
    } finally {
      tick.pending.flush();
    }
    List<ActiveIndex.TenantMarkers> visited = new ArrayList<>(tick.visited.size());
    for (Map.Entry<Long, DueKey> v : tick.visited.entrySet()) {
      visited.add(
          ActiveIndex.TenantMarkers.seenByScan(
              v.getKey(), bucketsByTenant.get(v.getKey()), v.getValue()));
    }
    int markersDeleted =
        ActiveIndex.cleanupAll(queue.store(), visited, now, () -> {}, floor::lower);
    return new TickReport(
        bucketsByTenant.size(),
        tick.visited.size(),
        tick.pending.claimed,
        tick.pending.settled,
        markersDeleted);
  }

  /** Marker order, each tenant up to the tick's whole budget: the order before fair dispatch. */
  private void oldestFirst(Tick tick) {
    for (long ord : tick.buckets.keySet()) {
      if (tick.spent()) {
        break;
      }
      visit(tick, ord, Long.MAX_VALUE);
    }
  }

  /**
   * Deficit round-robin from where the last tick stopped; further rounds while the budget lasts.
   */
  private void roundRobin(Tick tick) {
    List<Long> active = new ArrayList<>(tick.buckets.keySet());
    Collections.sort(active);
    int start = firstAfter(active);
    List<Long> remaining = new ArrayList<>(active.size());
    remaining.addAll(active.subList(start, active.size()));
    remaining.addAll(active.subList(0, start));
    long resumed = unfinished;
    unfinished = 0;
    while (!remaining.isEmpty() && !tick.spent()) {
      List<Long> next = new ArrayList<>(remaining.size());
      for (long ord : remaining) {
        if (tick.spent()) {
          break;
        }
        boolean lone = remaining.size() == 1;
        long deficit = deficits.getOrDefault(ord, 0L);
        if (ord != resumed) {
          deficit += policy.quantumBytes() * tick.limits(ord).weight();
        }
        resumed = 0;
        DueIndex.Visit v = visit(tick, ord, lone ? Long.MAX_VALUE : deficit);
        if (v == null) {
          continue; // at its limit: sits out the rest of this tick, its deficit as it was
        }
        lastServed = ord;
        if (v.drained() || lone) {
          deficits.remove(ord);
          continue;
        }
        deficits.put(ord, deficit - tick.costOf(v));
        if (tick.spent()) {
          unfinished = ord;
        } else {
          next.add(ord);
        }
      }
      remaining =
          next; // a tenant's next visit skips the rows this tick took and has not written yet
    }
    deficits.keySet().retainAll(tick.buckets.keySet()); // a tenant without a due marker has drained
  }

  /**
   * Index in {@code sorted} of the first tenant after {@link #lastServed} (or of the unfinished
   * one).
   */
  private int firstAfter(List<Long> sorted) {
    for (int i = 0; i < sorted.size(); i++) {
      if (unfinished != 0 ? sorted.get(i) >= unfinished : sorted.get(i) > lastServed) {
        return i;
      }
    }
    return 0;
  }

  /**
   * One visit of tenant {@code ord}: under its stripe, scans from its cursor and claims what {@code
   * costBudget} and its limits allow, then moves or evicts its cursor. Null when its limits allow
   * no row now (nothing was scanned).
   */
  private DueIndex.Visit visit(Tick tick, long ord, long costBudget) {
    TenantLimitsValue limits = tick.limits(ord);
    long rows = rowLimit - tick.taken;
    if (limits.limitsRowsPerTick()) {
      rows = Math.min(rows, limits.rowsPerTick() - tick.claimedOf(ord));
    }
    // The scan and the rows it takes under the tenant's stripe, held until they are written with
    // the
    // other tenants' of this tick: no other transition of the tenant moves a row in between, so the
    // batch needs no re-check (the re-check would double the reads).
    tick.pending.lock(ord);
    if (limits.limitsInflight() && rows > 0) {
      long inflight =
          queue.counters().read(queue.store(), ord).inflight() + tick.pending.pendingOf(ord);
      rows = Math.min(rows, limits.maxInflight() - inflight);
    }
    if (rows <= 0) {
      return null;
    }
    DueCursors cursors = queue.dueCursors();
    DueIndex.Visit v =
        DueIndex.claimable(
            queue.store(),
            ord,
            scanStart(ord, cursors.start(ord), tick.buckets.get(ord)),
            tick.now,
            (int) rows,
            costBudget,
            policy.rowCostBytes(),
            byteBudget - tick.bytes,
            tick.watermark,
            tick.pending::taken);
    tick.visited.put(
        ord, v.head()); // the last visit's head is the tenant's first due row once the tick's rows
    // are in
    for (DueRow row : v.rows()) {
      tick.pending.add(ord, row);
      tick.bytes += row.value().size();
    }
    tick.taken += v.rows().size();
    if (!v.rows().isEmpty()) {
      tick.claimedByTenant.merge(ord, v.rows().size(), Integer::sum);
    }
    if (v.drained() && !v.skippedAboveWatermark()) {
      cursors.evict(ord, v.resumeAt());
    } else {
      cursors.advance(ord, v.resumeAt());
    }
    return v;
  }

  /**
   * The rows a tick took and has not written yet, from several tenants, written as one batch — each
   * answered through the {@link ClaimSettler} or claimed — while the tick holds every one of their
   * stripes (one write per tick instead of one per tenant; on an engine whose commit costs more
   * than its rows, such as LMDB's, that is most of a tick's time). A later visit of a tenant in the
   * same tick skips its rows taken and not yet written. Stripes are taken in visiting order, which
   * is not the guard's ascending order, so only the first is waited for: a later one is tried, and
   * when it is busy the rows so far are written and their stripes let go before waiting — a tick
   * never waits while it holds a stripe.
   */
  private final class PendingRows {
    private final long now;
    private final List<TransitionGuard.Held> held = new ArrayList<>();
    private final List<DueRow> rows = new ArrayList<>();
    private final Set<DueKey> keys = new HashSet<>();
    private final Map<Long, Integer> perTenant = new LinkedHashMap<>();

    /** The rows the tick's writes claimed (inflight), in claim order. */
    final List<InflightRow> claimed = new ArrayList<>();

    /** The rows the settler answered in the same batch as their claim. */
    int settled;

    PendingRows(long now) {
      this.now = now;
    }

    /**
     * Takes tenant {@code ord}'s stripe for the rest of the tick (writing the rows so far if it
     * must wait).
     */
    void lock(long ord) {
      if (!held.isEmpty()) {
        TransitionGuard.Held h = queue.guard().tryLockTenant(ord);
        if (h != null) {
          held.add(h);
          return;
        }
        flush();
      }
      held.add(queue.guard().lockTenant(ord));
    }

    /** Adds {@code row} of tenant {@code ord} to the rows to write. */
    void add(long ord, DueRow row) {
      rows.add(row);
      keys.add(row.key());
      perTenant.merge(ord, 1, Integer::sum);
    }

    /** Whether the tick took the row at {@code key} and has not written it yet. */
    boolean taken(DueKey key) {
      return keys.contains(key);
    }

    /** Rows of tenant {@code ord} taken and not written yet. */
    int pendingOf(long ord) {
      return perTenant.getOrDefault(ord, 0);
    }

    /**
     * Hands the rows so far to the settler, claims those it left, writes them as one batch and lets
     * every stripe go. A write that fails sends the cursors of its tenants back to their first key
     * (they had moved past rows that are still due) before it throws; a settler that threw is
     * rethrown after the write.
     */
    void flush() {
      try {
        if (rows.isEmpty()) {
          return;
        }
        Transition batch = new Transition().readUnderStripes(true);
        Settlement settlement = new Settlement(List.copyOf(rows), batch);
        RuntimeException settlerFailure = null;
        try {
          settler.settle(settlement.rows, settlement, now);
        } catch (RuntimeException e) {
          settlerFailure = e;
        }
        claimed.addAll(settlement.claimRest());
        try {
          queue.write(batch, Durability.NO_SYNC);
        } catch (RuntimeException e) {
          perTenant.keySet().forEach(ord -> queue.dueCursors().lower(ord, 0));
          if (settlerFailure != null) {
            e.addSuppressed(settlerFailure);
          }
          throw e;
        }
        settled += settlement.answered();
        if (settlerFailure != null) {
          throw settlerFailure;
        }
      } finally {
        rows.clear();
        keys.clear();
        perTenant.clear();
        for (int i = held.size() - 1; i >= 0; i--) {
          held.get(i).close();
        }
        held.clear();
      }
    }
  }

  /**
   * Where the tenant's scan starts: its cursor, unless the tick saw a marker of the tenant in an
   * earlier second than the cursor's (a row was put there by a path that did not lower the cursor):
   * then that second's start.
   */
  private static DueKey scanStart(long ord, DueKey cursor, List<Long> buckets) {
    if (cursor == null) {
      return null;
    }
    long firstBucket = Collections.min(buckets);
    if (ActiveKey.bucketOf(cursor.at()) > firstBucket) {
      return new DueKey(ord, firstBucket * ActiveKey.BUCKET_MILLIS, 0, 0);
    }
    return cursor;
  }

  /** One tick's reads and running totals. */
  private final class Tick {
    final long now;
    final long watermark;
    final Map<Long, List<Long>> buckets;
    final Map<Long, TenantLimitsValue> limits;
    final Map<Long, Integer> claimedByTenant = new HashMap<>();

    /** The tenants whose due rows the tick scanned, each with the head its last scan saw. */
    final Map<Long, DueKey> visited = new LinkedHashMap<>();

    final PendingRows pending;

    /** Rows taken so far: claimed, answered, or waiting to be written. */
    int taken;

    long bytes;

    Tick(long now, Map<Long, List<Long>> buckets) {
      this.now = now;
      this.pending = new PendingRows(now);
      this.watermark = visibleSeq.getAsLong();
      this.buckets = buckets;
      this.limits = new HashMap<>();
    }

    boolean spent() {
      return taken >= rowLimit || bytes >= byteBudget;
    }

    /** The tenant's limits, read at its first visit of the tick (one point read). */
    TenantLimitsValue limits(long ord) {
      return limits.computeIfAbsent(ord, o -> TenantLimits.of(queue.store(), o));
    }

    int claimedOf(long ord) {
      return claimedByTenant.getOrDefault(ord, 0);
    }

    long costOf(DueIndex.Visit v) {
      long cost = 0;
      for (DueRow row : v.rows()) {
        cost += row.value().size() + policy.rowCostBytes();
      }
      return cost;
    }
  }

  /**
   * What a tick did.
   *
   * @param activeTenants distinct tenants with markers due now (up to the marker limit)
   * @param tenantsVisited tenants whose due rows were scanned
   * @param claimed the rows claimed, now inflight, in claim order
   * @param settledAtClaim the rows the dispatcher's {@link ClaimSettler} answered in the batch that
   *     claimed them (never inflight)
   * @param markersDeleted stale markers removed by cleanup
   */
  public record TickReport(
      int activeTenants,
      int tenantsVisited,
      List<InflightRow> claimed,
      int settledAtClaim,
      int markersDeleted) {
    /** A report of a tick that found nothing. */
    public static final TickReport NONE = new TickReport(0, 0, List.of(), 0, 0);

    /** Rows the tick took: claimed, or answered with their claim. */
    public int rowsClaimed() {
      return claimed.size() + settledAtClaim;
    }
  }
}
