package io.ankusa.store.layout;

/**
 * The six counters every tenant (and the node aggregate, ord 0) has: one {@code counters} key
 * {@code ord:32 field:8} each ({@link Keys#counter(long, CounterField)}), holding an {@link
 * io.ankusa.store.spi.Int64Add} value changed only by blind merges, never read-modify-write. Every
 * delta is added to the tenant and to ord 0 in the same batch; after any sequence of transitions
 * each counter equals a fold of the rows it counts (conformance property {@code
 * countersEqualAFold}).
 */
public enum CounterField {
  /**
   * Due rows of kind 0 (first attempt). + ingest, revive, recover inflight, expand; − claim of a
   * kind 0 row, purge.
   */
  PENDING(1),
  /**
   * Due rows of kind 1 (retry), waiting out or just past their backoff. + retry; − claim of a kind
   * 1 row, purge.
   */
  SCHEDULED(2),
  /** Inflight rows. + claim; − delivered, retry, dead-letter, orphan drop, recovery. */
  INFLIGHT(3),
  /** Dead rows. + dead-letter; − revive, purge. */
  DEAD(4),
  /**
   * Σ size of every delivery row that exists (due, inflight, dead); a hook with n sinks counts n
   * times. + ingest, expand; − delivered, orphan drop, purge.
   */
  BYTES(5),
  /**
   * Archive obligations ({@code 'a'} rows). + ingest with the archive on; − archive settle or drop.
   */
  ARCHIVE_PENDING(6);

  private static final CounterField[] BY_CODE = new CounterField[7];

  static {
    for (CounterField f : values()) {
      BY_CODE[f.code] = f;
    }
  }

  /** The smallest field code. */
  public static final int FIRST_CODE = 1;

  /** The largest field code. */
  public static final int LAST_CODE = 6;

  private final int code;

  CounterField(int code) {
    this.code = code;
  }

  /** The field byte in the counter key, 1..6. */
  public int code() {
    return code;
  }

  /** The field with byte {@code code}, or null when no field has it. */
  public static CounterField ofCode(int code) {
    return code >= FIRST_CODE && code <= LAST_CODE ? BY_CODE[code] : null;
  }
}
