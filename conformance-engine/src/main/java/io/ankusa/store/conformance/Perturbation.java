package io.ankusa.store.conformance;

/**
 * What the model property does to the store between two batches, drawn with the batches (so the
 * property's seed replays it and jqwik shrinks it away when it does not matter) and written into
 * the op log: nothing, a flush of the memtable ({@link BackendFixture#flush}), a compaction ({@link
 * BackendFixture#compact}), or a reopen ({@code syncWal}, close, open again through the fixture;
 * the reference model keeps its state). A backend without memtables or compactions makes the first
 * two no-ops; the reopen runs on every backend.
 */
public enum Perturbation {
  NONE,
  FLUSH,
  COMPACT,
  REOPEN;

  /** The word the op log writes ({@code perturb=flush}). */
  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The perturbation an op log's word names. */
  public static Perturbation ofWord(String word) {
    for (Perturbation p : values()) {
      if (p.word().equals(word)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "perturb= is none, flush, compact or reopen, got '" + word + "'");
  }
}
