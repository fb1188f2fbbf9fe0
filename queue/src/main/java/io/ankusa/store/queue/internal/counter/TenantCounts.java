package io.ankusa.store.queue.internal.counter;

import io.ankusa.store.layout.CounterField;

/**
 * The six counters of one tenant, or of the node aggregate (ord 0). See {@link CounterField} for
 * what adds to and subtracts from each.
 */
public record TenantCounts(
    long pending, long scheduled, long inflight, long dead, long bytes, long archivePending) {

  public static final TenantCounts ZERO = new TenantCounts(0, 0, 0, 0, 0, 0);

  /** Built from values indexed by {@code field.code() - 1}. */
  static TenantCounts of(long[] byField) {
    return new TenantCounts(byField[0], byField[1], byField[2], byField[3], byField[4], byField[5]);
  }

  public long get(CounterField field) {
    switch (field) {
      case PENDING:
        return pending;
      case SCHEDULED:
        return scheduled;
      case INFLIGHT:
        return inflight;
      case DEAD:
        return dead;
      case BYTES:
        return bytes;
      case ARCHIVE_PENDING:
        return archivePending;
      default:
        throw new IllegalArgumentException(String.valueOf(field));
    }
  }

  /** Rows due now or later: pending plus scheduled. */
  public long due() {
    return pending + scheduled;
  }
}
