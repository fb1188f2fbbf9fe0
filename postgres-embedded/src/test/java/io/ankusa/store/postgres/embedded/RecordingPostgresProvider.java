package io.ankusa.store.postgres.embedded;

import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * Stands in for the postgres backend, registered under its name in this module's tests (the module
 * cannot depend on the backend, whose tests depend on it): it records the options of each open,
 * checks that the server they name accepts connections, and opens a memory store; or refuses the
 * open when told to.
 */
public final class RecordingPostgresProvider implements StoreProvider {
  static volatile StoreOptions lastOptions;
  static volatile boolean refuseNextOpen;

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    lastOptions = options;
    if (!accepts(options.property(EmbeddedServerStore.URL, ""))) {
      throw new IllegalStateException(
          "the server "
              + options.property(EmbeddedServerStore.URL, null)
              + " the store was opened on accepts no connection");
    }
    if (refuseNextOpen) {
      refuseNextOpen = false;
      throw new StoreFormatException("refused on purpose by the test's postgres stand-in");
    }
    return new MemoryStoreProvider().open(dir, options, families);
  }

  /** Whether a server listens at the host and port of the JDBC URL {@code url}. */
  static boolean accepts(String url) {
    if (!url.startsWith("jdbc:")) {
      return false;
    }
    URI uri = URI.create(url.substring("jdbc:".length()));
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
      return true;
    } catch (IOException e) {
      return false;
    } catch (RuntimeException e) {
      throw new UncheckedIOException(new IOException("not a URL with a host and port: " + url, e));
    }
  }
}
