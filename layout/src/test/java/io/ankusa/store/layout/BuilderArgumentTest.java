package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreArgumentException;
import org.junit.jupiter.api.Test;

/** Out-of-range fields are refused naming the field and the range; the families of format 3. */
class BuilderArgumentTest {

  @Test
  void ordOutOfRange() {
    assertThatThrownBy(() -> Keys.due(0, 1, 1, 1))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("ord 0")
        .hasMessageContaining("1..4294967294")
        .hasMessageContaining("node aggregate");
    assertThatThrownBy(() -> Keys.inflight(0xFFFF_FFFFL, 1, 1))
        .hasMessageContaining("ord 4294967295");
    assertThatThrownBy(() -> Keys.active(1, -1)).isInstanceOf(StoreArgumentException.class);
    assertThatThrownBy(() -> Keys.dueOf(0)).isInstanceOf(StoreArgumentException.class);
    assertThatThrownBy(() -> Keys.counter(0xFFFF_FFFFL, CounterField.DEAD))
        .hasMessageContaining("counter ord 4294967295");
    assertThat(Keys.counter(0, CounterField.DEAD)).containsExactly(0, 0, 0, 0, 4);
  }

  @Test
  void otherFieldsOutOfRange() {
    assertThatThrownBy(() -> Keys.due(1, -1, 1, 1))
        .hasMessageContaining("at -1 is out of range 0..");
    assertThatThrownBy(() -> Keys.hook(-5)).hasMessageContaining("seq -5");
    assertThatThrownBy(() -> Keys.delivery(1, 65_536))
        .hasMessageContaining("sink 65536 is out of range 0..65535");
    assertThatThrownBy(() -> Keys.delivery(1, -1)).hasMessageContaining("sink -1");
    assertThatThrownBy(() -> Keys.active(-1, 1)).hasMessageContaining("bucket -1");
    assertThatThrownBy(() -> new DueValue(1L << 32, DueKind.RETRY))
        .hasMessageContaining("size 4294967296 is out of range 0..4294967295");
    assertThatThrownBy(() -> new NextOrdinalValue(0)).hasMessageContaining("1..4294967295");
    assertThatThrownBy(() -> Keys.migrating(0)).isInstanceOf(StoreArgumentException.class);
    assertThatThrownBy(() -> Keys.dedupe(null, new byte[0]))
        .isInstanceOf(StoreArgumentException.class);
    assertThatThrownBy(() -> ActiveKey.bucketOf(-1)).isInstanceOf(StoreArgumentException.class);
  }

  @Test
  void bucketIsAtDividedBy1000() {
    assertThat(ActiveKey.bucketOf(0)).isZero();
    assertThat(ActiveKey.bucketOf(999)).isZero();
    assertThat(ActiveKey.bucketOf(1000)).isEqualTo(1);
    assertThat(ActiveKey.bucketOf(1_700_000_000_123L)).isEqualTo(1_700_000_000L);
  }

  @Test
  void keyFamiliesKnowTheirColumnFamilyAndPrefix() {
    assertThat(KeyFamily.DUE.columnFamily()).isEqualTo(Format3.INDEX);
    assertThat(KeyFamily.DUE.prefix()).containsExactly('D');
    assertThat(KeyFamily.AUDIT.prefix()).containsExactly('a');
    assertThat(KeyFamily.AUDIT.columnFamily()).isEqualTo(Format3.AUDIT);
    assertThat(KeyFamily.META.prefix()).containsExactly('m', ':');
    assertThat(KeyFamily.COUNTERS.hasPrefix()).isFalse();
    assertThat(KeyFamily.TENANT_BY_ORD.columnFamily()).isEqualTo(Format3.TENANTS);
    for (KeyFamily f : KeyFamily.values()) {
      assertThat(Format3.families()).extracting(FamilySpec::name).contains(f.columnFamily());
    }
  }

  @Test
  void format3Families() {
    assertThat(Format3.FORMAT).isEqualTo(3);
    assertThat(Format3.families())
        .extracting(FamilySpec::name)
        .containsExactly("hooks", "deliveries", "tenants", "default", "index", "counters", "audit");
    FamilySpec counters = Format3.families().get(5);
    assertThat(counters.counters()).isTrue();
    assertThat(counters.writeBufferHint()).isEqualTo(8L << 20);
    assertThat(counters.compress()).isFalse();
    assertThat(Format3.families()).filteredOn(FamilySpec::counters).hasSize(1);
  }

  @Test
  void dueKindsMapToTheirCounters() {
    assertThat(DueKind.FIRST_ATTEMPT.code()).isZero();
    assertThat(DueKind.FIRST_ATTEMPT.counter()).isEqualTo(CounterField.PENDING);
    assertThat(DueKind.RETRY.code()).isEqualTo(1);
    assertThat(DueKind.RETRY.counter()).isEqualTo(CounterField.SCHEDULED);
    assertThat(CounterField.values())
        .extracting(CounterField::code)
        .containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(CounterField.ofCode(0)).isNull();
    assertThat(CounterField.ofCode(7)).isNull();
  }
}
