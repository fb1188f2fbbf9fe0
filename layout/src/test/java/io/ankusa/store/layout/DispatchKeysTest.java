package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The keys and value fair dispatch adds: cursor ranges and the tenant limits meta key. */
class DispatchKeysTest {

  @Property
  void aDueCursorRangeHoldsTheKeysFromItsStartUpToNow(
      @ForAll @LongRange(min = 1, max = Fields.MAX_ORDINAL) long ord,
      @ForAll @LongRange(min = 0, max = 10_000) long at,
      @ForAll @LongRange(min = 0, max = 100) long seq,
      @ForAll @IntRange(min = 0, max = 3) int sink,
      @ForAll @LongRange(min = 0, max = 10_000) long otherAt,
      @ForAll @LongRange(min = 0, max = 100) long otherSeq) {
    KeyRange range = Keys.dueOfFrom(ord, at, seq, sink, 5_000);
    byte[] other = Keys.due(ord, otherAt, otherSeq, sink);
    boolean atOrAfterStart = otherAt > at || (otherAt == at && otherSeq >= seq);
    assertThat(range.contains(other))
        .as(
            "due key at %d seq %d in the range from at %d seq %d up to 5 000",
            otherAt, otherSeq, at, seq)
        .isEqualTo(atOrAfterStart && otherAt <= 5_000);
    if (ord < Fields.MAX_ORDINAL) {
      assertThat(range.contains(Keys.due(ord + 1, at, seq, sink)))
          .as("the next tenant's key")
          .isFalse();
    }
  }

  @Property
  void anInflightResumeRangeHoldsTheKeysFromItsStartToTheFamilysEnd(
      @ForAll @LongRange(min = 1, max = 1_000) long ord,
      @ForAll @LongRange(min = 0, max = 100) long seq,
      @ForAll @LongRange(min = 1, max = 1_000) long otherOrd,
      @ForAll @LongRange(min = 0, max = 100) long otherSeq) {
    KeyRange range = Keys.inflightFrom(ord, seq, 1);
    boolean after = otherOrd > ord || (otherOrd == ord && otherSeq >= seq);
    assertThat(range.contains(Keys.inflight(otherOrd, otherSeq, 1))).isEqualTo(after);
    assertThat(range.contains(Keys.family(KeyFamily.INFLIGHT).hi()))
        .as("the hi sentinel")
        .isFalse();
  }

  @Test
  void tenantLimitsKeysAreMetaKeysThatNothingElseUses() {
    byte[] key = Keys.tenantLimits(42);
    assertThat(new String(key, java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("m:tenant_limits:42");
    assertThat(Keys.family(KeyFamily.META).realKeys().contains(key)).isTrue();
    assertThatThrownBy(() -> Keys.tenantLimits(0)).isInstanceOf(StoreArgumentException.class);
  }

  @Property
  void tenantLimitsRoundTrip(
      @ForAll @IntRange(min = 1, max = 65_535) int weight,
      @ForAll @LongRange(min = 0, max = Fields.MAX_U32) long maxInflight,
      @ForAll @LongRange(min = 0, max = Fields.MAX_U32) long rowsPerTick) {
    TenantLimitsValue v = new TenantLimitsValue(weight, maxInflight, rowsPerTick);
    assertThat(TenantLimitsValue.decodeAt(Keys.tenantLimits(7), v.encode())).isEqualTo(v);
  }

  @Test
  void aDamagedTenantLimitsValueIsCorruptionNamingTheKey() {
    byte[] key = Keys.tenantLimits(7);
    assertThatThrownBy(() -> TenantLimitsValue.decodeAt(key, new byte[9]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("weight:16");
    assertThatThrownBy(() -> TenantLimitsValue.decodeAt(key, new byte[10]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> new TenantLimitsValue(0, 0, 0))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("weight 0");
  }
}
