package io.ankusa.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The builder of {@link Capabilities}: nothing set gives the defaults its javadoc documents, and
 * each setter changes its own claim and no other.
 */
class CapabilitiesTest {
  /** The defaults as the class javadoc states them, spelled out by position on purpose. */
  @SuppressWarnings("deprecation")
  private static final Capabilities DOCUMENTED_DEFAULTS =
      new Capabilities(false, false, false, false, false, 1024, 2 << 20);

  @Test
  void aBuilderWithNothingSetGivesTheDocumentedDefaults() {
    Capabilities built = Capabilities.builder().build();
    assertThat(built).isEqualTo(DOCUMENTED_DEFAULTS);
    assertThat(built.maxKeyBytes()).isEqualTo(Capabilities.DEFAULT_MAX_KEY_BYTES);
    assertThat(built.maxValueBytes()).isEqualTo(Capabilities.DEFAULT_MAX_VALUE_BYTES);
  }

  @Test
  @SuppressWarnings("deprecation")
  void concurrentWritersSetsOnlyItsClaim() {
    assertThat(Capabilities.builder().concurrentWriters(true).build())
        .isEqualTo(new Capabilities(true, false, false, false, false, 1024, 2 << 20));
  }

  @Test
  @SuppressWarnings("deprecation")
  void snapshotsSetsOnlyItsClaim() {
    assertThat(Capabilities.builder().snapshots(true).build())
        .isEqualTo(new Capabilities(false, true, false, false, false, 1024, 2 << 20));
  }

  @Test
  @SuppressWarnings("deprecation")
  void durableAfterProcessKillSetsOnlyItsClaim() {
    assertThat(Capabilities.builder().durableAfterProcessKill(true).build())
        .isEqualTo(new Capabilities(false, false, true, false, false, 1024, 2 << 20));
  }

  @Test
  @SuppressWarnings("deprecation")
  void detectsDamageSetsOnlyItsClaim() {
    assertThat(Capabilities.builder().detectsDamage(true).build())
        .isEqualTo(new Capabilities(false, false, false, true, false, 1024, 2 << 20));
  }

  @Test
  @SuppressWarnings("deprecation")
  void filesInDirectorySetsOnlyItsClaim() {
    assertThat(Capabilities.builder().filesInDirectory(true).build())
        .isEqualTo(new Capabilities(false, false, false, false, true, 1024, 2 << 20));
  }

  @Test
  @SuppressWarnings("deprecation")
  void maxKeyBytesSetsOnlyItsClaim() {
    assertThat(Capabilities.builder().maxKeyBytes(511).build())
        .isEqualTo(new Capabilities(false, false, false, false, false, 511, 2 << 20));
  }

  @Test
  @SuppressWarnings("deprecation")
  void maxValueBytesSetsOnlyItsClaim() {
    assertThat(Capabilities.builder().maxValueBytes(64 << 20).build())
        .isEqualTo(new Capabilities(false, false, false, false, false, 1024, 64 << 20));
  }

  @Test
  void aSetterCanTakeAClaimBack() {
    assertThat(Capabilities.builder().snapshots(true).snapshots(false).build())
        .isEqualTo(DOCUMENTED_DEFAULTS);
  }

  @Test
  void toBuilderCopiesEveryClaim() {
    Capabilities all =
        Capabilities.builder()
            .concurrentWriters(true)
            .snapshots(true)
            .durableAfterProcessKill(true)
            .detectsDamage(true)
            .filesInDirectory(true)
            .maxKeyBytes(511)
            .maxValueBytes(64 << 20)
            .build();
    assertThat(all.toBuilder().build()).isEqualTo(all);
    assertThat(all.toBuilder().detectsDamage(false).build().detectsDamage()).isFalse();
  }

  @Test
  void sizesBelow32BytesAreRefusedByTheBuilderToo() {
    assertThatThrownBy(() -> Capabilities.builder().maxKeyBytes(31).build())
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("at least 32 bytes");
    assertThatThrownBy(() -> Capabilities.builder().maxValueBytes(31).build())
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("at least 32 bytes");
  }

  @Test
  @SuppressWarnings("deprecation")
  void theConstructorOfTheEightFlagReleaseStillBuildsTheSevenClaims() {
    assertThat(new Capabilities(true, true, true, false, true, 4096, 1 << 20, true))
        .isEqualTo(
            Capabilities.builder()
                .concurrentWriters(true)
                .snapshots(true)
                .durableAfterProcessKill(true)
                .filesInDirectory(true)
                .maxKeyBytes(4096)
                .maxValueBytes(1 << 20)
                .build());
  }
}
