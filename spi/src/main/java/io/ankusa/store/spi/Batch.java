package io.ankusa.store.spi;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An ordered list of {@link Op}s that a {@link Store#write} applies atomically: a reader sees all
 * of them or none (property {@code batchIsAtomicToConcurrentReaders}), and they apply in order — a
 * put after a delete of the same key wins, a merge after a put adds to it, a deleteRange removes
 * what earlier ops of the batch put (property {@code batchOpsApplyInOrder}).
 *
 * <p>Ownership: a batch keeps references to the arrays it is given. REQUIRES: the caller does not
 * modify them until the write has returned. A null family, key, value, bound or op is refused with
 * {@link StoreArgumentException} when it is added. A batch may be written more than once; it is not
 * thread-safe while being built.
 *
 * <p>A batch of one op allocates the batch, a two-slot array and the op, and the view of its ops
 * the first time {@link #ops} is called (a backend's checks call it once): single-op writes are the
 * commonest ones and go through here on every call.
 */
public final class Batch {
  /**
   * Room for two ops: as many bytes as room for one (arrays are 8-byte aligned), and a put plus a
   * merge fit.
   */
  private static final int FIRST_CAPACITY = 2;

  private static final Op[] NO_OPS = {};

  private Op[] ops = NO_OPS;
  private int size;
  private long approximateBytes;

  /** The read-only view {@link #ops} returns, made on its first call. */
  private List<Op> view;

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
      throw new StoreArgumentException(
          "null " + (op == null ? "op" : "family in " + op) + " added to a batch");
    }
    long bytes = op.accept(NON_NULL_ARRAYS);
    if (size == ops.length) {
      ops = Arrays.copyOf(ops, size == 0 ? FIRST_CAPACITY : size * 2);
    }
    ops[size++] = op;
    approximateBytes += bytes;
    return this;
  }

  private static byte[] nonNull(byte[] array, String what, String family) {
    if (array == null) {
      throw new StoreArgumentException(
          "null " + what + " added to a batch for family '" + family + "'");
    }
    return array;
  }

  /** Appends every op of {@code other}, in order. */
  public Batch addAll(Batch other) {
    int n = other.size; // other may be this batch: its ops are added once
    for (int i = 0; i < n; i++) {
      add(other.ops[i]);
    }
    return this;
  }

  /** The ops in the order they apply; an unmodifiable view that follows later additions. */
  public List<Op> ops() {
    if (view == null) {
      view = new OpsView();
    }
    return view;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Sum of key and value lengths of the ops, plus 8 per merge: a sizing hint for group commit. */
  public long approximateBytes() {
    return approximateBytes;
  }

  /**
   * Applies {@code handler} to every op, in the order they apply; an exception it throws ends the
   * walk.
   */
  public <E extends Exception> void forEach(OpHandler<E> handler) throws E {
    int n = size;
    for (int i = 0; i < n; i++) {
      ops[i].handle(handler);
    }
  }

  /** {@link #ops}: reads the batch's current array and size on every call, refuses every change. */
  private final class OpsView extends AbstractList<Op> implements RandomAccess {
    @Override
    public Op get(int index) {
      Objects.checkIndex(index, size);
      return ops[index];
    }

    @Override
    public int size() {
      return size;
    }
  }

  /** Refuses a null array in an op; returns the op's size for {@link #approximateBytes}. */
  private static final Op.Visitor<Long> NON_NULL_ARRAYS =
      new Op.Visitor<>() {
        @Override
        public Long put(Op.Put p) {
          return nonNull(p.key(), "key", p.family()).length
              + (long) nonNull(p.value(), "value", p.family()).length;
        }

        @Override
        public Long delete(Op.Delete d) {
          return (long) nonNull(d.key(), "key", d.family()).length;
        }

        @Override
        public Long deleteRange(Op.DeleteRange r) {
          return nonNull(r.lo(), "lo", r.family()).length
              + (long) nonNull(r.hi(), "hi", r.family()).length;
        }

        @Override
        public Long merge(Op.Merge m) {
          return nonNull(m.key(), "key", m.family()).length + (long) Int64Add.WIDTH;
        }
      };

  @Override
  public String toString() {
    return "Batch" + ops();
  }
}
