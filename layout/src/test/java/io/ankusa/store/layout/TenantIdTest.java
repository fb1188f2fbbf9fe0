package io.ankusa.store.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.StoreArgumentException;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class TenantIdTest {

  @Test
  void nullIsTheDefaultTenant() {
    assertThat(TenantId.of(null)).isSameAs(TenantId.DEFAULT);
    assertThat(TenantId.DEFAULT.value()).isEqualTo("default");
    assertThat(TenantId.of("default")).isEqualTo(TenantId.DEFAULT);
    assertThat(TenantId.of("default").isDefault()).isTrue();
    assertThat(TenantId.DEFAULT.bytes()).isEqualTo("default".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void emptyIsRefused() {
    assertThatThrownBy(() -> TenantId.of(""))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("is 0 bytes")
        .hasMessageContaining("tenant ids are 1..255 bytes of UTF-8 without NUL");
  }

  @Test
  void nulIsRefused() {
    assertThatThrownBy(() -> TenantId.of("ac\0me"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("NUL at index 2")
        .hasMessageContaining("without NUL");
    assertThatThrownBy(() -> TenantId.fromUtf8(new byte[] {'a', 0}))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("NUL");
  }

  @Test
  void over255BytesIsRefused() {
    assertThatThrownBy(() -> TenantId.of("a".repeat(256)))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("is 256 bytes; tenant ids are 1..255 bytes of UTF-8 without NUL");
    assertThatThrownBy(() -> TenantId.of("a".repeat(300)))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("is 300 bytes");
  }

  @Test
  void bytesCountNotChars() {
    // 85 three-byte chars = 255 bytes: accepted; one more two-byte char makes 257: refused.
    String euro85 = "€".repeat(85);
    assertThat(TenantId.of(euro85).byteLength()).isEqualTo(255);
    assertThat(TenantId.of("a".repeat(255)).byteLength()).isEqualTo(255);
    assertThatThrownBy(() -> TenantId.of(euro85 + "é"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("is 257 bytes");
    // 64 four-byte chars (surrogate pairs) = 256 bytes, only 128 chars
    assertThatThrownBy(() -> TenantId.of("😀".repeat(64))).hasMessageContaining("is 256 bytes");
    assertThat(TenantId.of("😀".repeat(63)).byteLength()).isEqualTo(252);
  }

  @Test
  void unpairedSurrogateIsRefused() {
    assertThatThrownBy(() -> TenantId.of("ab\uD83D"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("unpaired surrogate at index 2");
    assertThatThrownBy(() -> TenantId.of("\uDE00x"))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("unpaired surrogate at index 0");
    assertThatThrownBy(() -> TenantId.of("\uD83D\uD83D\uDE00"))
        .hasMessageContaining("unpaired surrogate at index 0");
  }

  @Test
  void malformedUtf8BytesAreRefused() {
    assertThatThrownBy(() -> TenantId.fromUtf8(new byte[] {'a', (byte) 0xFF}))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("not well-formed UTF-8")
        .hasMessageContaining("61ff");
    // an encoded surrogate (CESU-style) is not UTF-8
    assertThatThrownBy(() -> TenantId.fromUtf8(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}))
        .isInstanceOf(StoreArgumentException.class);
    assertThatThrownBy(() -> TenantId.fromUtf8(new byte[0])).hasMessageContaining("is 0 bytes");
  }

  @Test
  void bytesAreACopy() {
    TenantId t = TenantId.of("acme");
    t.bytes()[0] = 'X';
    assertThat(t.bytes()).isEqualTo("acme".getBytes(StandardCharsets.UTF_8));
  }

  @Provide
  Arbitrary<TenantId> tenant() {
    return LayoutArbitraries.tenants();
  }

  @Property
  void validIdsRoundTripThroughUtf8(@ForAll("tenant") TenantId t) {
    assertThat(new String(t.bytes(), StandardCharsets.UTF_8)).isEqualTo(t.value());
    assertThat(TenantId.fromUtf8(t.bytes())).isEqualTo(t);
    assertThat(t.bytes()).doesNotContain((byte) 0, (byte) 0xFF);
    assertThat(t.byteLength()).isBetween(1, 255);
  }
}
