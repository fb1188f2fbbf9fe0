package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.LayoutArbitraries.FamilyKey;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Int64Add;
import java.util.EnumSet;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Property {@code sentinelsBracketEveryRealKey}, and the families stay apart. */
class SentinelTest {

  @Provide
  Arbitrary<FamilyKey> realKey() {
    return LayoutArbitraries.realKeys();
  }

  @Property
  void sentinelsBracketEveryRealKey(@ForAll("realKey") FamilyKey k) {
    FamilySentinels s = Keys.family(k.family());
    assertThat(Bytes.compare(s.lo(), k.key())).as("lo %s < key", Bytes.hex(s.lo())).isNegative();
    assertThat(Bytes.compare(k.key(), s.hi())).as("key < hi %s", Bytes.hex(s.hi())).isNegative();
    assertThat(s.bracketsStrictly(k.key())).isTrue();
    assertThat(s.realKeys().contains(k.key())).isTrue();
    assertThat(s.foldRange().contains(k.key())).isTrue();
  }

  @Property
  void aRealKeyIsInNoOtherFamilyOfItsColumnFamily(@ForAll("realKey") FamilyKey k) {
    for (KeyFamily other : KeyFamily.values()) {
      if (other != k.family() && other.columnFamily().equals(k.family().columnFamily())) {
        assertThat(Keys.family(other).foldRange().contains(k.key()))
            .as("%s key inside %s's fold range", k.family(), other)
            .isFalse();
      }
    }
  }

  @Example
  void foldRangeHoldsBothSentinelsAndRealKeysNeither() {
    for (FamilySentinels s : Keys.sentinels()) {
      assertThat(Bytes.compare(s.lo(), s.hi())).isNegative();
      assertThat(s.foldRange().contains(s.lo())).as("%s", s).isTrue();
      assertThat(s.foldRange().contains(s.hi())).as("%s", s).isTrue();
      assertThat(s.realKeys().contains(s.lo())).as("%s", s).isFalse();
      assertThat(s.realKeys().contains(s.hi())).as("%s", s).isFalse();
      assertThat(s.foldRange().columnFamily()).isEqualTo(s.family().columnFamily());
      assertThat(s.lo()).isNotEmpty();
    }
  }

  @Example
  void foldRangesOfOneColumnFamilyAreDisjoint() {
    List<FamilySentinels> all = Keys.sentinels();
    for (FamilySentinels a : all) {
      for (FamilySentinels b : all) {
        if (a != b && a.family().columnFamily().equals(b.family().columnFamily())) {
          assertThat(a.foldRange().contains(b.lo()) || a.foldRange().contains(b.hi()))
              .as("%s overlaps %s", a, b)
              .isFalse();
        }
      }
    }
  }

  @Example
  void sentinelValuesAsDocumented() {
    assertThat(Keys.family(KeyFamily.COUNTERS).lo()).containsExactly(0, 0, 0, 0, 0);
    assertThat(Keys.family(KeyFamily.COUNTERS).hi()).containsExactly(-1, -1, -1, -1, -1);
    assertThat(Keys.family(KeyFamily.DUE).lo()).containsExactly('D');
    assertThat(Keys.family(KeyFamily.DUE).hi()).containsExactly('D', -1, -1, -1, -1);
    assertThat(Keys.family(KeyFamily.ORD_BY_TENANT).hi()).containsExactly('n', -1);
    assertThat(Keys.sentinels()).hasSize(KeyFamily.values().length);
    EnumSet<KeyFamily> seen = EnumSet.noneOf(KeyFamily.class);
    Keys.sentinels().forEach(s -> seen.add(s.family()));
    assertThat(seen).containsExactlyInAnyOrder(KeyFamily.values());
    for (FamilySentinels s : Keys.sentinels()) {
      assertThat(s.value())
          .as("value of %s", s.family())
          .isEqualTo(s.family() == KeyFamily.COUNTERS ? Int64Add.encode(0) : new byte[0]);
    }
  }

  @Example
  void extremeRealKeysStayInside() {
    FamilySentinels due = Keys.family(KeyFamily.DUE);
    assertThat(
            due.bracketsStrictly(
                Keys.due(Fields.MAX_ORDINAL, Long.MAX_VALUE, Long.MAX_VALUE, 0xFFFF)))
        .isTrue();
    assertThat(due.bracketsStrictly(Keys.due(1, 0, 0, 0))).isTrue();
    FamilySentinels counters = Keys.family(KeyFamily.COUNTERS);
    assertThat(counters.bracketsStrictly(Keys.counter(0, CounterField.PENDING))).isTrue();
    assertThat(
            counters.bracketsStrictly(
                Keys.counter(Fields.MAX_ORDINAL, CounterField.ARCHIVE_PENDING)))
        .isTrue();
    assertThat(Keys.family(KeyFamily.HOOK).bracketsStrictly(Keys.hook(0))).isTrue();
    assertThat(Keys.family(KeyFamily.HOOK).bracketsStrictly(Keys.hook(Long.MAX_VALUE))).isTrue();
  }
}
