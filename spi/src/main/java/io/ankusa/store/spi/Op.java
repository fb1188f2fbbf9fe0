package io.ankusa.store.spi;

/**
 * One operation of a {@link Batch}. Ops apply in the order they were added; the records are the
 * whole vocabulary a backend must implement.
 *
 * <p>Ownership: the arrays are the caller's arrays, not copies. REQUIRES: the caller does not modify
 * them until the {@link Store#write} that carries the batch has returned.
 */
public sealed interface Op permits Op.Put, Op.Delete, Op.DeleteRange, Op.Merge {

  /** The family this op writes to. */
  String family();

  /** Sets {@code key} to {@code value}. In a counters family the value must be 8 bytes. */
  record Put(String family, byte[] key, byte[] value) implements Op {
    @Override
    public String toString() {
      return "put(" + family + ", " + Bytes.hex(key) + ", " + Bytes.hex(value) + ")";
    }
  }

  /** Removes {@code key}; a no-op when it is absent. */
  record Delete(String family, byte[] key) implements Op {
    @Override
    public String toString() {
      return "delete(" + family + ", " + Bytes.hex(key) + ")";
    }
  }

  /**
   * Removes every key {@code k} with {@code lo <= k < hi} (half-open, property {@code
   * deleteRangeIsHalfOpen}). REQUIRES: {@code lo <= hi}; {@code lo == hi} removes nothing.
   */
  record DeleteRange(String family, byte[] lo, byte[] hi) implements Op {
    @Override
    public String toString() {
      return "deleteRange(" + family + ", " + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")";
    }
  }

  /**
   * Adds {@code delta} to the counter at {@code key} under {@link Int64Add}'s law. REQUIRES: the
   * family was opened with {@link FamilySpec#counters()}.
   */
  record Merge(String family, byte[] key, long delta) implements Op {
    @Override
    public String toString() {
      return "merge(" + family + ", " + Bytes.hex(key) + ", " + delta + ")";
    }
  }
}
