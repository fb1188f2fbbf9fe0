package io.ankusa.store.queue.internal.counter;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.CounterField;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Counter deltas against a sorted map of their sums: any sequence of adds, over few or many
 * counters (past every growth of the table), deltas that cancel included, gives the same coalesced
 * deltas in the same order, and is empty exactly when every sum is zero.
 */
class CounterDeltasTest {

  record Add(long ord, CounterField field, long delta) {}

  @Provide
  Arbitrary<List<Add>> adds() {
    Arbitrary<Long> ords =
        Arbitraries.oneOf(
            Arbitraries.longs().between(0, 3),
            Arbitraries.longs().between(0, 5_000),
            Arbitraries.longs().between(0, 0xFFFF_FFFFL));
    Arbitrary<Long> deltas =
        Arbitraries.oneOf(
            Arbitraries.longs().between(-2, 2), Arbitraries.longs().between(-1_000_000, 1_000_000));
    return Combinators.combine(ords, Arbitraries.of(CounterField.class), deltas)
        .as(Add::new)
        .list()
        .ofMaxSize(600);
  }

  @Property
  void coalescedDeltasEqualASortedMapOfTheirSums(@ForAll("adds") List<Add> adds) {
    CounterDeltas deltas = new CounterDeltas();
    Map<Long, Long> model = new TreeMap<>();
    for (Add a : adds) {
      deltas.add(a.ord(), a.field(), a.delta());
      if (a.delta() != 0) {
        model.merge((a.ord() << 8) | a.field().code(), a.delta(), Long::sum);
      }
    }
    List<Add> expected = new ArrayList<>();
    model.forEach(
        (packed, sum) -> {
          if (sum != 0) {
            expected.add(new Add(packed >>> 8, CounterField.ofCode((int) (packed & 0xff)), sum));
          }
        });
    assertThat(seen(deltas)).containsExactlyElementsOf(expected);
    assertThat(deltas.isEmpty()).isEqualTo(expected.isEmpty());
  }

  @Example
  void deltasThatCancelLeaveNothingAndTheOrderIsOrdThenField() {
    CounterDeltas deltas = new CounterDeltas();
    deltas.add(7, CounterField.PENDING, 3);
    deltas.add(7, CounterField.PENDING, -3);
    deltas.add(0, CounterField.PENDING, 0);
    assertThat(deltas.isEmpty()).isTrue();
    assertThat(seen(deltas)).isEmpty();
    deltas.add(9, CounterField.BYTES, 5);
    deltas.add(2, CounterField.DEAD, 1);
    deltas.add(9, CounterField.PENDING, 1);
    assertThat(deltas.isEmpty()).isFalse();
    assertThat(seen(deltas))
        .containsExactly(
            new Add(2, CounterField.DEAD, 1),
            new Add(9, CounterField.PENDING, 1),
            new Add(9, CounterField.BYTES, 5));
  }

  private static List<Add> seen(CounterDeltas deltas) {
    List<Add> seen = new ArrayList<>();
    deltas.forEach((ord, field, delta) -> seen.add(new Add(ord, field, delta)));
    return seen;
  }
}
