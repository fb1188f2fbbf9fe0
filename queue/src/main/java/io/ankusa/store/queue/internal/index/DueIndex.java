package io.ankusa.store.queue.internal.index;

import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.DueKey;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.internal.record.DueRow;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads of one tenant's due rows, {@code 'D' ord at seq sink}: one range per tenant, ordered by
 * {@code at}. Never a global scan, so a tenant that floods the queue is nobody else's head of line.
 */
public final class DueIndex {
  private DueIndex() {}

  /**
   * The due rows of tenant {@code ord} with {@code floorAt <= at <= now}, oldest first, up to
   * {@code limit} rows or until their sizes reach {@code byteBudget} (the row that crosses the
   * budget is included, so a row larger than the budget is still claimable). Rows with {@code seq >
   * visibleSeq} — applied but not yet durable — are skipped: nothing is dispatched before it is
   * durable (docs/architecture.md, 'Durability and the watermark').
   */
  public static List<DueRow> dueForTenant(
      ReadView view,
      long ord,
      long now,
      long floorAt,
      int limit,
      long byteBudget,
      long visibleSeq) {
    List<DueRow> rows = new ArrayList<>(Math.min(limit, 256));
    KeyRange range = Keys.dueOfBetween(ord, floorAt, now);
    if (limit <= 0 || byteBudget <= 0) {
      return rows;
    }
    long[] bytes = {0};
    // A visit, not a scan: each entry is decoded at once, so the backend need not copy it.
    view.visit(
        range.columnFamily(),
        range.lo(),
        range.hi(),
        Direction.FORWARD,
        (k, v) -> {
          DueKey key = DueKey.decode(k);
          if (key.seq() <= visibleSeq) {
            DueValue value = DueValue.decodeAt(k, v);
            rows.add(new DueRow(key, value));
            bytes[0] += value.size();
          }
          return rows.size() < limit && bytes[0] < byteBudget;
        });
    return rows;
  }

  /**
   * What one visit of a dispatcher to a tenant found.
   *
   * @param rows the rows to claim, in key order
   * @param drained true when the scan reached the end of what is due now: nothing claimable is left
   *     behind the rows returned (rows above the durable watermark may be)
   * @param resumeAt where the tenant's next scan starts (inclusive): the last row returned, or the
   *     first row skipped for being above the watermark if that comes first (it is never passed),
   *     or where this scan started when it returned nothing; null when it started at the tenant's
   *     first key and returned and skipped nothing
   * @param skippedAboveWatermark whether a row above the watermark was skipped
   * @param head the first row from the scan's start on that the visit did not return, up to the end
   *     of {@code now}'s second: a row its budget left, one above the watermark, or one due later
   *     in the same second; null when there is none. What the tenant's first due row is once the
   *     visit's claims are written, as of the scan (the marker cleanup's first step)
   */
  public record Visit(
      List<DueRow> rows,
      boolean drained,
      DueKey resumeAt,
      boolean skippedAboveWatermark,
      DueKey head) {}

  /**
   * The due rows of tenant {@code ord} with {@code at <= now}, from {@code from} (inclusive; null:
   * the tenant's first key) in key order, that one dispatcher visit may claim: at most {@code
   * rowLimit} rows; each row costs its size plus {@code rowCost}, and rows are taken while their
   * cost fits in {@code costBudget} (the tenant's deficit); the row whose size crosses {@code
   * byteBudget} (what is left of the tick's budget) is the last one. Rows with {@code seq >
   * visibleSeq} are skipped, as in {@link #dueForTenant}. Reads one row past the last one returned
   * (to the end of {@code now}'s second), to know whether the tenant drained and which row is its
   * first one left ({@link Visit#head()}).
   */
  public static Visit claimable(
      ReadView view,
      long ord,
      DueKey from,
      long now,
      int rowLimit,
      long costBudget,
      long rowCost,
      long byteBudget,
      long visibleSeq) {
    return claimable(
        view, ord, from, now, rowLimit, costBudget, rowCost, byteBudget, visibleSeq, key -> false);
  }

