package io.ankusa.store.postgres;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Op;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order a batch's ops reach the server in: stages of groups, each group one statement (one kind
 * of op on one family) sent as one JDBC batch, so a batch costs a round trip per group rather than
 * per op.
 *
 * <p>Why the result equals applying the ops in the batch's order: ops on different families touch
 * different tables, and ops on different keys of one family touch different rows, so they commute.
 * Within a stage, two ops of different groups never touch the same key of the same family (nor a
 * key inside a range a deleteRange of another group removes): an op that would is put in a new
 * stage, after everything before it. Ops within a group keep the batch's order (a JDBC batch runs
 * in order). Property {@code batchOpsApplyInOrder} and the model-based batches check it.
 */
final class BatchPlan {
  /** One statement and the ops it runs, in the batch's order. */
  record Group(String family, Class<? extends Op> kind, List<Op> ops) {}

  private BatchPlan() {}

  /** The stages of {@code ops}; run them in order, the groups of a stage in any order. */
  static List<List<Group>> stages(List<Op> ops) {
    List<List<Group>> stages = new ArrayList<>();
    Stage stage = new Stage();
    for (Op op : ops) {
      if (stage.conflicts(op)) {
        stages.add(stage.groups());
        stage = new Stage();
      }
      stage.add(op);
    }
    if (!stage.isEmpty()) {
      stages.add(stage.groups());
    }
    return stages;
  }

  /** The groups being filled, and which key of which family each holds. */
  private static final class Stage {
    private final Map<String, Group> groups = new LinkedHashMap<>();

    /** family → key → the kind of the group that touches it. */
    private final Map<String, Map<ByteBuffer, Class<? extends Op>>> keys = new HashMap<>();

    /** family → the ranges its deleteRanges in this stage remove. */
    private final Map<String, List<Op.DeleteRange>> ranges = new HashMap<>();

    boolean isEmpty() {
      return groups.isEmpty();
    }

    List<Group> groups() {
      return List.copyOf(groups.values());
    }

    boolean conflicts(Op op) {
      Map<ByteBuffer, Class<? extends Op>> touched = keys.getOrDefault(op.family(), Map.of());
      List<Op.DeleteRange> removed = ranges.getOrDefault(op.family(), List.of());
      if (op instanceof Op.DeleteRange r) {
        for (Map.Entry<ByteBuffer, Class<? extends Op>> e : touched.entrySet()) {
          if (e.getValue() != Op.DeleteRange.class && inside(e.getKey().array(), r)) {
            return true;
          }
        }
        return false; // deleteRanges among themselves commute
      }
      byte[] key = keyOf(op);
      Class<? extends Op> had = touched.get(ByteBuffer.wrap(key));
      if (had != null && had != op.getClass()) {
        return true;
      }
      for (Op.DeleteRange r : removed) {
        if (inside(key, r)) {
          return true;
        }
      }
      return false;
    }

    void add(Op op) {
      String id = op.family() + "\u0000" + op.getClass().getName();
      groups
          .computeIfAbsent(id, k -> new Group(op.family(), op.getClass(), new ArrayList<>()))
          .ops()
          .add(op);
      if (op instanceof Op.DeleteRange r) {
        ranges.computeIfAbsent(op.family(), f -> new ArrayList<>()).add(r);
      } else {
        keys.computeIfAbsent(op.family(), f -> new HashMap<>())
            .put(ByteBuffer.wrap(keyOf(op)), op.getClass());
      }
    }

    private static boolean inside(byte[] key, Op.DeleteRange r) {
      return Bytes.compare(r.lo(), key) <= 0 && Bytes.compare(key, r.hi()) < 0;
    }

    /** The one key a put, delete or merge touches; callers test for a deleteRange first. */
    private static byte[] keyOf(Op op) {
      byte[] key = op.pointKey();
      if (key == null) {
        throw new IllegalStateException("a deleteRange touches a range, not one key: " + op);
      }
      return key;
    }
  }
}
