package io.ankusa.store.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An ordered list of {@link Op}s that a {@link Store#write} applies atomically: a reader sees all of
 * them or none (property {@code batchIsAtomicToConcurrentReaders}), and they apply in order — a put
 * after a delete of the same key wins, a merge after a put adds to it, a deleteRange removes what
 * earlier ops of the batch put (property {@code batchOpsApplyInOrder}).
 *
 * <p>Ownership: a batch keeps references to the arrays it is given. REQUIRES: the caller does not
 * modify them until the write has returned. A null family, key, value, bound or op is refused with
 * {@link StoreArgumentException} when it is added. A batch may be written more than once; it is not
 * thread-safe while being built.
 */
public final class Batch {
  private final List<Op> ops = new ArrayList<>();
  private long approximateBytes;

  /** Appends {@code put(family, key, value)}. */
  public Batch put(String family, byte[] key, byte[] value) {
    return add(new Op.Put(family, key, value));
  }

  /** Appends {@code delete(family, key)}. */
  public Batch delete(String family, byte[] key) {
    return add(new Op.Delete(family, key));
  }

  /** Appends {@code deleteRange(family, lo, hi)}, removing {@code [lo, hi)}. */
  public Batch deleteRange(String family, byte[] lo, byte[] hi) {
    return add(new Op.DeleteRange(family, lo, hi));
  }

  /** Appends {@code merge(family, key, delta)}: adds {@code delta} to a counter. */
  public Batch merge(String family, byte[] key, long delta) {
    return add(new Op.Merge(family, key, delta));
  }

  /** Appends an op built elsewhere. */
  public Batch add(Op op) {
    if (op == null || op.family() == null) {
      throw new StoreArgumentException("null " + (op == null ? "op" : "family in " + op) + " added to a batch");
    }
    long bytes = op.accept(NON_NULL_ARRAYS);
    ops.add(op);
    approximateBytes += bytes;
    return this;
  }

  private static byte[] nonNull(byte[] array, String what, String family) {
    if (array == null) {
      throw new StoreArgumentException("null " + what + " added to a batch for family '" + family + "'");
    }
    return array;
  }

  /** Appends every op of {@code other}, in order. */
  public Batch addAll(Batch other) {
    for (Op op : other.ops) {
      add(op);
    }
    return this;
  }

  /** The ops in the order they apply; an unmodifiable view. */
  public List<Op> ops() {
    return Collections.unmodifiableList(ops);
  }

  public int size() {
    return ops.size();
  }

  public boolean isEmpty() {
    return ops.isEmpty();
  }

  /** Sum of key and value lengths of the ops, plus 8 per merge: a sizing hint for group commit. */
  public long approximateBytes() {
    return approximateBytes;
  }

  /** Applies {@code handler} to every op, in the order they apply; an exception it throws ends the walk. */
  public <E extends Exception> void forEach(OpHandler<E> handler) throws E {
    for (Op op : ops) {
      op.handle(handler);
    }
  }

  /** Refuses a null array in an op; returns the op's size for {@link #approximateBytes}. */
  private static final Op.Visitor<Long> NON_NULL_ARRAYS = new Op.Visitor<>() {
    @Override
    public Long put(Op.Put p) {
      return nonNull(p.key(), "key", p.family()).length + (long) nonNull(p.value(), "value", p.family()).length;
    }

    @Override
    public Long delete(Op.Delete d) {
      return (long) nonNull(d.key(), "key", d.family()).length;
    }

    @Override
    public Long deleteRange(Op.DeleteRange r) {
      return nonNull(r.lo(), "lo", r.family()).length + (long) nonNull(r.hi(), "hi", r.family()).length;
    }

    @Override
    public Long merge(Op.Merge m) {
      return nonNull(m.key(), "key", m.family()).length + (long) Int64Add.WIDTH;
    }
  };

  @Override
  public String toString() {
    return "Batch" + ops;
  }
}
