package io.ankusa.store.bench.gate;

import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.internal.Deliveries;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.Transition;
import io.ankusa.store.queue.internal.dispatch.Dispatcher;
import io.ankusa.store.queue.internal.index.ActiveIndex;
import io.ankusa.store.queue.internal.metrics.QueueGauges;
import io.ankusa.store.queue.internal.record.InflightRow;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Durability;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/** One tick a gate measures: what it runs, and the name of the bench that gates it. */
public sealed interface TickProbe permits TickProbe.GaugeTick, TickProbe.DispatchTick {

  /** The bench's name in results and charts ({@code gauges_bench}, {@code dispatch_tick_bench}). */
  String bench();

  /** What the tick does, in a phrase for the report. */
  String describe();

  /**
   * Runs one tick at wall-clock time {@code now} and returns a number derived from what it read (so
   * the JIT cannot drop the work).
   */
  long tick(DeliveryQueue queue, long now);

  /**
   * This probe as an ingest cell measures it ({@link GateCell#besideWriter()}): ticking beside a
   * writer whose durable watermark is {@code durableSeq}, and leaving the refill to that writer.
   * Empty for a probe the ingest cell does not measure. Each call returns a new probe with its own
   * state.
   */
  Optional<TickProbe> besideWriter(LongSupplier durableSeq);

  /**
   * The gauge tick: {@code new QueueGauges(queue).measure(now)} — six counter reads and the first
   * marker.
   */
  record GaugeTick() implements TickProbe {
    @Override
    public String bench() {
      return "gauges_bench";
    }

    @Override
    public String describe() {
      return "new QueueGauges(queue).measure(now): one multiGet of ord 0's six counters, the first marker"
          + " verified against its tenant's first due row, m:next_ord";
    }

    @Override
    public long tick(DeliveryQueue queue, long now) {
      QueueGauges.Gauge g = new QueueGauges(queue).measure(now);
      return g.aggregate().due() + g.oldestDueAgeMs() + g.tenants();
    }

    @Override
    public boolean readsOnly() {
      return true;
    }

    /** Not measured beside a writer: the ingest cell is the dispatcher's race with its writer. */
    @Override
    public Optional<TickProbe> besideWriter(LongSupplier durableSeq) {
      return Optional.empty();
    }
  }

  /**
   * The rows the counted ticks claimed since the last {@link #resetRows()}: 0 for a probe that
   * claims nothing.
   */
  default long rowsClaimed() {
    return 0;
  }

  /** Starts counting {@link #rowsClaimed()} from 0. */
  default void resetRows() {}

  /**
   * Whether a tick leaves the store as it found it, so a burst of ticks before the rounds ({@link
   * GateSettings#jitWarmupMillis()}) changes nothing the rounds then measure. A tick that writes
   * gets no burst: thousands more claims would pile tombstones ahead of the cursors that the
   * counted rounds would then scan past.
   */
  default boolean readsOnly() {
    return false;
  }

  /**
   * Runs after each tick, outside the timed region: what keeps the queue's shape steady for the
   * next tick. Nothing for a probe that only reads.
   */
  default void settle(DeliveryQueue queue, long now) {}

  /**
   * A dispatch tick as the runtime runs it: {@code Dispatcher.tick(now)} (deficit round-robin, with
   * the queue's cursors), which claims up to {@code rowLimit} rows or {@code byteBudget} bytes.
   * After each tick, outside the timed region ({@link #settle}), every claimed row is delivered and
   * a new due row is put for its tenant at {@code now} (received now, due at once), so the
   * population stays the same size and the claims' tombstones pile up ahead of the tenants' cursors
   * as they do in production until compaction. The refill's seqs start at {@value
   * #REFILL_SEQ_BASE}, apart from the population's and the background load's. The tick claims every
   * row it finds: the watermark is unbounded, as no writer runs.
   *
   * <p>{@link #besideWriter} is the same tick racing a real writer ({@link WriterLoad}): its
   * watermark is the writer's {@code durableSeq}, so it claims only what the writer has synced, and
   * the settle step delivers the claimed rows without refilling — the writer's fresh rows are the
   * refill, and the delivered rows' tombstones land among them as in production. Only its ticks
   * that claimed a row are the cell's value ({@link RaceRound} says why).
   */
  final class DispatchTick implements TickProbe {
    /** A tick of 256 rows or 4 MiB. */
    public static final DispatchTick DEFAULT = new DispatchTick(256, 4L << 20);

