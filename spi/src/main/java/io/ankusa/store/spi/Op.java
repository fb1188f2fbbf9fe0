package io.ankusa.store.spi;

/**
 * One operation of a {@link Batch}. Ops apply in the order they were added; the records are the
 * whole vocabulary a backend must implement.
 *
 * <p>Ownership: the arrays are the caller's arrays, not copies. REQUIRES: the caller does not
 * modify them until the {@link Store#write} that carries the batch has returned.
 */
public sealed interface Op permits Op.Put, Op.Delete, Op.DeleteRange, Op.Merge {

  /** The family this op writes to. */
  String family();

  /**
   * The one key this op writes: a put's, a delete's or a merge's {@code key}; null for a {@link
   * DeleteRange}, which writes a range. The array is the op's own, not a copy.
   */
  byte[] pointKey();

  /**
   * Calls the one method of {@code visitor} that matches this op's kind and returns its result.
   * Every kind has its own abstract method, so a new kind of op does not compile until every
   * visitor (each backend's write path among them) says what it does with it: nothing is silently
   * dropped.
   */
  <R> R accept(Visitor<R> visitor);

  /** Like {@link #accept}, for a handler that returns nothing and may throw a checked exception. */
  <E extends Exception> void handle(OpHandler<E> handler) throws E;

  /**
   * A function over the four op kinds, one method each (the exhaustive alternative to an {@code
   * instanceof} chain). Use {@link OpHandler} when nothing is returned.
   */
  interface Visitor<R> {
    R put(Put put);

    R delete(Delete delete);

    R deleteRange(DeleteRange deleteRange);

    R merge(Merge merge);
  }

  /** Sets {@code key} to {@code value}. In a counters family the value must be 8 bytes. */
  record Put(String family, byte[] key, byte[] value) implements Op {
    @Override
    public byte[] pointKey() {
      return key;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.put(this);
    }

    @Override
    public <E extends Exception> void handle(OpHandler<E> handler) throws E {
      handler.put(this);
    }

    @Override
    public String toString() {
      return "put(" + family + ", " + Bytes.hex(key) + ", " + Bytes.hex(value) + ")";
    }
  }

  /** Removes {@code key}; a no-op when it is absent. */
  record Delete(String family, byte[] key) implements Op {
    @Override
    public byte[] pointKey() {
      return key;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.delete(this);
    }

    @Override
    public <E extends Exception> void handle(OpHandler<E> handler) throws E {
      handler.delete(this);
    }

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
    /** Null: a range delete writes every key of {@code [lo, hi)}, not one. */
    @Override
    public byte[] pointKey() {
      return null;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.deleteRange(this);
    }

    @Override
    public <E extends Exception> void handle(OpHandler<E> handler) throws E {
      handler.deleteRange(this);
    }

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
    public byte[] pointKey() {
      return key;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.merge(this);
    }

    @Override
    public <E extends Exception> void handle(OpHandler<E> handler) throws E {
      handler.merge(this);
    }

    @Override
    public String toString() {
      return "merge(" + family + ", " + Bytes.hex(key) + ", " + delta + ")";
    }
  }
}
