package io.ankusa.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.ankusa.store.spi.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The server a store talks to: a connection pool of its own (HikariCP on pgjdbc), or a {@link
 * DataSource} an embedder passed in, plus the embedded server the store started, if any.
 *
 * <p>Ownership: the store owns this object and closes it after its scans and snapshots; closing it
 * gives back its share of the pool ({@link SharedPools}) and stops the embedded server it started, never a data source it was given.
 */
final class PostgresServer implements AutoCloseable {
  private final DataSource dataSource;
  private final HikariDataSource pool;
  private final EmbeddedServer embedded;
  private final String label;

  private PostgresServer(DataSource dataSource, HikariDataSource pool, EmbeddedServer embedded, String label) {
    this.dataSource = dataSource;
    this.pool = pool;
    this.embedded = embedded;
    this.label = label;
  }

  /**
   * A share of the pool of at most {@code poolSize} connections to {@code url} ({@link SharedPools};
   * a new pool opens one connection now, so a server that does not answer is reported here).
   *
   * @param embedded the embedded server at {@code url} that this object then owns, or null
   * @throws StoreException if no connection can be made; the message names the URL without secrets
   */
  static PostgresServer pooled(String url, String user, String password, int poolSize,
      EmbeddedServer embedded) {
    try {
      HikariDataSource pool = SharedPools.acquire(url, user, password, poolSize);
      return new PostgresServer(pool, pool, embedded, StoreTarget.withoutSecrets(url));
    } catch (RuntimeException e) {
      if (embedded != null) {
        embedded.close();
      }
      throw new StoreException("cannot connect to the PostgreSQL server " + StoreTarget.withoutSecrets(url) + " as "
          + user + ": " + e.getMessage() + "; check that it runs, the URL, the role and its password (option"
          + " postgres.password or a .pgpass file)", e);
    }
  }

  /** Connections from {@code dataSource}, which the caller keeps owning. */
  static PostgresServer given(DataSource dataSource, String label) {
    return new PostgresServer(dataSource, null, null, label);
  }

  /** A connection, in autocommit mode; the caller closes it (which returns it to the pool). */
  Connection connection() throws SQLException {
    return dataSource.getConnection();
  }

  /** Drops the pool's idle connections and retires the busy ones, so later calls reconnect. */
  void evict() {
    if (pool != null && pool.getHikariPoolMXBean() != null) {
      pool.getHikariPoolMXBean().softEvictConnections();
    }
  }

  /** The server, as messages and the store directory name it: the URL without any secret. */
  String label() {
    return label;
  }

  @Override
  public void close() {
    try {
      if (pool != null) {
        SharedPools.release(pool, embedded != null); // no pool outlives the server it reaches
      }
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }
}