    static final long REFILL_SEQ_BASE = 1L << 50;

    private final int rowLimit;
    private final long byteBudget;

    /**
     * The writer's durable watermark beside a writer; null when the tick claims every row and
     * refills.
     */
    private final LongSupplier durableSeq;

    private final Map<Long, TenantId> tenantOf = new HashMap<>();
    private DeliveryQueue queue;
    private Dispatcher dispatcher;
    private List<InflightRow> lastClaimed = List.of();
    private long refillSeq = REFILL_SEQ_BASE;
    private long rows;

    /**
     * @param rowLimit most rows one tick claims
     * @param byteBudget most bytes one tick claims
     */
    public DispatchTick(int rowLimit, long byteBudget) {
      this(rowLimit, byteBudget, null);
    }

    private DispatchTick(int rowLimit, long byteBudget, LongSupplier durableSeq) {
      this.rowLimit = rowLimit;
      this.byteBudget = byteBudget;
      this.durableSeq = durableSeq;
    }

    /**
     * The same tick with the writer's watermark, delivering what it claims and leaving the refill
     * to the writer.
     */
    @Override
    public Optional<TickProbe> besideWriter(LongSupplier durableSeq) {
      return Optional.of(
          new DispatchTick(rowLimit, byteBudget, Objects.requireNonNull(durableSeq)));
    }

    @Override
    public String bench() {
      return "dispatch_tick_bench";
    }

    @Override
    public String describe() {
      return "Dispatcher.tick(now): ActiveIndex.activeTenants(now, "
          + ActiveIndex.DEFAULT_LIMIT
          + "), deficit"
          + " round-robin over the active tenants from their cursors, claims up to "
          + rowLimit
          + " rows (written"
          + " NO_SYNC), marker cleanup; the claimed rows are delivered and refilled outside the timed region (in the"
          + " ingest cell: the watermark is the writer's durableSeq, the claimed rows are delivered, the writer refills,"
          + " and only the ticks that claimed a row are counted)";
    }

    /** One tick; returns the rows it claimed. */
    @Override
    public synchronized long tick(DeliveryQueue queue, long now) {
      if (queue != this.queue) {
        this.queue = queue;
        this.dispatcher =
            new Dispatcher(
                queue,
                durableSeq == null ? () -> Long.MAX_VALUE : durableSeq,
                rowLimit,
                byteBudget);
        tenantOf.clear();
      }
      lastClaimed = dispatcher.tick(now).claimed();
      rows += lastClaimed.size();
      return lastClaimed.size();
    }

    @Override
    public synchronized void settle(DeliveryQueue queue, long now) {
      if (lastClaimed.isEmpty()) {
        return;
      }
      Transition t = new Transition();
      byte[] payload = new byte[QueuePopulation.PAYLOAD_BYTES];
      for (InflightRow row : lastClaimed) {
        Deliveries.delivered(t, row);
        if (durableSeq != null) {
          continue; // beside a writer, the writer refills
        }
        long ord = row.key().ord();
        TenantId tenant =
            tenantOf.computeIfAbsent(ord, o -> Tenants.name(queue.store(), o).orElseThrow());
        long seq = refillSeq++;
        Deliveries.ingest(t, QueuePopulation.hook(seq, tenant, now, payload), ord, false);
      }
      queue.write(t, Durability.NO_SYNC);
      lastClaimed = List.of();
    }

    @Override
    public synchronized long rowsClaimed() {
      return rows;
    }

    @Override
    public synchronized void resetRows() {
      rows = 0;
    }
  }
}
