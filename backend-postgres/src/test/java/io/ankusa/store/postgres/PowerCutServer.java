package io.ankusa.store.postgres;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.PowerCutTarget;
import io.ankusa.store.postgres.embedded.EmbeddedServer;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;

/**
 * The postgres backend on the power-cut file system: an embedded server of its own whose data
 * directory is below the file system's root, with {@code fsync} on (the test JVM's shared server
 * runs with it off, which a power cut would rightly punish). Before each cut it is killed with
 * SIGKILL, every process of it; after the cut it starts again on what the cut left, which runs
 * PostgreSQL's crash recovery. The stores record this server's URL in their directories, so the
 * case's child JVMs find it.
 */
final class PowerCutServer implements PowerCutTarget {
  private final EmbeddedServer server;

  private PowerCutServer(EmbeddedServer server) {
    this.server = server;
  }

  /** Initialises and starts a server on {@code root/pgdata}. */
  static PowerCutServer start(Path root) {
    return new PowerCutServer(EmbeddedServer.start(root.resolve(EmbeddedServer.DATA), 0, true));
  }

  @Override
  public BackendFixture fixture() {
    return new OnServer(server.url(), server.user());
  }

  @Override
  public void beforeCut() {
    server.kill();
  }

  @Override
  public void afterCut() {
    server.startAgain();
  }

  @Override
  public void close() {
    server.close();
  }

  /** Stores on this server, one schema each. */
  private record OnServer(String url, String user) implements BackendFixture {
    @Override
    public StoreProvider provider() {
      return new PostgresStoreProvider();
    }

    @Override
    public StoreOptions options() {
      return StoreOptions.defaults()
          .with(PostgresSettings.URL, url)
          .with(PostgresSettings.USER, user);
    }

    @Override
    public Capabilities capabilities() {
      return PostgresStore.CAPABILITIES;
    }
  }
}
