package io.ankusa.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The one PostgreSQL server of a test JVM: an {@link EmbeddedServer} started on first use and stopped
 * when the JVM exits, or — with the system property {@value #URL} — an external server (role from
 * {@value #USER}, default {@code postgres}; password from {@value #PASSWORD} or a {@code .pgpass}
 * file). Every store the tests open gets a schema of its own on it. The embedded server runs with
 * {@code fsync} off, which makes creating and dropping a schema per property try cheap; a commit still
 * reaches the operating system before it returns, so a crash of the server process (what the tests
 * do) loses only what was never committed durably.
 */
final class TestServer {
  static final String URL = "ankusa.postgres.url";
  static final String USER = "ankusa.postgres.user";
  static final String PASSWORD = "ankusa.postgres.password";

  private static EmbeddedServer embedded;
  private static String url;
  private static HikariDataSource admin;

  private TestServer() {}

  /** The server's JDBC URL, starting the embedded server on first call when no external one is named. */
  static synchronized String url() {
    if (url == null) {
      String external = System.getProperty(URL);
      if (external != null && !external.isBlank()) {
        url = external;
      } else {
        try {
          Path data = Files.createTempDirectory("ankusa-postgres-test-");
          embedded = EmbeddedServer.start(data, 0, false);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(TestServer::stop, "ankusa-postgres-test-server-stop"));
        url = embedded.url();
      }
    }
    return url;
  }

  static String user() {
    return System.getProperty(USER, "postgres");
  }

  static String password() {
    return System.getProperty(PASSWORD);
  }

  /** The embedded server, for the server-crash tests; null when the tests run against an external one. */
  static synchronized EmbeddedServer embedded() {
    url();
    return embedded;
  }

  /** A connection to the server, outside any store, from a small pool of the tests' own; close it. */
  static synchronized Connection connect() throws SQLException {
    if (admin == null) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(url());
      config.setUsername(user());
      config.setPassword(password());
      config.setMaximumPoolSize(2);
      config.setMinimumIdle(1);
      config.setPoolName("ankusa-postgres-tests");
      admin = new HikariDataSource(config);
    }
    return admin.getConnection();
  }

  private static synchronized void stop() {
    if (admin != null) {
      admin.close();
    }
    if (embedded != null) {
      Path data = embedded.dataDirectory();
      embedded.close();
      embedded = null;
      deleteQuietly(data);
    }
  }

  private static void deleteQuietly(Path root) {
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException | RuntimeException e) {
      // a temporary directory left behind is harmless
    }
  }
}
