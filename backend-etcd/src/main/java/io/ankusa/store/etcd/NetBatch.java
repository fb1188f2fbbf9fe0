package io.ankusa.store.etcd;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.OpHandler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A batch as one etcd transaction: the net effect of its ops, key by key, computed in the batch's
 * order. An etcd transaction refuses two writes of one key and a put inside a range it deletes
 * ({@code duplicate key given in txn request}), and it has no server-side add, so the batch cannot
 * be sent op by op:
 *
 * <ul>
 *   <li>each key ends with one effect: {@link Put} (a put, or a merge onto a value this batch
 *       itself put, deleted or range-deleted, whose base is therefore known), {@link Delete}, or
 *       {@link MergeOnto} (merges onto whatever the cluster holds: the store reads the counter,
 *       adds, and puts the sum under a compare on the counter's mod revision);
 *   <li>a deleteRange removes the effects before it inside its range, and is sent as a delete of
 *       the range minus the keys the batch puts afterwards (the range cut around each of them).
 * </ul>
 *
 * Applying the resulting deletes and puts in any order gives what applying the ops in the batch's
 * order gives: no two of them touch the same key (properties {@code batchOpsApplyInOrder}, {@code
 * modelBasedRandomBatches}).
 */
final class NetBatch {
  /** The last effect of the batch on one key. */
  sealed interface Effect permits Put, Delete, MergeOnto {}

  /** The key ends holding {@code value}. */
  record Put(byte[] value) implements Effect {}

  /** The key ends deleted. */
  record Delete() implements Effect {}

  /** The key ends holding the cluster's current value plus {@code delta}. */
  record MergeOnto(long delta) implements Effect {}

  /** A range {@code [lo, hi)} of one family to delete, holding no key the batch puts. */
  record Range(byte[] lo, byte[] hi) {}

  /** What the batch does to one family. */
  static final class FamilyEffects {
    final TreeMap<byte[], Effect> keys = new TreeMap<>(Bytes.UNSIGNED);
    final List<Range> deleted = new ArrayList<>();

    /** Whether a deleteRange of this batch so far removed {@code key}. */
    private boolean inDeletedRange(byte[] key) {
      for (Range r : deleted) {
        if (Bytes.compare(r.lo(), key) <= 0 && Bytes.compare(key, r.hi()) < 0) {
          return true;
        }
      }
      return false;
    }

    /** The deleted ranges, merged and cut around every key that ends with a value. */
    List<Range> rangesToDelete() {
      List<Range> sorted = new ArrayList<>(deleted);
      sorted.sort(Comparator.comparing(Range::lo, Bytes.UNSIGNED));
      List<Range> merged = new ArrayList<>();
      for (Range r : sorted) {
        Range last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
        if (last != null && Bytes.compare(r.lo(), last.hi()) <= 0) {
          if (Bytes.compare(r.hi(), last.hi()) > 0) {
            merged.set(merged.size() - 1, new Range(last.lo(), r.hi()));
          }
        } else {
          merged.add(r);
        }
      }
      List<Range> out = new ArrayList<>();
      for (Range r : merged) {
        byte[] from = r.lo();
        for (Map.Entry<byte[], Effect> e : keys.subMap(r.lo(), true, r.hi(), false).entrySet()) {
          if (!(e.getValue() instanceof Delete)) {
            addIfNotEmpty(out, from, e.getKey());
            from = EtcdKeys.successor(e.getKey());
          }
        }
        addIfNotEmpty(out, from, r.hi());
      }
      return out;
    }

    /** Whether {@code key}, deleted by the batch, is inside one of the ranges deleted anyway. */
    boolean coveredByRange(byte[] key) {
      return inDeletedRange(key);
    }

    private static void addIfNotEmpty(List<Range> out, byte[] lo, byte[] hi) {
      if (Bytes.compare(lo, hi) < 0) {
        out.add(new Range(lo, hi));
      }
    }
  }

  private final Map<String, FamilyEffects> families = new LinkedHashMap<>();
  private int mergesOnto;

  private NetBatch() {}

  /**
   * The net effect of {@code ops}, applied in order. REQUIRES: the ops passed the catalog's checks.
   */
  static NetBatch of(List<Op> ops) {
    NetBatch net = new NetBatch();
    for (Op op : ops) {
      net.add(op);
    }
    net.mergesOnto =
        (int)
            net.families.values().stream()
                .flatMap(f -> f.keys.values().stream())
                .filter(e -> e instanceof MergeOnto)
                .count();
    return net;
  }

  Map<String, FamilyEffects> families() {
    return families;
  }

  /** How many keys need the cluster's value (merges onto a value this batch did not set). */
  int mergesOnto() {
    return mergesOnto;
  }

  private void add(Op op) {
    FamilyEffects f = families.computeIfAbsent(op.family(), x -> new FamilyEffects());
    op.handle(
        new OpHandler<RuntimeException>() {
          @Override
          public void put(Op.Put p) {
            f.keys.put(p.key().clone(), new Put(p.value().clone()));
          }

          @Override
          public void delete(Op.Delete d) {
            f.keys.put(d.key().clone(), new Delete());
          }

          @Override
          public void deleteRange(Op.DeleteRange r) {
            if (Bytes.compare(r.lo(), r.hi()) >= 0) {
              return; // an empty range
            }
            f.keys.subMap(r.lo(), true, r.hi(), false).clear();
            f.deleted.add(new Range(r.lo().clone(), r.hi().clone()));
          }

          @Override
          public void merge(Op.Merge m) {
            Effect had = f.keys.get(m.key());
            Effect now;
            if (had == null) {
              now =
                  f.inDeletedRange(m.key())
                      ? new Put(Int64Add.encode(m.delta()))
                      : new MergeOnto(m.delta());
            } else if (had instanceof Put p) {
              now =
                  new Put(
                      Int64Add.encode(
                          Int64Add.apply(
                              Int64Add.decode(m.family(), m.key(), p.value()), m.delta())));
            } else if (had instanceof MergeOnto mo) {
              now = new MergeOnto(Int64Add.apply(mo.delta(), m.delta()));
            } else {
              now = new Put(Int64Add.encode(m.delta()));
            }
            f.keys.put(m.key().clone(), now);
          }
        });
  }
}
