package io.ankusa.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The batch's own bookkeeping, apart from any store: ops kept in the order added past every growth
 * of its array, a read-only view that follows later additions, the size hint, and a refused op
 * leaving the batch as it was. What a store does with a batch is the conformance suite's.
 */
class BatchTest {

  private static Op op(int i) {
    byte[] key = {(byte) i, (byte) (i >>> 8)};
    return switch (i % 4) {
      case 0 -> new Op.Put("f", key, new byte[i % 7]);
      case 1 -> new Op.Delete("f", key);
      case 2 -> new Op.DeleteRange("f", key, new byte[] {(byte) 0xff});
      default -> new Op.Merge("counters", key, i);
    };
  }

  /** Key and value lengths, plus 8 per merge. */
  private static long bytes(Op op) {
    return op.accept(
        new Op.Visitor<Long>() {
          @Override
          public Long put(Op.Put p) {
            return (long) p.key().length + p.value().length;
          }

          @Override
          public Long delete(Op.Delete d) {
            return (long) d.key().length;
          }

          @Override
          public Long deleteRange(Op.DeleteRange r) {
            return (long) r.lo().length + r.hi().length;
          }

          @Override
          public Long merge(Op.Merge m) {
            return m.key().length + 8L;
          }
        });
  }

  @Property
  void opsStayInTheOrderAddedAcrossGrowth(@ForAll @IntRange(max = 70) int n) {
    Batch batch = new Batch();
    List<Op> added = new ArrayList<>();
    long expectedBytes = 0;
    for (int i = 0; i < n; i++) {
      Op op = op(i);
      batch.add(op);
      added.add(op);
      expectedBytes += bytes(op);
    }
    assertThat(batch.ops()).containsExactlyElementsOf(added);
    assertThat(batch.size()).isEqualTo(n);
    assertThat(batch.isEmpty()).isEqualTo(n == 0);
    assertThat(batch.approximateBytes()).isEqualTo(expectedBytes);
    List<Op> walked = new ArrayList<>();
    batch.forEach(
        new OpHandler<RuntimeException>() {
          @Override
          public void put(Op.Put p) {
            walked.add(p);
          }

          @Override
          public void delete(Op.Delete d) {
            walked.add(d);
          }

          @Override
          public void deleteRange(Op.DeleteRange r) {
            walked.add(r);
          }

          @Override
          public void merge(Op.Merge m) {
            walked.add(m);
          }
        });
    assertThat(walked).containsExactlyElementsOf(added);
  }

  @Test
  void theViewIsReadOnlyAndFollowsLaterAdditions() {
    Batch batch = new Batch().put("f", new byte[] {1}, new byte[] {2});
    List<Op> view = batch.ops();
    batch.delete("f", new byte[] {3}).merge("counters", new byte[] {4}, 5);
    assertThat(view).hasSize(3);
    assertThat(view.get(2))
        .isInstanceOfSatisfying(Op.Merge.class, m -> assertThat(m.delta()).isEqualTo(5));
    assertThatThrownBy(() -> view.add(op(0))).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> view.set(0, op(0))).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> view.remove(0)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(view::clear).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> view.get(3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThat(batch.size()).isEqualTo(3);
  }

  @Test
  void addingABatchToItselfDoublesIt() {
    Batch batch = new Batch().put("f", new byte[] {1}, new byte[] {2}).delete("f", new byte[] {3});
    Op first = batch.ops().get(0);
    Op second = batch.ops().get(1);
    batch.addAll(batch);
    assertThat(batch.ops()).containsExactly(first, second, first, second);
    assertThat(batch.approximateBytes()).isEqualTo(2 * (2 + 1));
  }

  @Test
  void aRefusedOpLeavesTheBatchAsItWas() {
    Batch batch = new Batch().put("f", new byte[] {1}, new byte[] {2});
    assertThatThrownBy(() -> batch.put("f", new byte[] {1}, null))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("null value")
        .hasMessageContaining("'f'");
    assertThatThrownBy(() -> batch.add(null))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("null op");
    assertThatThrownBy(() -> batch.delete(null, new byte[] {1}))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("null family");
    assertThat(batch.size()).isEqualTo(1);
    assertThat(batch.approximateBytes()).isEqualTo(2);
  }

  @Test
  void toStringListsTheOpsInOrder() {
    Batch batch =
        new Batch().put("f", new byte[] {0x0a}, new byte[] {0x0b}).delete("g", new byte[] {0x0c});
    assertThat(batch.toString()).isEqualTo("Batch[put(f, 0a, 0b), delete(g, 0c)]");
  }
}
