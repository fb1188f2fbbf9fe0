package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.postgres.embedded.EmbeddedServerStore;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's postgres store without {@code --postgres-url}: the postgres backend starts no server,
 * so the command line runs the store on an embedded server of its own, its data beside the store
 * directory, and every later command on that directory starts it again for as long as the store is
 * open. A store given {@code postgres.url} is never given an embedded server.
 */
class PostgresDemoStoreTest {
  private static final byte[] KEY = {'k'};
  private static final byte[] VALUE = {'v'};

  @TempDir Path tmp;

  @Test
  void theDemosStoreRunsOnAServerBesideItAndReopensOnIt() {
    Path dir = tmp.resolve("demo");
    try (Store store = StoreDirectory.openOrCreate(dir, "postgres", Map.of())) {
      assertThat(store).isInstanceOf(EmbeddedServerStore.class);
      store.write(new Batch().put(Format3.DEFAULT, KEY, VALUE), Durability.SYNC);
    }
    assertThat(EmbeddedServerStore.dataDirectory(dir)).isDirectory();
    try (Store reopened = StoreDirectory.openReadOnly(dir, "postgres")) {
      assertThat(reopened).isInstanceOf(EmbeddedServerStore.class);
      assertThat(reopened.get(Format3.DEFAULT, KEY)).isEqualTo(VALUE);
    }
  }

  @Test
  void aStoreOnANamedServerIsNeverGivenAnEmbeddedOne() {
    assertThatThrownBy(
            () ->
                StoreDirectory.openOrCreate(
                    tmp.resolve("named"),
                    "postgres",
                    Map.of("postgres.url", "jdbc:postgresql://127.0.0.1:1/nothing")))
        .as("the URL given is used, and nothing listens there")
        .hasMessageContaining(
            "cannot connect to the PostgreSQL server jdbc:postgresql://127.0.0.1:1/nothing");
    assertThat(EmbeddedServerStore.dataDirectory(tmp.resolve("named"))).doesNotExist();
  }
}
