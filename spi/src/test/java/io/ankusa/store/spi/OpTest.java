package io.ankusa.store.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Op#pointKey}: the op's own key array for the three point ops, null for a range delete. */
class OpTest {

  @Test
  void pointKeyIsThePointOpsOwnKeyAndNullForARange() {
    byte[] key = {1, 2};
    assertThat(new Op.Put("f", key, new byte[0]).pointKey()).isSameAs(key);
    assertThat(new Op.Delete("f", key).pointKey()).isSameAs(key);
    assertThat(new Op.Merge("f", key, 5).pointKey()).isSameAs(key);
    assertThat(new Op.DeleteRange("f", key, new byte[] {3}).pointKey()).isNull();
  }
}