  /**
   * {@link #claimable(ReadView, long, DueKey, long, int, long, long, long, long)} passing over the
   * rows {@code taken} accepts as if they were gone: the rows a dispatcher's tick took from the
   * tenant in an earlier round and has not written yet.
   */
  public static Visit claimable(
      ReadView view,
      long ord,
      DueKey from,
      long now,
      int rowLimit,
      long costBudget,
      long rowCost,
      long byteBudget,
      long visibleSeq,
      java.util.function.Predicate<DueKey> taken) {
    long secondStart = ActiveKey.bucketOf(now) * ActiveKey.BUCKET_MILLIS;
    long secondEnd =
        secondStart > Long.MAX_VALUE - (ActiveKey.BUCKET_MILLIS - 1)
            ? Long.MAX_VALUE
            : secondStart + (ActiveKey.BUCKET_MILLIS - 1);
    KeyRange range =
        from == null
            ? Keys.dueOfBetween(ord, 0, secondEnd)
            : Keys.dueOfFrom(ord, from.at(), from.seq(), from.sink(), secondEnd);
    List<DueRow> rows = new ArrayList<>(Math.min(rowLimit, 64));
    DueKey firstSkipped = null;
    DueKey head = null;
    long cost = 0;
    long bytes = 0;
    boolean drained = true;
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        DueKey key = DueKey.decode(e.key());
        if (taken.test(key)) {
          continue;
        }
        if (key.at() > now) {
          head = head == null ? key : head;
          break; // due later in this second: not claimable yet, and nothing after it is
        }
        if (key.seq() > visibleSeq) {
          if (firstSkipped == null) {
            firstSkipped = key;
            head = head == null ? key : head;
          }
          continue;
        }
        DueValue value = DueValue.decodeAt(e.key(), e.value());
        long rowCostHere = value.size() + rowCost;
        if (rows.size() >= rowLimit || bytes >= byteBudget || rowCostHere > costBudget - cost) {
          drained = false;
          head = head == null ? key : head;
          break;
        }
        rows.add(new DueRow(key, value));
        cost += rowCostHere;
        bytes += value.size();
      }
    }
    DueKey resumeAt =
        firstSkipped != null
            ? firstSkipped
            : rows.isEmpty() ? from : rows.get(rows.size() - 1).key();
    return new Visit(rows, drained, resumeAt, firstSkipped != null, head);
  }

  /** The first due row of tenant {@code ord} (any {@code at}), or null when it has none. */
  public static DueRow firstDue(ReadView view, long ord) {
    return firstIn(view, Keys.dueOf(ord));
  }

  /** The first due row of tenant {@code ord} at or after {@code from} (any {@code at}), or null. */
  public static DueRow firstDueFrom(ReadView view, long ord, DueKey from) {
    return firstIn(view, Keys.dueOfFrom(ord, from.at(), from.seq(), from.sink(), Long.MAX_VALUE));
  }

  /**
   * The first due row in {@code range}: a visit of one entry, decoded at once, so the backend need
   * not copy it (the gauge tick and every cleanup read a tenant's first due row).
   */
  private static DueRow firstIn(ReadView view, KeyRange range) {
    DueRow[] first = new DueRow[1];
    view.visit(
        range.columnFamily(),
        range.lo(),
        range.hi(),
        Direction.FORWARD,
        (key, value) -> {
          first[0] = new DueRow(DueKey.decode(key), DueValue.decodeAt(key, value));
          return false;
        });
    return first[0];
  }

  /**
   * Every due row of tenant {@code ord}, oldest first, up to {@code limit}: {@code at} up to and
   * including {@link Long#MAX_VALUE}, the last millisecond of the domain.
   */
  public static List<DueRow> pendingForTenant(ReadView view, long ord, int limit) {
    return dueForTenant(view, ord, Long.MAX_VALUE, 0, limit, Long.MAX_VALUE, Long.MAX_VALUE);
  }

  /**
   * {@link #pendingForTenant} from {@code from} included (null: the tenant's first key): how a
   * chunked reader resumes at the last row of its previous chunk instead of walking what it already
   * moved.
   */
  public static List<DueRow> pendingForTenantFrom(ReadView view, long ord, DueKey from, int limit) {
    if (from == null) {
      return pendingForTenant(view, ord, limit);
    }
    KeyRange range = Keys.dueOfFrom(ord, from.at(), from.seq(), from.sink(), Long.MAX_VALUE);
    List<DueRow> rows = new ArrayList<>(Math.min(limit, 256));
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      while (rows.size() < limit && scan.hasNext()) {
        Entry e = scan.next();
        rows.add(new DueRow(DueKey.decode(e.key()), DueValue.decodeAt(e.key(), e.value())));
      }
    }
    return rows;
  }
}
