package io.ankusa.store.layout;

/**
 * The kind byte of a due row ({@link DueValue}): which counter the row is counted in, so {@code
 * pending} and {@code scheduled} stay exact without a clock.
 */
public enum DueKind {
  /**
   * 0: a first attempt (ingest, revive, inflight recovery, expansion); counted in {@link
   * CounterField#PENDING}.
   */
  FIRST_ATTEMPT(0, CounterField.PENDING),
  /** 1: a retry waiting out its backoff; counted in {@link CounterField#SCHEDULED}. */
  RETRY(1, CounterField.SCHEDULED);

  private final int code;
  private final CounterField counter;

  DueKind(int code, CounterField counter) {
    this.code = code;
    this.counter = counter;
  }

  /** The byte stored in the value: 0 or 1. */
  public int code() {
    return code;
  }

  /** The counter a due row of this kind is counted in. */
  public CounterField counter() {
    return counter;
  }

  /** The kind with byte {@code code}, or null when none has it. */
  public static DueKind ofCode(int code) {
    return code == 0 ? FIRST_ATTEMPT : code == 1 ? RETRY : null;
  }
}
