package io.ankusa.store.postgres.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store on an embedded server of its own: the server's data beside the store directory, its URL
 * and role handed to the backend, the server up while the store is open and stopped when it closes
 * or when the open fails; a store that names a server, or a read-only open with no server data, is
 * refused before any server starts. The backend is {@link RecordingPostgresProvider}, which checks
 * that the server it is handed accepts connections.
 */
class EmbeddedServerStoreTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("f"));

  @TempDir Path tmp;

  @AfterEach
  void forgetMemoryStores() {
    MemoryStoreProvider.discard(tmp.resolve("store"));
  }

  @Test
  void theServerRunsBesideTheDirectoryWhileTheStoreIsOpenAndStopsWhenItCloses() {
    Path dir = tmp.resolve("store");
    String url;
    try (Store store = EmbeddedServerStore.open(dir, StoreOptions.defaults(), FAMILIES)) {
      store.write(new Batch().put("f", new byte[] {1}, new byte[] {2}), Durability.SYNC);
      StoreOptions given = RecordingPostgresProvider.lastOptions;
      url = given.property(EmbeddedServerStore.URL, null);
      assertThat(url).startsWith("jdbc:postgresql://127.0.0.1:");
      assertThat(given.property(EmbeddedServerStore.USER, null)).isEqualTo("postgres");
      assertThat(((EmbeddedServerStore) store).server().url()).isEqualTo(url);
      assertThat(tmp.resolve("store.pgdata"))
          .as("the server's data, beside the store directory")
          .isDirectory();
      assertThat(EmbeddedServerStore.dataDirectory(dir))
          .isEqualTo(tmp.resolve("store.pgdata").toAbsolutePath());
      assertThat(EmbeddedServerStore.hasServer(dir)).isTrue();
      assertThat(RecordingPostgresProvider.accepts(url))
          .as("the server accepts connections while the store is open")
          .isTrue();
    }
    assertThat(RecordingPostgresProvider.accepts(url))
        .as("the server stopped with the store")
        .isFalse();
  }

  @Test
  void aFailedOpenStopsTheServer() {
    RecordingPostgresProvider.refuseNextOpen = true;
    assertThatThrownBy(
            () -> EmbeddedServerStore.open(tmp.resolve("store"), StoreOptions.defaults(), FAMILIES))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("refused on purpose");
    String url = RecordingPostgresProvider.lastOptions.property(EmbeddedServerStore.URL, null);
    assertThat(RecordingPostgresProvider.accepts(url))
        .as("the server of the failed open stopped")
        .isFalse();
  }

  @Test
  void aStoreThatNamesAServerIsRefusedAndNoServerStarts() {
    RecordingPostgresProvider.lastOptions = null;
    assertThatThrownBy(
            () ->
                EmbeddedServerStore.open(
                    tmp.resolve("store"),
                    StoreOptions.defaults()
                        .with(EmbeddedServerStore.URL, "jdbc:postgresql://db:5432/app"),
                    FAMILIES))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("postgres.url names a server already");
    assertThat(RecordingPostgresProvider.lastOptions).isNull();
    assertThat(tmp.resolve("store.pgdata")).doesNotExist();
  }

  @Test
  void aReadOnlyOpenWithoutServerDataIsRefusedAndCreatesNothing() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("store"));
    assertThatThrownBy(
            () -> EmbeddedServerStore.open(dir, StoreOptions.readOnlyExisting(), FAMILIES))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("no embedded PostgreSQL server's data beside");
    assertThat(tmp.resolve("store.pgdata")).doesNotExist();
    assertThat(EmbeddedServerStore.hasServer(dir)).isFalse();
  }
}
