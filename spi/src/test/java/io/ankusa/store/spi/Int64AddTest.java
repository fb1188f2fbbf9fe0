package io.ankusa.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class Int64AddTest {

  @Property
  void encodingIsLittleEndianAndRoundTrips(@ForAll long value) {
    byte[] bytes = Int64Add.encode(value);
    assertThat(bytes)
        .containsExactly(
            ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    assertThat(Int64Add.decode("counters", new byte[] {1}, bytes)).isEqualTo(value);
  }

  @Test
  void additionWrapsAround() {
    assertThat(Int64Add.apply(Long.MAX_VALUE, 1)).isEqualTo(Long.MIN_VALUE);
    assertThat(Int64Add.apply(0, -1)).isEqualTo(-1);
  }

  @Test
  void wrongWidthIsCorruptionNamingFamilyAndKey() {
    assertThatThrownBy(
            () -> Int64Add.decode("counters", new byte[] {0x0a, (byte) 0xff}, new byte[3]))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("counters")
        .hasMessageContaining("0aff")
        .hasMessageContaining("3 bytes");
  }
}
