package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Bytes;
import java.util.Comparator;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Property {@code byteOrderIsNumericOrder}: unsigned byte order of keys equals the order of their
 * field tuples, left to right.
 */
class ByteOrderTest {

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

  private static final Comparator<DueKey> DUE_ORDER =
      Comparator.comparingLong(DueKey::ord)
          .thenComparingLong(DueKey::at)
          .thenComparingLong(DueKey::seq)
          .thenComparingInt(DueKey::sink);

  @Property
  void dueKeys(
      @ForAll("ord") long o1,
      @ForAll("u63") long a1,
      @ForAll("u63") long s1,
      @ForAll("sink") int k1,
      @ForAll("ord") long o2,
      @ForAll("u63") long a2,
      @ForAll("u63") long s2,
      @ForAll("sink") int k2) {
    assertThat(Integer.signum(Bytes.compare(Keys.due(o1, a1, s1, k1), Keys.due(o2, a2, s2, k2))))
        .isEqualTo(
            Integer.signum(
                DUE_ORDER.compare(new DueKey(o1, a1, s1, k1), new DueKey(o2, a2, s2, k2))));
    assertThat(
            Integer.signum(
                Bytes.compare(
                    Keys.deadByTenant(o1, a1, s1, k1), Keys.deadByTenant(o2, a2, s2, k2))))
        .isEqualTo(
            Integer.signum(
                DUE_ORDER.compare(new DueKey(o1, a1, s1, k1), new DueKey(o2, a2, s2, k2))));
  }

  @Property
  void dueKeysOfOneTenantOrderByTime(
      @ForAll("ord") long ord,
      @ForAll("u63") long a1,
      @ForAll("u63") long s1,
      @ForAll("sink") int k1,
      @ForAll("u63") long a2,
      @ForAll("u63") long s2,
      @ForAll("sink") int k2) {
    int bytes = Integer.signum(Bytes.compare(Keys.due(ord, a1, s1, k1), Keys.due(ord, a2, s2, k2)));
    int tuple =
        Integer.signum(DUE_ORDER.compare(new DueKey(ord, a1, s1, k1), new DueKey(ord, a2, s2, k2)));
    assertThat(bytes).isEqualTo(tuple);
  }

  @Property
  void inflightAndDeadKeys(
      @ForAll("ord") long o1,
      @ForAll("u63") long s1,
      @ForAll("sink") int k1,
      @ForAll("ord") long o2,
      @ForAll("u63") long s2,
      @ForAll("sink") int k2) {
    int tuple =
        Long.compare(o1, o2) != 0
            ? Long.compare(o1, o2)
            : Long.compare(s1, s2) != 0 ? Long.compare(s1, s2) : Integer.compare(k1, k2);
    assertThat(Integer.signum(Bytes.compare(Keys.inflight(o1, s1, k1), Keys.inflight(o2, s2, k2))))
        .isEqualTo(Integer.signum(tuple));
    // 'x' at seq sink has the same shape with at in place of ord (ords are valid ats).
    assertThat(Integer.signum(Bytes.compare(Keys.dead(o1, s1, k1), Keys.dead(o2, s2, k2))))
        .isEqualTo(Integer.signum(tuple));
  }

  @Property
  void activeKeysOrderByBucketThenOrd(
      @ForAll("u63") long b1,
      @ForAll("ord") long o1,
      @ForAll("u63") long b2,
      @ForAll("ord") long o2) {
    int tuple = Long.compare(b1, b2) != 0 ? Long.compare(b1, b2) : Long.compare(o1, o2);
    assertThat(Integer.signum(Bytes.compare(Keys.active(b1, o1), Keys.active(b2, o2))))
        .isEqualTo(Integer.signum(tuple));
  }

  @Property
  void counterKeys(
      @ForAll("counterOrd") long o1,
      @ForAll CounterField f1,
      @ForAll("counterOrd") long o2,
      @ForAll CounterField f2) {
    int tuple =
        Long.compare(o1, o2) != 0 ? Long.compare(o1, o2) : Integer.compare(f1.code(), f2.code());
    assertThat(Integer.signum(Bytes.compare(Keys.counter(o1, f1), Keys.counter(o2, f2))))
        .isEqualTo(Integer.signum(tuple));
  }

  @Property
  void seqKeys(
      @ForAll("u63") long s1,
      @ForAll("sink") int k1,
      @ForAll("u63") long s2,
      @ForAll("sink") int k2,
      @ForAll("u63") long at) {
    int bySeq = Integer.signum(Long.compare(s1, s2));
    assertThat(Integer.signum(Bytes.compare(Keys.hook(s1), Keys.hook(s2)))).isEqualTo(bySeq);
    assertThat(Integer.signum(Bytes.compare(Keys.archive(s1), Keys.archive(s2)))).isEqualTo(bySeq);
    assertThat(Integer.signum(Bytes.compare(Keys.cleared(s1), Keys.cleared(s2)))).isEqualTo(bySeq);
    assertThat(Integer.signum(Bytes.compare(Keys.audit(s1, at), Keys.audit(s2, at))))
        .isEqualTo(bySeq);
    int tuple = bySeq != 0 ? bySeq : Integer.compare(k1, k2);
    assertThat(Integer.signum(Bytes.compare(Keys.delivery(s1, k1), Keys.delivery(s2, k2))))
        .isEqualTo(Integer.signum(tuple));
  }

  @Property
  void expiryKeysOrderByTimeFirst(
      @ForAll("u63") long a1,
      @ForAll("tenant") TenantId t1,
      @ForAll("idem") byte[] i1,
      @ForAll("u63") long a2,
      @ForAll("tenant") TenantId t2,
      @ForAll("idem") byte[] i2) {
    if (a1 != a2) {
      assertThat(Integer.signum(Bytes.compare(Keys.expiry(a1, t1, i1), Keys.expiry(a2, t2, i2))))
          .isEqualTo(Integer.signum(Long.compare(a1, a2)));
    }
  }
}
