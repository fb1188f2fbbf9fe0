package io.ankusa.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import io.ankusa.store.spi.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The server a store talks to: a connection pool of its own (HikariCP on pgjdbc), or a {@link
 * DataSource} an embedder passed in. The server itself is never this backend's: it runs elsewhere,
 * and whoever started it (an operator, a test, the demo) stops it.
 *
 * <p>Ownership: the store owns this object and closes it after its scans and snapshots; closing it
 * gives back its share of the pool ({@link SharedPools}), never closing a data source it was given.
 */
final class PostgresServer implements AutoCloseable {
  private final DataSource dataSource;
  private final HikariDataSource pool;
  private final String label;

  private PostgresServer(DataSource dataSource, HikariDataSource pool, String label) {
    this.dataSource = dataSource;
    this.pool = pool;
    this.label = label;
  }

  /**
   * A share of the pool of at most {@code poolSize} connections to {@code url} ({@link
   * SharedPools}; a new pool opens one connection now, so a server that does not answer is reported
   * here).
   *
   * @throws StoreException if no connection can be made; the message names the URL without secrets
   */
  static PostgresServer pooled(String url, String user, String password, int poolSize) {
    try {
      HikariDataSource pool = SharedPools.acquire(url, user, password, poolSize);
      return new PostgresServer(pool, pool, StoreTarget.withoutSecrets(url));
    } catch (RuntimeException e) {
      throw new StoreException(
          "cannot connect to the PostgreSQL server "
              + StoreTarget.withoutSecrets(url)
              + " as "
              + user
              + ": "
              + e.getMessage()
              + "; check that it runs, the URL, the role and its password (option"
              + " postgres.password or a .pgpass file)",
          e);
    }
  }

  /** Connections from {@code dataSource}, which the caller keeps owning. */
  static PostgresServer given(DataSource dataSource, String label) {
    return new PostgresServer(dataSource, null, label);
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
    if (pool != null) {
      SharedPools.release(pool);
    }
  }
}
