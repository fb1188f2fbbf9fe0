package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an open refuses, with a message a person can act on: families the caller did not list (an
 * older release meeting a newer store; property {@code openRefusesUnlistedFamilies}), a counters
 * setting different from the one a family was created with, and a missing store when creation was
 * not asked for. A refused open changes nothing: the store opens normally afterwards.
 */
class FormatRefusalTest {
  @TempDir Path dir;
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();

  @Test
  void unlistedFamiliesAreRefusedByName() {
    List<FamilySpec> newer =
        List.of(
            FamilySpec.plain("hooks"),
            FamilySpec.plain("audit"),
            FamilySpec.counters("counters", 0));
    try (Store s = provider.open(dir, StoreOptions.defaults(), newer)) {
      s.write(new Batch().put("audit", new byte[] {1}, new byte[] {2}), Durability.SYNC);
    }
    List<FamilySpec> older = List.of(FamilySpec.plain("hooks"));
    assertThatThrownBy(() -> provider.open(dir, StoreOptions.defaults(), older))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("audit")
        .hasMessageContaining("counters")
        .hasMessageContaining("newer release")
        .hasMessageContaining(dir.toString());
    try (Store s = provider.open(dir, StoreOptions.defaults(), newer)) {
      assertThat(s.get("audit", new byte[] {1}))
          .as("a refused open changed nothing")
          .containsExactly(2);
    }
  }

  @Test
  void rocksDbsOwnDefaultFamilyNeedNotBeListed() {
    List<FamilySpec> families = List.of(FamilySpec.plain("hooks"));
    provider.open(dir, StoreOptions.defaults(), families).close();
    provider.open(dir, StoreOptions.defaults(), families).close();
    List<FamilySpec> withDefault = List.of(FamilySpec.plain("default"), FamilySpec.plain("hooks"));
    try (Store s = provider.open(dir, StoreOptions.defaults(), withDefault)) {
      s.write(new Batch().put("default", new byte[] {9}, new byte[] {9}), Durability.SYNC);
    }
    try (Store s = provider.open(dir, StoreOptions.defaults(), withDefault)) {
      assertThat(s.get("default", new byte[] {9})).containsExactly(9);
    }
  }

  @Test
  void countersSettingMismatchIsRefused() {
    provider
        .open(
            dir,
            StoreOptions.defaults(),
            List.of(FamilySpec.counters("counters", 0), FamilySpec.plain("rows")))
        .close();
    assertThatThrownBy(
            () ->
                provider.open(
                    dir,
                    StoreOptions.defaults(),
                    List.of(FamilySpec.plain("counters"), FamilySpec.plain("rows"))))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("'counters'")
        .hasMessageContaining("counters=true");
    assertThatThrownBy(
            () ->
                provider.open(
                    dir,
                    StoreOptions.defaults(),
                    List.of(FamilySpec.counters("counters", 0), FamilySpec.counters("rows", 0))))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("'rows'")
        .hasMessageContaining("counters=false");
    provider
        .open(
            dir,
            StoreOptions.defaults(),
            List.of(FamilySpec.counters("counters", 0), FamilySpec.plain("rows")))
        .close();
  }

  @Test
  void noStoreAndNoCreateIsRefused() throws Exception {
    StoreOptions noCreate = StoreOptions.defaults().createIfMissing(false);
    List<FamilySpec> families = List.of(FamilySpec.plain("hooks"));
    assertThatThrownBy(() -> provider.open(dir, noCreate, families))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("createIfMissing");
    Path absent = dir.resolve("absent");
    assertThatThrownBy(() -> provider.open(absent, noCreate, families))
        .isInstanceOf(StoreFormatException.class);
    assertThat(Files.exists(absent)).as("a refused open creates nothing").isFalse();
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      assertThat(files.count()).as("nothing was created in the empty directory").isZero();
    }
  }

  @Test
  void missingListedFamilyWithoutCreateIsRefused() {
    provider.open(dir, StoreOptions.defaults(), List.of(FamilySpec.plain("hooks"))).close();
    StoreOptions noCreate = StoreOptions.defaults().createIfMissing(false);
    assertThatThrownBy(
            () ->
                provider.open(
                    dir, noCreate, List.of(FamilySpec.plain("hooks"), FamilySpec.plain("audit"))))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("'audit'");
    provider.open(dir, noCreate, List.of(FamilySpec.plain("hooks"))).close();
  }
}
