package io.ankusa.store.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.kit.directory.DirectoryLock;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's idea of an empty store directory is the backend kit's, not a second one. */
class StoreDirectoryTest {
  @TempDir Path tmp;

  /**
   * A directory left holding only the kit's lock file (a store creation that stopped before its
   * marker) is empty to the backends, so the demo may create its store there too.
   */
  @Test
  void aDirectoryHoldingOnlyTheLockFileIsEmpty() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("store"));
    Files.createFile(dir.resolve(DirectoryLock.FILE));

    try (Store store = StoreDirectory.openOrCreate(dir, "rocksdb")) {
      assertThat(store.directory()).isNotNull();
    }
    assertThat(StoreMarker.read(dir)).as("the store was created and marked").isPresent();
  }
}
