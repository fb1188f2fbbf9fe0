package io.ankusa.store.queue.internal.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.layout.DedupeKey;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The writer's dedupe row keys are equal exactly when the dedupe keys they stand for are. */
class DedupeRowKeyTest {

  @Property
  void equalExactlyWhenTenantAndKeyAre(
      @ForAll("tenants") String t1,
      @ForAll("keys") String k1,
      @ForAll("tenants") String other,
      @ForAll("keys") String otherKey,
      @ForAll boolean sameTenant,
      @ForAll boolean sameKey) {
    String t2 = sameTenant ? new String(t1) : other;
    String k2 = sameKey ? new String(k1) : otherKey;
    DedupeRowKey a = DedupeRowKey.of(TenantId.of(t1), k1.getBytes(StandardCharsets.UTF_8));
    DedupeRowKey b = DedupeRowKey.of(TenantId.of(t2), k2.getBytes(StandardCharsets.UTF_8));
    boolean same =
        new DedupeKey(TenantId.of(t1), k1.getBytes(StandardCharsets.UTF_8))
            .equals(new DedupeKey(TenantId.of(t2), k2.getBytes(StandardCharsets.UTF_8)));
    assertThat(a.equals(b)).isEqualTo(same);
    if (same) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
    assertThat(a.rowKey())
        .isEqualTo(Keys.dedupe(TenantId.of(t1), k1.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void equalHashesDoNotMakeEqualKeys() {
    // "Aa" and "BB" hash alike (31 * 'A' + 'a' == 31 * 'B' + 'B'), and so do the row keys built on
    // them.
    DedupeRowKey a = DedupeRowKey.of(TenantId.of("Aa"), new byte[] {'k'});
    DedupeRowKey b = DedupeRowKey.of(TenantId.of("BB"), new byte[] {'k'});
    assertThat(a.hashCode()).isEqualTo(b.hashCode());
    assertThat(a).isNotEqualTo(b);
  }

  /**
   * Few letters, so that equal pairs and prefix-sharing pairs ("a" + "bc" against "ab" + "c") come
   * up often.
   */
  @Provide
  Arbitrary<String> tenants() {
    return Arbitraries.strings().withChars("ab").ofMinLength(1).ofMaxLength(3);
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.strings().withChars("abc\u0000").ofMinLength(1).ofMaxLength(3);
  }
}
