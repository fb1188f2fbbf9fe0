package io.ankusa.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.ankusa.store.postgres.embedded.EmbeddedServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one PostgreSQL server of a test JVM: an {@link EmbeddedServer} started on first use and
 * stopped when the JVM exits, or — with the system property {@value #URL} — an external server
 * (role from {@value #USER}, default {@code postgres}; password from {@value #PASSWORD} or a {@code
 * .pgpass} file). Every store the tests open gets a schema of its own on it. The embedded server
 * runs with {@code fsync} off, which makes creating and dropping a schema per property try cheap; a
 * commit still reaches the operating system before it returns, so a crash of the server process
 * (what the tests do) loses only what was never committed durably.
 */
final class TestServer {
  static final String URL = "ankusa.postgres.url";
  static final String USER = "ankusa.postgres.user";
  static final String PASSWORD = "ankusa.postgres.password";

  private static EmbeddedServer embedded;
  private static String url;
  private static HikariDataSource admin;

  private TestServer() {}

  /**
   * The server's JDBC URL, starting the embedded server on first call when no external one is
   * named.
   */
  static synchronized String url() {
    if (url == null) {
      String external = System.getProperty(URL);
      if (external != null && !external.isBlank()) {
        url = external;
      } else {
        // under the build directory, emptied first: a JVM that dies without its shutdown hook
        // leaves
        // one data directory there at most, which the next run (or mvn clean) removes
        Path data =
            Path.of(System.getProperty("basedir", "."), "target", "embedded-postgres")
                .toAbsolutePath();
        deleteQuietly(data);
        embedded = EmbeddedServer.start(data, 0, false);
        Runtime.getRuntime()
            .addShutdownHook(new Thread(TestServer::stop, "ankusa-postgres-test-server-stop"));
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

  /**
   * The embedded server, for the server-crash tests; null when the tests run against an external
   * one.
   */
  static synchronized EmbeddedServer embedded() {
    url();
    return embedded;
  }

  /**
   * A connection to the server, outside any store, from a small pool of the tests' own; close it.
   */
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

  /**
   * The server processes whose statement names {@code schema} and that wait on a lock, once there
   * are at least {@code n} of them: how a test knows the store's writes are parked where it wants
   * them.
   *
   * @throws AssertionError if there are not {@code n} within 30 s
   */
  static List<Integer> lockWaiters(Connection watcher, String schema, int n) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try (PreparedStatement ps =
        watcher.prepareStatement(
            "SELECT pid FROM pg_stat_activity"
                + " WHERE wait_event_type = 'Lock' AND query LIKE ?")) {
      ps.setString(1, "%" + schema + "%");
      while (System.nanoTime() < deadline) {
        List<Integer> pids = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            pids.add(rs.getInt(1));
          }
        }
        if (pids.size() >= n) {
          return pids;
        }
        Thread.sleep(10);
      }
    }
    throw new AssertionError(
        "fewer than " + n + " of the store's statements ever waited on a lock in schema " + schema);
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
    if (!Files.exists(root)) {
      return;
    }
    try (var paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // a temporary directory left behind is harmless
    }
  }
}
