package io.ankusa.store.template;

/**
 * The steps of docs/writing-a-backend.md, in order: each unwritten method of the skeleton throws
 * {@link #notYet} naming the step that fills it, so the first failing call of the suite says what to
 * write next.
 */
enum Step {
  PROVIDER(1, "the provider: name, argument checks, the family catalog, the directory claim"),
  READS(2, "the reads: get, multiGet, scan, counter"),
  WRITES(3, "the writes: write (Batch.forEach with an OpHandler), syncWal"),
  SNAPSHOTS(4, "snapshots"),
  LIFECYCLE(5, "close, reportWriteFailure and the descriptive getters"),
  CAPABILITIES(6, "the capabilities you claim");

  final int number;
  final String what;

  Step(int number, String what) {
    this.number = number;
    this.what = what;
  }

  /** The exception an unwritten {@code method} throws. */
  UnsupportedOperationException notYet(String method) {
    return new UnsupportedOperationException(method + " is not written yet: docs/writing-a-backend.md, step "
        + number + " (" + what + ") fills it");
  }
}
