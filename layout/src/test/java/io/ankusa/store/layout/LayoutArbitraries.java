package io.ankusa.store.layout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generators of field values and real keys of every family, edge values included. */
final class LayoutArbitraries {
  private LayoutArbitraries() {}

  /** A real key and the family it belongs to. */
  record FamilyKey(KeyFamily family, byte[] key) {
    @Override
    public String toString() {
      return family + ":" + io.ankusa.store.spi.Bytes.hex(key);
    }
  }

  static Arbitrary<Long> ords() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(1, Fields.MAX_ORDINAL),
        Arbitraries.longs().between(1, 20),
        Arbitraries.of(1L, 255L, 256L, 65_536L, Fields.MAX_ORDINAL - 1, Fields.MAX_ORDINAL));
  }

  static Arbitrary<Long> counterOrds() {
    return Arbitraries.oneOf(ords(), Arbitraries.just(0L));
  }

  /** Non-negative longs, with small values and the top of the range often. */
  static Arbitrary<Long> u63() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, Long.MAX_VALUE),
        Arbitraries.longs().between(0, 3_000),
        Arbitraries.longs().between(1_700_000_000_000L, 1_700_000_010_000L),
        Arbitraries.of(0L, 255L, 256L, 0xFFFF_FFFFL, 1L << 32, Long.MAX_VALUE - 1, Long.MAX_VALUE));
  }

  static Arbitrary<Integer> sinks() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(0, Fields.MAX_SINK),
        Arbitraries.integers().between(0, 4),
        Arbitraries.of(0, 255, 256, Fields.MAX_SINK));
  }

  static Arbitrary<Long> u32() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, Fields.MAX_U32),
        Arbitraries.of(0L, 255L, 256L, Fields.MAX_U32));
  }

  /** Valid tenant ids: ASCII, any non-surrogate code points except NUL, and 255-byte ones. */
  static Arbitrary<TenantId> tenants() {
    Arbitrary<String> ascii =
        Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(20);
    Arbitrary<String> unicode =
        Arbitraries.integers()
            .between(1, Character.MAX_CODE_POINT)
            .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
            .list()
            .ofMinSize(1)
            .ofMaxSize(40)
            .map(LayoutArbitraries::fromCodePoints)
            .filter(s -> s.getBytes(StandardCharsets.UTF_8).length <= TenantId.MAX_BYTES);
    Arbitrary<String> longest = Arbitraries.strings().withCharRange('a', 'z').ofLength(255);
    return Arbitraries.oneOf(ascii, unicode, longest, Arbitraries.just(TenantId.DEFAULT_NAME))
        .map(TenantId::of);
  }

  static String fromCodePoints(List<Integer> cps) {
    StringBuilder sb = new StringBuilder();
    cps.forEach(sb::appendCodePoint);
    return sb.toString();
  }

  static Arbitrary<byte[]> idempotencyKeys() {
    return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(40);
  }

  /** A real key of every key family (all families equally likely). */
  static Arbitrary<FamilyKey> realKeys() {
    return Arbitraries.oneOf(
        List.of(
            u63().map(s -> new FamilyKey(KeyFamily.HOOK, Keys.hook(s))),
            Combinators.combine(u63(), sinks())
                .as((s, k) -> new FamilyKey(KeyFamily.DELIVERY, Keys.delivery(s, k))),
            ords().map(o -> new FamilyKey(KeyFamily.TENANT_BY_ORD, Keys.tenantByOrd(o))),
            tenants().map(t -> new FamilyKey(KeyFamily.ORD_BY_TENANT, Keys.ordByTenant(t))),
            Arbitraries.of(
                    Keys.nextOrd(), Keys.formatStamp(), Keys.migrating(3), Keys.migrating(12))
                .map(k -> new FamilyKey(KeyFamily.META, k)),
            Combinators.combine(ords(), u63(), u63(), sinks())
                .as((o, a, s, k) -> new FamilyKey(KeyFamily.DUE, Keys.due(o, a, s, k))),
            Combinators.combine(ords(), u63(), sinks())
                .as((o, s, k) -> new FamilyKey(KeyFamily.INFLIGHT, Keys.inflight(o, s, k))),
            Combinators.combine(u63(), u63(), sinks())
                .as((a, s, k) -> new FamilyKey(KeyFamily.DEAD, Keys.dead(a, s, k))),
            Combinators.combine(ords(), u63(), u63(), sinks())
                .as(
                    (o, a, s, k) ->
                        new FamilyKey(KeyFamily.DEAD_BY_TENANT, Keys.deadByTenant(o, a, s, k))),
            u63().map(s -> new FamilyKey(KeyFamily.ARCHIVE, Keys.archive(s))),
            Combinators.combine(u63(), ords())
                .as((b, o) -> new FamilyKey(KeyFamily.ACTIVE, Keys.active(b, o))),
            u63().map(s -> new FamilyKey(KeyFamily.CLEARED, Keys.cleared(s))),
            Combinators.combine(tenants(), idempotencyKeys())
                .as((t, k) -> new FamilyKey(KeyFamily.DEDUPE, Keys.dedupe(t, k))),
            Combinators.combine(u63(), tenants(), idempotencyKeys())
                .as((a, t, k) -> new FamilyKey(KeyFamily.EXPIRY, Keys.expiry(a, t, k))),
            Combinators.combine(counterOrds(), Arbitraries.of(CounterField.class))
                .as((o, f) -> new FamilyKey(KeyFamily.COUNTERS, Keys.counter(o, f))),
            Combinators.combine(u63(), u63())
                .as((s, a) -> new FamilyKey(KeyFamily.AUDIT, Keys.audit(s, a)))));
  }
}
