package io.ankusa.store.postgres.embedded;

import io.ankusa.store.kit.forwarding.ForwardingStore;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A postgres store with an embedded server of its own ({@link EmbeddedServer}), for the demo and
 * the command line's tools on the demo's store: the server's data directory is {@code DIR.pgdata}
 * beside the store directory {@code DIR} (beside it, not in it: the store directory holds only what
 * the postgres backend keeps there), the server starts when the store opens (on a free port, {@code
 * fsync} on) and stops when the store closes. The store is opened through the backend registered as
 * {@code postgres} ({@link StoreProvider#named}; this module needs it on the classpath at run time
 * only) with {@value #URL} and {@value #USER} naming that server: the backend itself never starts a
 * server. The store directory records the URL, with the port of the day; every open through this
 * class gives the new one.
 *
 * <p>A read-only open starts the server too, which writes its own files under {@code DIR.pgdata}
 * (the store's tables and its directory are not changed). A process killed with SIGKILL leaves the
 * server running: stop it with {@code pg_ctl stop -D DIR.pgdata} before opening the store again.
 *
 * <p>Ownership: the returned store owns the server; closing it closes the store, then stops the
 * server. Thread-safe as the postgres store is.
 */
public final class EmbeddedServerStore extends ForwardingStore {
  /** The postgres backend's option naming the server. */
  public static final String URL = "postgres.url";

  /** The postgres backend's option naming the role. */
  public static final String USER = "postgres.user";

  /** What the server's data directory adds to the store directory's name. */
  public static final String DATA_SUFFIX = ".pgdata";

  private final EmbeddedServer server;

  private EmbeddedServerStore(Store store, EmbeddedServer server) {
    super(store);
    this.server = server;
  }

  /** The data directory of the server of the store in {@code dir}: {@code DIR.pgdata} beside it. */
  public static Path dataDirectory(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    return abs.resolveSibling(abs.getFileName() + DATA_SUFFIX);
  }

  /**
   * Whether the store in {@code dir} has an embedded server's data beside it (one this class made).
   */
  public static boolean hasServer(Path dir) {
    return Files.isDirectory(dataDirectory(dir));
  }

  /**
   * Starts the server of the store in {@code dir} (initialising {@link #dataDirectory} when it
   * holds none) and opens the postgres store there on it, with {@code options} and the server's
   * {@value #URL} and {@value #USER}. If the open fails, the server is stopped and the failure
   * thrown.
   *
   * @throws StoreArgumentException if {@code options} already name a server ({@value #URL}): open
   *     the store through the backend then
   * @throws StoreFormatException for a read-only open of a store with no server data beside it
   *     (nothing is started or created)
   * @throws io.ankusa.store.spi.StoreException if the server does not start, or as the backend's
   *     open throws
   */
  public static Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    if (dir == null || options == null) {
      throw new StoreArgumentException(
          "null "
              + (dir == null ? "directory" : "options")
              + " passed to EmbeddedServerStore.open; use StoreOptions.defaults() for the default options");
    }
    if (options.property(URL, null) != null) {
      throw new StoreArgumentException(
          "option "
              + URL
              + " names a server already; an embedded server is for a"
              + " store with none: open it with StoreProvider.named(\"postgres\") instead");
    }
    if (options.readOnly() && !hasServer(dir)) {
      throw new StoreFormatException(
          "no embedded PostgreSQL server's data beside "
              + dir
              + " ("
              + dataDirectory(dir)
              + "), so there is no server to start for it; nothing was created. A store on a server of its own opens"
              + " with its recorded URL, or with "
              + URL);
    }
    EmbeddedServer server = EmbeddedServer.start(dataDirectory(dir), 0);
    try {
      StoreOptions onServer = options.with(URL, server.url()).with(USER, server.user());
      return new EmbeddedServerStore(
          StoreProvider.named("postgres").open(dir, onServer, families), server);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The server this store runs on. */
  public EmbeddedServer server() {
    return server;
  }

  /** Closes the store, then stops its server. */
  @Override
  public void close() {
    try {
      delegate.close();
    } finally {
      server.close();
    }
  }

  @Override
  public String toString() {
    return "EmbeddedServerStore[" + delegate + ", " + server.dataDirectory() + "]";
  }
}
