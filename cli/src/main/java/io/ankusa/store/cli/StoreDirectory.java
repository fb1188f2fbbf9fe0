package io.ankusa.store.cli;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.QueueFormat;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opening an existing store directory for the offline tools: never creates anything. */
final class StoreDirectory {
  private StoreDirectory() {}

  /**
   * Opens the existing format-3 store in {@code dir} with {@code backend}.
   *
   * @throws StoreArgumentException if there is no such directory
   * @throws StoreFormatException if the store's format is newer than this release's
   */
  static Store openExisting(Path dir, String backend) {
    if (!backend.equals("memory") && !Files.isDirectory(dir)) {
      throw new StoreArgumentException("no store at " + dir + ": the directory does not exist");
    }
    Store store = StoreProvider.named(backend).open(dir, StoreOptions.defaults().createIfMissing(false), Format3.families());
    int format = QueueFormat.stamp(store);
    if (format > Format3.FORMAT) {
      store.close();
      throw new StoreFormatException("store " + dir + ": store format " + format + " is newer than "
          + Format3.FORMAT + "; use the release that wrote it (formats are forward-only)");
    }
    return store;
  }
}
