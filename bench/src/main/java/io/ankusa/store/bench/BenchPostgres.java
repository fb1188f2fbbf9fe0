package io.ankusa.store.bench;

import io.ankusa.store.conformance.FileTrees;
import io.ankusa.store.postgres.embedded.EmbeddedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bench JVM's PostgreSQL server: an embedded one ({@link EmbeddedServer}), started on first use
 * with {@code fsync} on, its data in a directory of its own under {@code java.io.tmpdir}; stopped
 * and deleted when the JVM exits. Every postgres bench store of the run lives on it, each in a
 * schema of its own, reached over JDBC on the loopback. The postgres backend starts no server, so
 * the benches bring one, as they do for etcd ({@link BenchEtcd}).
 */
public final class BenchPostgres {
  private static EmbeddedServer server;

  private BenchPostgres() {}

  /** The server, starting it on first call. */
  public static synchronized EmbeddedServer server() {
    if (server == null) {
      Path data;
      try {
        data = Files.createTempDirectory("ankusa-bench-postgres-");
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make the bench's PostgreSQL data directory", e);
      }
      EmbeddedServer s = EmbeddedServer.start(data, 0);
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    s.close();
                    FileTrees.deleteRecursively(data);
                  },
                  "ankusa-bench-postgres-stop"));
      server = s;
    }
    return server;
  }
}
