package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The demo's heap rule, with the JVM's maximum heap given rather than measured. */
class DemoLimitsTest {
  private static final long GIB = 1L << 30;

  @Test
  void whatFitsInHalfTheHeapRuns() {
    DemoLimits.check(200, 4, 10, 0.1, 0.03, 0.05, GIB);
    DemoLimits.check(1_000_000, 1, 1, 0, 0, 0, GIB);
  }

  @Test
  void whatDoesNotFitIsRefusedNamingTheLimit() {
    // 256 producers hold about 737 MiB (2.8 MiB of requests each, 4 Mi samples shared): more than
    // half of a 1 GiB heap; about 3 MiB each, so 177 fit
    assertThatThrownBy(() -> DemoLimits.check(200, 256, 10, 0.1, 0.03, 0.05, GIB))
        .isInstanceOf(CommandInputException.class)
        .hasMessageContaining("maximum heap (1024 MiB, -Xmx)")
        .hasMessageContaining("at most 177 producers");
    // a million tenants cost 8 MB per producer on top of its samples and requests
    assertThatThrownBy(() -> DemoLimits.check(1_000_000, 100, 10, 0.1, 0.03, 0.05, 2 * GIB))
        .hasMessageContaining("--producers 100 with --tenants 1000000");
    assertThat(DemoLimits.heapNeeded(1_000_000, 100)).isGreaterThan(GIB);
  }
}
