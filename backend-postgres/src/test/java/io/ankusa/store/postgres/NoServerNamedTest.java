package io.ankusa.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend starts no server: a store that names none ({@code postgres.url}, a {@code
 * DataSource}) and records none it can reach is refused with the option to set, before anything is
 * written. No server runs in these tests.
 */
class NoServerNamedTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("f"));

  @TempDir Path tmp;

  @Test
  void aNewStoreWithoutAUrlIsRefusedNamingTheOptionAndNothingIsCreated() {
    Path missing = tmp.resolve("new-store");
    assertThatThrownBy(
            () -> StoreProvider.named("postgres").open(missing, StoreOptions.defaults(), FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("no PostgreSQL server named for the postgres store in " + missing)
        .hasMessageContaining("set the option postgres.url=jdbc:postgresql://HOST:PORT/DATABASE")
        .hasMessageContaining("nothing was written");
    assertThat(missing).as("no directory created").doesNotExist();
  }

  @Test
  void anEmptyDirectoryStaysEmpty() throws Exception {
    Path empty = Files.createDirectory(tmp.resolve("empty"));
    assertThatThrownBy(
            () -> new PostgresStoreProvider().open(empty, StoreOptions.defaults(), FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("postgres.url");
    try (var entries = Files.list(empty)) {
      assertThat(entries).as("no marker, no lock file").isEmpty();
    }
  }

  @Test
  void aStoreAnEarlierReleaseMadeOnItsOwnEmbeddedServerIsRefusedSayingWhatToStart()
      throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("old-demo"));
    PostgresStoreProvider.MARKER.write(dir);
    try (DirectoryClaim claim =
        DirectoryClaim.open(
            dir, StoreOptions.defaults(), PostgresStoreProvider.MARKER, d -> false)) {
      new StoreTarget(StoreTarget.EMBEDDED, "postgres", "ankusa_0123456789abcdef", "id-1")
          .write(claim);
    }
    byte[] target = Files.readAllBytes(dir.resolve(StoreTarget.FILE));
    for (StoreOptions options : List.of(StoreOptions.defaults(), StoreOptions.readOnlyExisting())) {
      assertThatThrownBy(() -> new PostgresStoreProvider().open(dir, options, FAMILIES))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("url=embedded")
          .hasMessageContaining(dir.resolve("pgdata").toString())
          .hasMessageContaining("set the option postgres.url");
    }
    assertThat(Files.readAllBytes(dir.resolve(StoreTarget.FILE)))
        .as("the record is unchanged")
        .isEqualTo(target);
    assertThat(StoreMarker.read(dir)).contains(PostgresStoreProvider.MARKER);
  }

  @Test
  void aReadOnlyOpenOfAMissingDirectoryIsTheClaimsRefusalNotTheServers() {
    assertThatThrownBy(
            () ->
                new PostgresStoreProvider()
                    .open(tmp.resolve("nothing"), StoreOptions.readOnlyExisting(), FAMILIES))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("the directory does not exist");
  }
}
