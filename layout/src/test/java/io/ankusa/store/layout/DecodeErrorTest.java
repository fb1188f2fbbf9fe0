package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.StoreCorruptionException;
import java.util.Arrays;
import java.util.function.Function;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/**
 * Decoding what the codec cannot have written is corruption naming the family, the hex and the
 * shape.
 */
class DecodeErrorTest {

  private static AbstractThrowableAssert<?, ? extends Throwable> corrupt(
      Function<byte[], ?> decode, byte[] key, KeyFamily family) {
    return assertThatThrownBy(() -> decode.apply(key))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining(family.name())
        .hasMessageContaining("'" + family.columnFamily() + "'")
        .hasMessageContaining(Bytes.hex(key))
        .hasMessageContaining(family.shape());
  }

  @Test
  void wrongLength() {
    byte[] due = Keys.due(7, 1000, 42, 1);
    corrupt(DueKey::decode, Arrays.copyOf(due, 22), KeyFamily.DUE)
        .hasMessageContaining("is 22 bytes");
    corrupt(DueKey::decode, Arrays.copyOf(due, 24), KeyFamily.DUE)
        .hasMessageContaining("is 24 bytes");
    corrupt(InflightKey::decode, Arrays.copyOf(Keys.inflight(1, 2, 3), 14), KeyFamily.INFLIGHT);
    corrupt(DeadKey::decode, Arrays.copyOf(Keys.dead(1, 2, 3), 18), KeyFamily.DEAD);
    corrupt(
        DeadByTenantKey::decode,
        Arrays.copyOf(Keys.deadByTenant(1, 2, 3, 4), 5),
        KeyFamily.DEAD_BY_TENANT);
    corrupt(ActiveKey::decode, Arrays.copyOf(Keys.active(1, 2), 12), KeyFamily.ACTIVE);
    corrupt(ArchiveKey::decode, Arrays.copyOf(Keys.archive(1), 8), KeyFamily.ARCHIVE);
    corrupt(ClearedKey::decode, Arrays.copyOf(Keys.cleared(1), 10), KeyFamily.CLEARED);
    corrupt(HookKey::decode, new byte[7], KeyFamily.HOOK);
    corrupt(DeliveryKey::decode, new byte[8], KeyFamily.DELIVERY);
    corrupt(CounterKey::decode, new byte[6], KeyFamily.COUNTERS);
    corrupt(TenantByOrdKey::decode, Arrays.copyOf(Keys.tenantByOrd(3), 6), KeyFamily.TENANT_BY_ORD);
    corrupt(AuditKey::decode, Arrays.copyOf(Keys.audit(1, 2), 9), KeyFamily.AUDIT);
    corrupt(OrdByTenantKey::decode, new byte[] {'n'}, KeyFamily.ORD_BY_TENANT);
  }

  @Test
  void wrongPrefix() {
    byte[] inflightAsDue = Arrays.copyOf(Keys.inflight(7, 42, 1), 23);
    corrupt(DueKey::decode, inflightAsDue, KeyFamily.DUE).hasMessageContaining("prefix");
    corrupt(DueKey::decode, Keys.deadByTenant(7, 1, 2, 3), KeyFamily.DUE)
        .hasMessageContaining("prefix");
    corrupt(DeadByTenantKey::decode, Keys.due(7, 1, 2, 3), KeyFamily.DEAD_BY_TENANT);
    corrupt(ArchiveKey::decode, Keys.cleared(5), KeyFamily.ARCHIVE);
    corrupt(OrdByTenantKey::decode, Keys.tenantByOrd(5), KeyFamily.ORD_BY_TENANT);
    corrupt(DedupeKey::decode, Keys.expiry(1, TenantId.DEFAULT, new byte[] {1}), KeyFamily.DEDUPE);
  }

  @Test
  void sentinelsAreNotRealKeys() {
    corrupt(DueKey::decode, Keys.family(KeyFamily.DUE).lo(), KeyFamily.DUE);
    corrupt(DueKey::decode, Keys.family(KeyFamily.DUE).hi(), KeyFamily.DUE);
    corrupt(CounterKey::decode, Keys.family(KeyFamily.COUNTERS).lo(), KeyFamily.COUNTERS)
        .hasMessageContaining("field byte 0");
    corrupt(CounterKey::decode, Keys.family(KeyFamily.COUNTERS).hi(), KeyFamily.COUNTERS);
    corrupt(
        OrdByTenantKey::decode, Keys.family(KeyFamily.ORD_BY_TENANT).hi(), KeyFamily.ORD_BY_TENANT);
    corrupt(HookKey::decode, Keys.family(KeyFamily.HOOK).hi(), KeyFamily.HOOK); // FF×8: seq < 0
  }

