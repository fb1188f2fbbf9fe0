package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every key and value decodes to what it was built from. */
class RoundTripTest {

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
  Arbitrary<Long> u32() {
    return LayoutArbitraries.u32();
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

  @Property
  void dueKey(
      @ForAll("ord") long ord,
      @ForAll("u63") long at,
      @ForAll("u63") long seq,
      @ForAll("sink") int sink) {
    byte[] key = Keys.due(ord, at, seq, sink);
    assertThat(key).hasSize(23).startsWith((byte) 'D');
    assertThat(DueKey.decode(key)).isEqualTo(new DueKey(ord, at, seq, sink));
  }

  @Property
  void inflightKey(@ForAll("ord") long ord, @ForAll("u63") long seq, @ForAll("sink") int sink) {
    assertThat(InflightKey.decode(Keys.inflight(ord, seq, sink)))
        .isEqualTo(new InflightKey(ord, seq, sink));
  }

  @Property
  void deadKeys(
      @ForAll("ord") long ord,
      @ForAll("u63") long at,
      @ForAll("u63") long seq,
      @ForAll("sink") int sink) {
    assertThat(DeadKey.decode(Keys.dead(at, seq, sink))).isEqualTo(new DeadKey(at, seq, sink));
    assertThat(DeadByTenantKey.decode(Keys.deadByTenant(ord, at, seq, sink)))
        .isEqualTo(new DeadByTenantKey(ord, at, seq, sink));
  }

  @Property
  void activeKey(@ForAll("u63") long at, @ForAll("ord") long ord) {
    long bucket = ActiveKey.bucketOf(at);
    assertThat(bucket).isEqualTo(at / 1000);
    assertThat(ActiveKey.decode(Keys.active(bucket, ord))).isEqualTo(new ActiveKey(bucket, ord));
  }

  @Property
  void seqKeys(@ForAll("u63") long seq, @ForAll("u63") long at, @ForAll("sink") int sink) {
    assertThat(HookKey.decode(Keys.hook(seq))).isEqualTo(new HookKey(seq));
    assertThat(DeliveryKey.decode(Keys.delivery(seq, sink))).isEqualTo(new DeliveryKey(seq, sink));
    assertThat(ArchiveKey.decode(Keys.archive(seq))).isEqualTo(new ArchiveKey(seq));
    assertThat(ClearedKey.decode(Keys.cleared(seq))).isEqualTo(new ClearedKey(seq));
    assertThat(AuditKey.decode(Keys.audit(seq, at))).isEqualTo(new AuditKey(seq, at));
  }

  @Property
  void tenantKeys(@ForAll("ord") long ord, @ForAll("tenant") TenantId tenant) {
    assertThat(TenantByOrdKey.decode(Keys.tenantByOrd(ord))).isEqualTo(new TenantByOrdKey(ord));
    assertThat(OrdByTenantKey.decode(Keys.ordByTenant(tenant)))
        .isEqualTo(new OrdByTenantKey(tenant));
  }

  @Property
  void counterKey(@ForAll("counterOrd") long ord, @ForAll CounterField field) {
    byte[] key = Keys.counter(ord, field);
    assertThat(key).hasSize(5);
    assertThat(CounterKey.decode(key)).isEqualTo(new CounterKey(ord, field));
  }

  @Property
  void dedupeAndExpiryKeys(
      @ForAll("tenant") TenantId tenant, @ForAll("idem") byte[] idem, @ForAll("u63") long at) {
    assertThat(DedupeKey.decode(Keys.dedupe(tenant, idem))).isEqualTo(new DedupeKey(tenant, idem));
    assertThat(ExpiryKey.decode(Keys.expiry(at, tenant, idem)))
        .isEqualTo(new ExpiryKey(at, tenant, idem));
  }

  @Property
  void dueAndInflightValues(@ForAll("u32") long size, @ForAll DueKind kind) {
    byte[] due = new DueValue(size, kind).encode();
    assertThat(due).hasSize(5);
    assertThat(DueValue.decode(due)).isEqualTo(new DueValue(size, kind));
    assertThat(InflightValue.decode(new InflightValue(size).encode()))
        .isEqualTo(new InflightValue(size));
  }

  @Property
  void archiveAndOrdinalValues(@ForAll("u32") long size, @ForAll("ord") long ord) {
    assertThat(ArchiveValue.decode(new ArchiveValue(size, ord).encode()))
        .isEqualTo(new ArchiveValue(size, ord));
    assertThat(OrdinalValue.decode(new OrdinalValue(ord).encode()))
        .isEqualTo(new OrdinalValue(ord));
    assertThat(NextOrdinalValue.decode(new NextOrdinalValue(ord + 1).encode()))
        .isEqualTo(new NextOrdinalValue(ord + 1));
  }

  @Property
  void deadValue(
      @ForAll("ord") long ord, @ForAll("idem") byte[] source, @ForAll("idem") byte[] hook) {
    byte[] encoded = new DeadValue(ord, source, hook).encode();
    assertThat(encoded).hasSize(12 + source.length + hook.length);
    DeadValue decoded = DeadValue.decode(encoded);
    assertThat(decoded).isEqualTo(new DeadValue(ord, source, hook));
    assertThat(decoded.sourceId()).isEqualTo(source);
    assertThat(decoded.hookId()).isEqualTo(hook);
  }

  @Property
  void tenantValues(@ForAll("tenant") TenantId tenant, @ForAll("u63") long seq) {
    assertThat(TenantByOrdValue.decode(TenantByOrdValue.of(tenant).encode()).tenant())
        .isEqualTo(tenant);
    assertThat(DedupeValue.decode(new DedupeValue(seq).encode())).isEqualTo(new DedupeValue(seq));
    assertThat(TenantId.fromUtf8(tenant.bytes())).isEqualTo(tenant);
  }

  @Property
  void formatStamp(@ForAll("u32") long format) {
    int f = (int) Math.max(1, Math.min(format, Integer.MAX_VALUE));
    assertThat(FormatStampValue.decode(new FormatStampValue(f).encode()))
        .isEqualTo(new FormatStampValue(f));
  }

  @Property
  void integersAreBigEndian(@ForAll("u32") long v32, @ForAll long v64, @ForAll("sink") int v16) {
    byte[] b = new byte[14];
    UnsignedBigEndian.putU16(
        b, UnsignedBigEndian.putU64(b, UnsignedBigEndian.putU32(b, 0, v32), v64), v16);
    assertThat(java.nio.ByteBuffer.wrap(b).getInt(0) & 0xFFFF_FFFFL).isEqualTo(v32);
    assertThat(java.nio.ByteBuffer.wrap(b).getLong(4)).isEqualTo(v64);
    assertThat(java.nio.ByteBuffer.wrap(b).getShort(12) & 0xFFFF).isEqualTo(v16);
    assertThat(UnsignedBigEndian.u32(b, 0)).isEqualTo(v32);
    assertThat(UnsignedBigEndian.u64(b, 4)).isEqualTo(v64);
    assertThat(UnsignedBigEndian.u16(b, 12)).isEqualTo(v16);
  }

  @net.jqwik.api.Example
  void valueEdgeCases() {
    assertThat(TenantByOrdValue.ERASED.encode()).isEmpty();
    assertThat(TenantByOrdValue.decode(new byte[0]).isErased()).isTrue();
    assertThat(FormatStampValue.FORMAT_3.encode()).containsExactly(0, 0, 0, 3);
    assertThat(NextOrdinalValue.FIRST.encode()).containsExactly(0, 0, 0, 1);
    assertThat(AggregateShardsValue.decode(AggregateShardsValue.SHARDED.encode()))
        .isEqualTo(AggregateShardsValue.of(true));
    assertThat(AggregateShardsValue.decode(AggregateShardsValue.UNSHARDED.encode()).sharded())
        .isFalse();
    assertThat(AggregateShardsValue.SHARDED.encode()).containsExactly(16);
    assertThat(Keys.aggregateShards())
        .isEqualTo("m:aggregate_shards".getBytes(StandardCharsets.US_ASCII));
    assertThat(NextOrdinalValue.decode(new byte[] {-1, -1, -1, -1}).tenantCount())
        .isEqualTo(Fields.MAX_ORDINAL);
    assertThat(new DueValue(7, DueKind.RETRY).encode()).containsExactly(0, 0, 0, 7, 1);
    assertThat(DeadValue.of(3, "src", "h1").encode())
        .containsExactly(0, 0, 0, 3, 0, 0, 0, 3, 's', 'r', 'c', 0, 0, 0, 2, 'h', '1');
    assertThat(Keys.nextOrd()).isEqualTo("m:next_ord".getBytes(StandardCharsets.US_ASCII));
    assertThat(Keys.formatStamp()).isEqualTo("m:format".getBytes(StandardCharsets.US_ASCII));
    assertThat(Keys.migrating(3)).isEqualTo("m:migrating:3".getBytes(StandardCharsets.US_ASCII));
    assertThat(Keys.due(1, 2, 3, 4))
        .containsExactly('D', 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 4);
    assertThat(Keys.counter(0, CounterField.ARCHIVE_PENDING)).containsExactly(0, 0, 0, 0, 6);
    EmptyValue.requireEmpty(KeyFamily.ACTIVE, Keys.active(1, 1), EmptyValue.encode());
  }
}
