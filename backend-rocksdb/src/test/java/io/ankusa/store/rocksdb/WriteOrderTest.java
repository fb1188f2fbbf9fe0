package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link WriteOrder}: the order in which a batch's ops go into the native write batch. The engine
 * layer's {@code batchOpsApplyInOrder} and {@code modelBasedRandomBatches} check the outcome
 * through the store; this checks the order itself on batches of up to 300 ops over a small key
 * space, so runs, ties and families interleave, and keys that agree in their first 8 bytes.
 */
class WriteOrderTest {
  private static final List<String> FAMILIES = List.of("rows", "index", "counters");

  @Provide
  Arbitrary<List<Op>> pointOps() {
    Arbitrary<String> family = Arbitraries.of(FAMILIES);
    // Short keys collide (ties, runs); long ones share their first 8 bytes and differ after them,
    // or
    // differ only in length (zero bytes), where the sort's 8-byte prefixes are equal.
    Arbitrary<byte[]> key =
        Arbitraries.oneOf(
            Arbitraries.bytes()
                .between((byte) 0, (byte) 5)
                .array(byte[].class)
                .ofMinSize(1)
                .ofMaxSize(3),
            Arbitraries.of((byte) 0, (byte) 1, (byte) 0x80, (byte) 0xFF)
                .array(byte[].class)
                .ofMinSize(7)
                .ofMaxSize(12)
                .map(tail -> concat(new byte[] {7, 7, 7, 7, 7, 7}, tail)));
    Arbitrary<Op> put =
        Combinators.combine(family, key, Arbitraries.bytes().array(byte[].class).ofMaxSize(2))
            .as(Op.Put::new);
    Arbitrary<Op> delete = Combinators.combine(family, key).as(Op.Delete::new);
    Arbitrary<Op> merge = Combinators.combine(family, key, Arbitraries.longs()).as(Op.Merge::new);
    return Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(4, put),
            net.jqwik.api.Tuple.of(1, delete),
            net.jqwik.api.Tuple.of(2, merge))
        .list()
        .ofMinSize(0)
        .ofMaxSize(300);
  }

  /**
   * The order is a permutation of the batch; each family's ops come in key order; ops on one key of
   * one family keep the batch's order. Null (the batch's order) only for a batch in that order
   * already.
   */
  @Property(tries = 300)
  void eachFamilyInKeyOrderAndEachKeyInBatchOrder(@ForAll("pointOps") List<Op> ops) {
    int[] order = WriteOrder.of(ops);
    if (order == null) {
      assertThat(inWriteOrder(ops))
          .as("the batch's own order is kept only when it is in write order")
          .isTrue();
      return;
    }
    assertThat(order.clone())
        .as("a permutation")
        .satisfies(
            o -> {
              Arrays.sort(o);
              for (int i = 0; i < o.length; i++) {
                assertThat(o[i]).isEqualTo(i);
              }
            });
    List<Op> reordered = new ArrayList<>();
    for (int i : order) {
      reordered.add(ops.get(i));
    }
    assertThat(inWriteOrder(reordered))
        .as("grouped by family, in key order: %s", reordered)
        .isTrue();
    for (int a = 0; a < order.length; a++) {
      for (int b = a + 1; b < order.length; b++) {
        Op x = ops.get(order[a]);
        Op y = ops.get(order[b]);
        if (x.family().equals(y.family()) && Arrays.equals(x.pointKey(), y.pointKey())) {
          assertThat(order[a])
              .as("ops on %s keep the batch's order", Bytes.hex(x.pointKey()))
              .isLessThan(order[b]);
        }
      }
    }
  }

  /**
   * A range delete anywhere pins the batch's order: it removes what comes before it, not what
   * follows.
   */
  @Property(tries = 100)
  void aBatchHoldingARangeDeleteKeepsItsOrder(@ForAll("pointOps") List<Op> ops, @ForAll int at) {
    List<Op> withRange = new ArrayList<>(ops);
    withRange.add(
        Math.floorMod(at, ops.size() + 1),
        new Op.DeleteRange("rows", new byte[] {1}, new byte[] {4}));
    assertThat(WriteOrder.of(withRange)).isNull();
  }

  @Example
  void outOfOrderKeysOfOneFamilyAreSortedAndTheFamiliesGrouped() {
    List<Op> ops =
        List.of(
            new Op.Put("index", new byte[] {9}, new byte[0]),
            new Op.Merge("counters", new byte[] {2}, 1),
            new Op.Put("index", new byte[] {3}, new byte[0]),
            new Op.Delete("index", new byte[] {(byte) 0x80}),
            new Op.Merge("counters", new byte[] {1}, 1),
            new Op.Put("index", new byte[] {3}, new byte[] {7}));
    // index (first seen): 3, 3 (in batch order), 9, 0x80 (unsigned); then counters: 1, 2
    assertThat(WriteOrder.of(ops)).containsExactly(2, 5, 0, 3, 4, 1);
  }

  @Example
  void aBatchInOrderAlreadyAndABatchOfOneOpKeepTheirOrder() {
    assertThat(
            WriteOrder.of(
                List.of(
                    new Op.Put("rows", new byte[] {1}, new byte[0]),
                    new Op.Put("rows", new byte[] {1}, new byte[] {2}),
                    new Op.Put("rows", new byte[] {2}, new byte[0]),
                    new Op.Merge("counters", new byte[] {0}, 3))))
        .isNull();
    assertThat(WriteOrder.of(List.of(new Op.Delete("rows", new byte[] {1})))).isNull();
    assertThat(WriteOrder.of(List.of())).isNull();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Whether each family's ops form one run, in key order. */
  private static boolean inWriteOrder(List<Op> ops) {
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      Op op = ops.get(i);
      if (i > 0 && ops.get(i - 1).family().equals(op.family())) {
        if (Arrays.compareUnsigned(ops.get(i - 1).pointKey(), op.pointKey()) > 0) {
          return false;
        }
        continue;
      }
      if (seen.contains(op.family())) {
        return false;
      }
      seen.add(op.family());
    }
    return true;
  }
}
