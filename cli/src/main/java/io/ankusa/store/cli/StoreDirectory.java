package io.ankusa.store.cli;

import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
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
    Store store = openWithFormat3Families(dir, backend);
    refuseNewer(store, dir);
    return store;
  }

  /**
   * Opens the existing store in {@code dir} with {@code backend} and requires it to be a finished
   * format-3 store, for the tools that open a {@code DeliveryQueue} on it offline (which would
   * otherwise migrate an older store as a side effect).
   *
   * @throws StoreArgumentException if there is no such directory
   * @throws StoreFormatException if the store is not format 3 (older, unstamped, or its migration was
   *     interrupted: the message says to run {@code ankusa-store migrate} first; newer: use the
   *     release that wrote it)
   */
  static Store openFormat3(Path dir, String backend) {
    Store store;
    try {
      store = openWithFormat3Families(dir, backend);
    } catch (StoreFormatException e) {
      // e.g. a format-2 store lacks format 3's column families
      throw new StoreFormatException(e.getMessage() + "; if it is an older store, run ankusa-store migrate " + dir
          + " first", e);
    }
    refuseNewer(store, dir);
    int format = QueueFormat.stamp(store);
    boolean migrating = store.get(Format3.DEFAULT, Keys.migrating(Format3.FORMAT)) != null;
    if (format != Format3.FORMAT || migrating) {
      store.close();
      String what = format < 0 ? "has no format stamp (m:format)" : migrating
          ? "is in an interrupted migration to format " + Format3.FORMAT : "is format " + format;
      throw new StoreFormatException("store " + dir + " " + what + ", not format " + Format3.FORMAT
          + "; run ankusa-store migrate " + dir + " first (back it up: format 3 is forward-only)");
    }
    return store;
  }

  private static Store openWithFormat3Families(Path dir, String backend) {
    if (!backend.equals("memory") && !Files.isDirectory(dir)) {
      throw new StoreArgumentException("no store at " + dir + ": the directory does not exist");
    }
    return StoreProvider.named(backend).open(dir, StoreOptions.defaults().createIfMissing(false), Format3.families());
  }

  private static void refuseNewer(Store store, Path dir) {
    int format = QueueFormat.stamp(store);
    if (format > Format3.FORMAT) {
      store.close();
      throw new StoreFormatException("store " + dir + ": store format " + format + " is newer than "
          + Format3.FORMAT + "; use the release that wrote it (formats are forward-only)");
    }
  }
}
