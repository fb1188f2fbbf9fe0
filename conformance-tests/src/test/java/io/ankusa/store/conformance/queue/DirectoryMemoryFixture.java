package io.ankusa.store.conformance.queue;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.memory.MemoryStoreProvider;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link DirectoryMemoryProvider} (honest or a mutant) as the suite sees it: memory's
 * capabilities plus {@code filesInDirectory}; stores forgotten under the directory's real path
 * after use.
 */
final class DirectoryMemoryFixture implements BackendFixture {
  private final DirectoryMemoryProvider provider;
  private final String name;

  DirectoryMemoryFixture(DirectoryMemoryProvider provider, String name) {
    this.provider = provider;
    this.name = name;
  }

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public Capabilities capabilities() {
    return DirectoryMemoryProvider.capabilities(new MemoryFixture().capabilities());
  }

  @Override
  public void discard(Path dir) {
    MemoryStoreProvider.discard(dir.toAbsolutePath().normalize());
    if (Files.exists(dir)) {
      try {
        MemoryStoreProvider.discard(dir.toRealPath());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  @Override
  public String name() {
    return name;
  }
}