  @Test
  void fieldsOutOfRange() {
    byte[] ordZero = Keys.due(1, 2, 3, 4);
    ordZero[4] = 0;
    corrupt(DueKey::decode, ordZero, KeyFamily.DUE).hasMessageContaining("ord 0");
    byte[] negativeAt = Keys.due(1, 2, 3, 4);
    negativeAt[5] = (byte) 0x80;
    corrupt(DueKey::decode, negativeAt, KeyFamily.DUE).hasMessageContaining("at ");
    corrupt(TenantByOrdKey::decode, new byte[] {'t', -1, -1, -1, -1}, KeyFamily.TENANT_BY_ORD)
        .hasMessageContaining("ord 4294967295");
    corrupt(CounterKey::decode, new byte[] {0, 0, 0, 1, 7}, KeyFamily.COUNTERS)
        .hasMessageContaining("field byte 7");
    corrupt(OrdByTenantKey::decode, new byte[] {'n', 'a', 0, 'b'}, KeyFamily.ORD_BY_TENANT)
        .hasMessageContaining("NUL");
    corrupt(DedupeKey::decode, new byte[] {'u', 'a', 'b'}, KeyFamily.DEDUPE)
        .hasMessageContaining("no 0x00");
    corrupt(DedupeKey::decode, new byte[] {'u', 0, 'b'}, KeyFamily.DEDUPE)
        .hasMessageContaining("0 bytes");
    corrupt(
            ExpiryKey::decode,
            Arrays.copyOf(Keys.expiry(5, TenantId.DEFAULT, new byte[0]), 12),
            KeyFamily.EXPIRY)
        .hasMessageContaining("no 0x00");
  }

  @Test
  void badValues() {
    byte[] key = Keys.due(1, 2, 3, 4);
    assertThatThrownBy(() -> DueValue.decodeAt(key, new byte[] {0, 0, 0, 1, 2}))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("DUE value 0000000102 at key " + Bytes.hex(key))
        .hasMessageContaining("'index'")
        .hasMessageContaining("kind 2")
        .hasMessageContaining(DueValue.SHAPE);
    assertThatThrownBy(() -> DueValue.decode(new byte[4]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("is 4 bytes");
    assertThatThrownBy(() -> InflightValue.decode(new byte[5]))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> ArchiveValue.decode(new byte[8]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("ord 0");
    assertThatThrownBy(() -> OrdinalValue.decode(new byte[] {-1, -1, -1, -1}))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("ORD_BY_TENANT");
    assertThatThrownBy(() -> NextOrdinalValue.decode(new byte[4]))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> AggregateShardsValue.decode(new byte[] {8}))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("META");
    assertThatThrownBy(() -> AggregateShardsValue.decode(new byte[2]))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> FormatStampValue.decode(new byte[] {-1, 0, 0, 0}))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> DedupeValue.decode(new byte[] {-1, 0, 0, 0, 0, 0, 0, 0}))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> TenantByOrdValue.decode(new byte[] {(byte) 0xC0}))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("TENANT_BY_ORD");
    assertThatThrownBy(
            () -> EmptyValue.requireEmpty(KeyFamily.ACTIVE, Keys.active(1, 1), new byte[1]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("ACTIVE");
  }

  @Test
  void badDeadValues() {
    byte[] good = DeadValue.of(3, "src", "hook").encode();
    assertThatThrownBy(() -> DeadValue.decode(Arrays.copyOf(good, good.length - 1)))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("hook id length 4");
    assertThatThrownBy(() -> DeadValue.decode(Arrays.copyOf(good, good.length + 1)))
        .isInstanceOf(StoreCorruptionException.class);
    byte[] longSource = good.clone();
    longSource[7] = 100;
    assertThatThrownBy(() -> DeadValue.decode(longSource))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("source id length 100");
    byte[] hugeSource = good.clone();
    hugeSource[4] = (byte) 0xFF;
    assertThatThrownBy(() -> DeadValue.decode(hugeSource))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> DeadValue.decode(new byte[11]))
        .isInstanceOf(StoreCorruptionException.class);
    assertThatThrownBy(() -> DeadValue.decode(new byte[12]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("ord 0");
  }
}
