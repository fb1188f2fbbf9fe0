package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.LayoutArbitraries.FamilyKey;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Range builders contain exactly the keys they promise. */
class RangeTest {

  @Provide
  Arbitrary<Long> ord() {
    return LayoutArbitraries.ords();
  }

  @Provide
  Arbitrary<Long> counterOrd() {
    return LayoutArbitraries.counterOrds();
  }

  @Provide
  Arbitrary<Long> u63() {
    return LayoutArbitraries.u63();
  }

  @Provide
  Arbitrary<Integer> sink() {
    return LayoutArbitraries.sinks();
  }

  @Provide
  Arbitrary<TenantId> tenant() {
    return LayoutArbitraries.tenants();
  }

  @Provide
  Arbitrary<byte[]> idem() {
    return LayoutArbitraries.idempotencyKeys();
  }

  @Provide
  Arbitrary<FamilyKey> realKey() {
    return LayoutArbitraries.realKeys();
  }

  @Property
  void perTenantRangesHoldExactlyThatTenant(
      @ForAll("ord") long ord,
      @ForAll("ord") long other,
      @ForAll("u63") long at,
      @ForAll("u63") long seq,
      @ForAll("sink") int sink) {
    assertThat(Keys.dueOf(ord).contains(Keys.due(other, at, seq, sink))).isEqualTo(ord == other);
    assertThat(Keys.inflightOf(ord).contains(Keys.inflight(other, seq, sink)))
        .isEqualTo(ord == other);
    assertThat(Keys.deadByTenantOf(ord).contains(Keys.deadByTenant(other, at, seq, sink)))
        .isEqualTo(ord == other);
    // never a key of a neighbouring family in the same column family
    assertThat(Keys.dueOf(ord).contains(Keys.deadByTenant(ord, at, seq, sink))).isFalse();
    assertThat(Keys.inflightOf(ord).contains(Keys.due(ord, at, seq, sink))).isFalse();
  }

  @Property
  void dueOfUpToIncludesTheBoundAndNothingLater(
      @ForAll("ord") long ord,
      @ForAll("ord") long other,
      @ForAll("u63") long bound,
      @ForAll("u63") long at,
      @ForAll("u63") long seq,
      @ForAll("sink") int sink) {
    KeyRange r = Keys.dueOfUpTo(ord, bound);
    assertThat(r.contains(Keys.due(ord, bound, seq, sink))).isTrue();
    assertThat(r.contains(Keys.due(ord, at, seq, sink))).isEqualTo(at <= bound);
    if (bound < Long.MAX_VALUE) {
      assertThat(r.contains(Keys.due(ord, bound + 1, 0, 0))).isFalse();
    }
    assertThat(r.contains(Keys.due(ord, 0, 0, 0))).isTrue();
    Assume.that(other != ord);
    assertThat(r.contains(Keys.due(other, Math.min(at, bound), seq, sink))).isFalse();
  }

  @Property
  void dueOfBetweenIsInclusiveOnBothEnds(
      @ForAll("ord") long ord,
      @ForAll("u63") long from,
      @ForAll("u63") long to,
      @ForAll("u63") long at,
      @ForAll("u63") long seq,
      @ForAll("sink") int sink) {
    KeyRange r = Keys.dueOfBetween(ord, from, to);
    assertThat(r.contains(Keys.due(ord, at, seq, sink))).isEqualTo(from <= at && at <= to);
    assertThat(r.isEmpty()).isEqualTo(from > to);
  }

  @Property
  void timeRangesIncludeTheBound(
      @ForAll("u63") long bound,
      @ForAll("u63") long x,
      @ForAll("ord") long ord,
      @ForAll("u63") long seq,
      @ForAll("sink") int sink,
      @ForAll("tenant") TenantId tenant,
      @ForAll("idem") byte[] idem) {
    assertThat(Keys.activeUpTo(bound).contains(Keys.active(x, ord))).isEqualTo(x <= bound);
    assertThat(Keys.activeUpTo(bound).contains(Keys.active(bound, ord))).isTrue();
    assertThat(Keys.deadUpTo(bound).contains(Keys.dead(x, seq, sink))).isEqualTo(x <= bound);
    assertThat(Keys.archiveUpTo(bound).contains(Keys.archive(x))).isEqualTo(x <= bound);
    assertThat(Keys.expiryUpTo(bound).contains(Keys.expiry(x, tenant, idem))).isEqualTo(x <= bound);
  }

  @Property
  void dedupeOfHoldsExactlyThatTenant(
      @ForAll("tenant") TenantId tenant,
      @ForAll("tenant") TenantId other,
      @ForAll("idem") byte[] idem) {
    assertThat(Keys.dedupeOf(tenant).contains(Keys.dedupe(other, idem)))
        .isEqualTo(tenant.equals(other));
  }

  @Example
  void dedupeOfATenantExcludesATenantItPrefixes() {
    TenantId acme = TenantId.of("acme");
    assertThat(Keys.dedupeOf(acme).contains(Keys.dedupe(TenantId.of("acme2"), new byte[] {1})))
        .isFalse();
    assertThat(Keys.dedupeOf(TenantId.of("acme2")).contains(Keys.dedupe(acme, new byte[] {'2'})))
        .isFalse();
  }

  @Property
  void countersOfHoldsTheSixFieldsOfThatOrd(
      @ForAll("counterOrd") long ord,
      @ForAll("counterOrd") long other,
      @ForAll CounterField field) {
    assertThat(Keys.countersOf(ord).contains(Keys.counter(other, field))).isEqualTo(ord == other);
    assertThat(Keys.countersOf(ord).contains(Keys.family(KeyFamily.COUNTERS).lo())).isFalse();
    assertThat(Keys.countersOf(ord).contains(Keys.family(KeyFamily.COUNTERS).hi())).isFalse();
  }

  @Property
  void deliveriesOfHoldsEverySinkOfThatHook(
      @ForAll("u63") long seq, @ForAll("u63") long other, @ForAll("sink") int sink) {
    assertThat(Keys.deliveriesOf(seq).contains(Keys.delivery(other, sink))).isEqualTo(seq == other);
  }

  @Property
  void rangesNeverHoldASentinel(@ForAll("ord") long ord, @ForAll("u63") long bound) {
    KeyRange[] ranges = {
      Keys.dueOf(ord), Keys.dueOfUpTo(ord, bound), Keys.inflightOf(ord), Keys.deadByTenantOf(ord),
      Keys.activeUpTo(bound), Keys.deadUpTo(bound), Keys.archiveUpTo(bound), Keys.expiryUpTo(bound),
      Keys.countersOf(ord), Keys.deliveriesOf(bound)
    };
    for (KeyRange r : ranges) {
      for (FamilySentinels s : Keys.sentinels()) {
        if (s.family().columnFamily().equals(r.columnFamily())) {
          assertThat(r.contains(s.lo())).as("%s holds %s", r, s).isFalse();
          assertThat(r.contains(s.hi())).as("%s holds %s", r, s).isFalse();
        }
      }
    }
  }

  @Property
  void realKeysOfHoldsEveryRealKeyOfTheFamily(@ForAll("realKey") FamilyKey k) {
    assertThat(Keys.realKeysOf(k.family()).contains(k.key())).isTrue();
    assertThat(Keys.realKeysOf(k.family()).columnFamily()).isEqualTo(k.family().columnFamily());
  }
}
