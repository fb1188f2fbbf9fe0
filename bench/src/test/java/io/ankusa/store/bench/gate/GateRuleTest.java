package io.ankusa.store.bench.gate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The gate's pass rule: 2× the fastest (floored at 1 ms), under 50 ms, with the load running. */
class GateRuleTest {
  private static final GateRule RULE = GateRule.STANDARD;

  @Property
  void passesExactlyWhenSlowestIsWithinTwiceTheFlooredFastestAndUnderTheLimit(
      @ForAll("cells") List<Double> cells) {
    double fastest = Collections.min(cells);
    double slowest = Collections.max(cells);
    boolean expected = slowest <= 2 * Math.max(fastest, 1.0) && slowest < 50.0;
    GateRule.Verdict v = RULE.judge(cells, Collections.nCopies(cells.size(), 1.0));
    assertThat(v.pass()).isEqualTo(expected);
    assertThat(v.reasons().isEmpty()).isEqualTo(expected);
    assertThat(v.fastestMs()).isEqualTo(fastest);
    assertThat(v.slowestMs()).isEqualTo(slowest);
  }

  @Property
  void aCellMeasuredBelowNinetyPercentOfTheLoadFailsTheGate(
      @ForAll("cells") List<Double> cells, @ForAll("lowLoad") double low) {
    List<Double> fine = new ArrayList<>(List.of(0.2, 0.25));
    List<Double> loads = new ArrayList<>(Collections.nCopies(fine.size(), 1.0));
    loads.set(cells.size() % fine.size(), low);
    GateRule.Verdict v = RULE.judge(fine, loads);
    assertThat(v.pass()).isFalse();
    assertThat(v.reasons()).anyMatch(r -> r.contains("background load"));
  }

  @Property
  void aCellWhoseWriterFellBehindItsRateFailsTheGate(@ForAll("lowLoad") double low) {
    List<GateRule.WriterConditions> writers = new ArrayList<>();
    writers.add(null);
    writers.add(new GateRule.WriterConditions(low, 1.0));
    GateRule.Verdict v = RULE.judge(List.of(0.2, 0.25), List.of(1.0, 1.0), writers);
    assertThat(v.pass()).isFalse();
    assertThat(v.reasons())
        .singleElement()
        .asString()
        .contains("cell 1's writer ingested", "--ingest-rate");
  }

  @Property
  void aCellWhoseTicksClaimedLessThanTheWriterIngestedFailsTheGate(@ForAll("lowLoad") double low) {
    List<GateRule.WriterConditions> writers = new ArrayList<>();
    writers.add(new GateRule.WriterConditions(1.0, low));
    writers.add(null);
    GateRule.Verdict v = RULE.judge(List.of(0.2, 0.25), List.of(1.0, 1.0), writers);
    assertThat(v.pass()).isFalse();
    assertThat(v.reasons())
        .singleElement()
        .asString()
        .contains("cell 0's ticks claimed", "did not keep up");
  }

  @Example
  void aWriterThatKeptItsRateAndATickThatKeptUpPassLikeAnyCell() {
    List<GateRule.WriterConditions> writers = new ArrayList<>();
    writers.add(null);
    writers.add(new GateRule.WriterConditions(0.9, 0.9));
    assertThat(RULE.judge(List.of(0.2, 0.05), List.of(1.0, 1.0), writers).pass()).isTrue();
    writers.set(1, new GateRule.WriterConditions(Double.NaN, Double.NaN));
    assertThat(RULE.judge(List.of(0.2, 0.05), List.of(1.0, 1.0), writers).reasons()).hasSize(2);
    assertThat(
            RULE.judge(
                    List.of(0.2, 2.5),
                    List.of(1.0, 1.0),
                    List.of(
                        new GateRule.WriterConditions(1, 1), new GateRule.WriterConditions(1, 1)))
                .pass())
        .as("compared per tick, like the others")
        .isFalse();
  }

  @Example
  void theFloorForgivesSubMillisecondNoise() {
    assertThat(RULE.judge(List.of(0.1, 1.9), List.of(1.0, 1.0)).pass()).isTrue();
    assertThat(RULE.judge(List.of(0.1, 2.1), List.of(1.0, 1.0)).pass()).isFalse();
  }

  @Example
  void aTickThatGrowsWithTheQueueFailsBothLimits() {
    GateRule.Verdict v = RULE.judge(List.of(1.5, 15.0, 150.0), List.of(1.0, 1.0, 1.0));
    assertThat(v.pass()).isFalse();
    assertThat(v.reasons()).hasSize(2);
  }

  @Example
  void theLimitHoldsEvenWhenTheRatioDoes() {
    assertThat(RULE.judge(List.of(30.0, 55.0), List.of(1.0, 1.0)).pass()).isFalse();
    assertThat(RULE.judge(List.of(30.0, 49.0), List.of(1.0, 1.0)).pass()).isTrue();
  }

  @Provide
  Arbitrary<List<Double>> cells() {
    return Arbitraries.doubles().between(0.001, 120.0).ofScale(4).list().ofMinSize(1).ofMaxSize(7);
  }

  @Provide
  Arbitrary<Double> lowLoad() {
    return Arbitraries.doubles().between(0.0, 0.8999).ofScale(4);
  }
}
