package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import org.junit.jupiter.api.Test;

/**
 * The {@code lmdb.*} limits accept their bounds and refuse one step past them, naming the option;
 * the map grows by doubling, capped at the maximum in whole pages, without overflowing whatever the
 * maximum.
 */
class LmdbSettingsTest {
  private static final long PAGE = 4096;
  private static final long MIN = LmdbSettings.MIN_MAP_SIZE;

  private static LmdbSettings settings(long map, long max, int readers, long waitMillis) {
    return new LmdbSettings(map, max, readers, waitMillis, true);
  }

  @Test
  void everyLimitAcceptsItsBounds() {
    LmdbSettings smallest =
        settings(MIN, MIN, 1, 0); // the smallest map, no room to grow, one reader, no wait
    assertThat(smallest.mapSizeBytes()).isEqualTo(MIN);
    assertThat(smallest.mapSizeMaxBytes()).isEqualTo(MIN);
    assertThat(settings(MIN, MIN, 65_536, 0).maxReaders()).isEqualTo(65_536);
    assertThat(
            LmdbSettings.from(StoreOptions.defaults().with(LmdbSettings.MAX_READERS, "1"))
                .maxReaders())
        .isEqualTo(1);
    assertThat(
            LmdbSettings.from(StoreOptions.defaults().with(LmdbSettings.MAX_READERS, "65536"))
                .maxReaders())
        .isEqualTo(65_536);
  }

  @Test
  void oneStepPastALimitIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> settings(MIN - 1, MIN, 1, 0))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining(LmdbSettings.MAP_SIZE);
    assertThatThrownBy(() -> settings(MIN + PAGE, MIN, 1, 0))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining(LmdbSettings.MAP_SIZE_MAX);
    assertThatThrownBy(() -> settings(MIN, MIN, 0, 0))
        .hasMessageContaining(LmdbSettings.MAX_READERS);
    assertThatThrownBy(() -> settings(MIN, MIN, 65_537, 0))
        .hasMessageContaining(LmdbSettings.MAX_READERS);
    assertThatThrownBy(() -> settings(MIN, MIN, 1, -1))
        .hasMessageContaining(LmdbSettings.MAP_GROW_WAIT);
    for (String readers : new String[] {"0", "65537"}) {
      assertThatThrownBy(
              () ->
                  LmdbSettings.from(
                      StoreOptions.defaults().with(LmdbSettings.MAX_READERS, readers)))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining(LmdbSettings.MAX_READERS + "=" + readers);
    }
  }

  @Test
  void theMapDoublesUpToTheMaximumInWholePages() {
    LmdbSettings s = settings(MIN, 1L << 30, 1, 0);
    assertThat(s.grownFrom(MIN)).isEqualTo(2 * MIN);
    assertThat(s.grownFrom(100 * PAGE + 1)).as("whole pages").isEqualTo(200 * PAGE);
    assertThat(s.grownFrom(3L << 28)).as("capped").isEqualTo(1L << 30);
    assertThat(s.grownFrom((1L << 30) - PAGE)).isEqualTo(1L << 30);
  }

  @Test
  void growthNearTheLargestMaximumStopsAtItInsteadOfOverflowing() {
    LmdbSettings s = settings(MIN, Long.MAX_VALUE, 1, 0);
    long max = s.mapSizeMaxBytes();
    assertThat(max).isEqualTo(Long.MAX_VALUE / PAGE * PAGE);
    assertThat(s.grownFrom(MIN))
        .as("far below the maximum the map still doubles")
        .isEqualTo(2 * MIN);
    assertThat(s.grownFrom(max - PAGE)).isEqualTo(max);
    assertThat(s.grownFrom(max / 2 + PAGE)).isEqualTo(max);
  }
}
