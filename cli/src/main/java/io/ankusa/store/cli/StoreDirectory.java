package io.ankusa.store.cli;

import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.postgres.embedded.EmbeddedServerStore;
import io.ankusa.store.queue.internal.migration.FormatTwo;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The one place the commands open a store directory, and the rules of each way in:
 *
 * <ul>
 *   <li>{@link #openReadOnly} for the commands that only read ({@code verify}, {@code inspect},
 *       {@code migrate --dry-run}): an existing store, opened with {@link StoreOptions#readOnly()},
 *       so no file under the directory changes;
 *   <li>{@link #openFormat3} for the offline writers of a finished format-3 store ({@code archive
 *       drain});
 *   <li>{@link #openForMigration} for {@code migrate}: only a store of a known backend and format;
 *   <li>{@link #openOrCreate} for {@code demo}: creates a store only in a missing or empty
 *       directory.
 * </ul>
 *
 * <p>None creates a store anywhere else. The backend decides whether a directory holds its store
 * (and refuses another engine's files or garbage with {@link StoreFormatException}); this class
 * adds the checks of the path itself (missing, a file, not readable) so that they are reported as
 * what they are, before any backend opens anything.
 *
 * <p>A postgres store opened without {@code postgres.url} runs on an embedded server of its own
 * ({@link EmbeddedServerStore}: data in {@code DIR.pgdata} beside the store directory, up while the
 * store is open) when the demo creates it, and whenever such a server's data is beside it; any
 * other postgres store reaches the server its directory records. The backend itself starts no
 * server.
 */
final class StoreDirectory {
  private StoreDirectory() {}

  /**
   * Opens the existing store in {@code dir} read-only: nothing under {@code dir} is created or
   * changed. Refuses a store newer than this release.
   *
   * @throws CommandInputException if {@code dir} is missing, not a directory or empty
   * @throws StoreFormatException if {@code dir} holds no store of {@code backend}, or a newer one
   */
  static Store openReadOnly(Path dir, String backend) {
    StoreProvider provider = StoreProvider.named(backend);
    requireStoreDirectory(dir, backend);
    Store store;
    try {
      store = open(provider, dir, StoreOptions.readOnlyExisting(), Format3.families());
    } catch (StoreFormatException e) {
      throw olderOrAsIs(provider, dir, e);
    }
    refuseNewer(store, dir);
    return store;
  }

  /**
   * Opens the existing store in {@code dir} read-only with the families of whichever format it has
   * (3, else 2), for {@code migrate}: nothing under {@code dir} is created or changed.
   *
   * @throws CommandInputException if {@code dir} is missing, not a directory or empty, or the
   *     backend keeps no store on disk
   * @throws StoreFormatException if {@code dir} holds no store of {@code backend}, or a newer one
   */
  static Store openMigratable(Path dir, String backend) {
    StoreProvider provider = StoreProvider.named(backend);
    if (backend.equals("memory")) {
      throw new CommandInputException(
          FailureCause.BAD_ARGUMENT,
          "the memory backend keeps no store on disk,"
              + " so there is nothing in "
              + dir
              + " to migrate; pass the --backend that wrote the store");
    }
    requireStoreDirectory(dir, backend);
    Store store = openWithKnownFamilies(provider, dir, StoreOptions.readOnlyExisting());
    refuseNewer(store, dir);
    return store;
  }

  /**
   * Opens the existing store in {@code dir} read-write and requires it to be a finished format-3
   * store, for the tools that open a {@code DeliveryQueue} on it offline (which would otherwise
   * migrate an older store as a side effect).
   *
   * @throws CommandInputException if {@code dir} is missing, not a directory or empty
   * @throws StoreFormatException if the store is not format 3 (older, unstamped, or its migration
   *     was interrupted: the message says to run {@code ankusa-store migrate} first; newer: use the
   *     release that wrote it)
   */
  static Store openFormat3(Path dir, String backend) {
    StoreProvider provider = StoreProvider.named(backend);
    requireStoreDirectory(dir, backend);
    Store store;
    try {
      store =
          open(provider, dir, StoreOptions.defaults().createIfMissing(false), Format3.families());
    } catch (StoreFormatException e) {
      throw olderOrAsIs(provider, dir, e);
    }
    refuseNewer(store, dir);
    requireFinishedFormat3(store, dir);
    return store;
  }

  /**
   * Opens the store in {@code dir} read-write for a migration, after checking read-only that it is
   * a store of {@code backend} in a format this release migrates (2, or 3 with an interrupted
   * migration). Returns null when there is nothing to migrate (a finished format-3 store), having
   * changed no file.
   *
   * @throws CommandInputException if {@code dir} is missing, not a directory, empty, or the backend
   *     keeps no store on disk
   * @throws StoreFormatException if {@code dir} holds no store of {@code backend}, an unstamped or
   *     a newer one
   */
  static Store openForMigration(Path dir, String backend) {
    try (Store store = openMigratable(dir, backend)) {
      int format = FormatStamp.stamp(store);
      boolean migrating = store.get(Format3.DEFAULT, Keys.migrating(Format3.FORMAT)) != null;
      if (format < 0) {
        throw new StoreFormatException(
            "store "
                + dir
                + " has no format stamp (m:format): it is not a queue store"
                + " this release knows how to migrate; nothing was written");
      }
      if (format == Format3.FORMAT && !migrating) {
        return null;
      }
    }
    // a format-2 store gains format 3's families here; the check above proved it is one
    return open(StoreProvider.named(backend), dir, StoreOptions.defaults(), Format3.families());
  }

  /**
   * Opens the store in {@code dir} read-write, creating it only when {@code dir} is missing or
   * empty. A non-empty directory must already hold a store of {@code backend} (the backend refuses
   * anything else), no newer than this release.
   *
   * @throws CommandInputException if {@code dir} is a file or cannot be listed
   * @throws StoreFormatException if {@code dir} is not empty and holds no store of {@code backend}
   */
  static Store openOrCreate(Path dir, String backend) {
    return openOrCreate(dir, backend, Map.of());
  }

  /** {@link #openOrCreate(Path, String)} with backend options ({@code postgres.url}, …). */
  static Store openOrCreate(Path dir, String backend, Map<String, String> options) {
    StoreProvider provider = StoreProvider.named(backend);
    boolean create =
        backend.equals("memory") || !Files.exists(dir) || StoreMarker.isEmptyDirectory(dir);
    if (!create) {
      requireStoreDirectory(dir, backend);
    }
    StoreOptions storeOptions = new StoreOptions(create, options);
    Store store =
        create && onEmbeddedServer(backend, storeOptions)
            ? EmbeddedServerStore.open(dir, storeOptions, Format3.families())
            : open(provider, dir, storeOptions, Format3.families());
    refuseNewer(store, dir);
    return store;
  }

  /**
   * {@code provider.open}, except for a postgres store with no {@code postgres.url} whose embedded
   * server's data is beside it: that one opens on its server ({@link EmbeddedServerStore}), which
   * stops when the store closes.
   */
  private static Store open(
      StoreProvider provider, Path dir, StoreOptions options, List<FamilySpec> families) {
    if (onEmbeddedServer(provider.name(), options) && EmbeddedServerStore.hasServer(dir)) {
      return EmbeddedServerStore.open(dir, options, families);
    }
    return provider.open(dir, options, families);
  }

  /** A postgres store whose options name no server: the ones an embedded server may serve. */
  private static boolean onEmbeddedServer(String backend, StoreOptions options) {
    return backend.equals("postgres") && options.property(EmbeddedServerStore.URL, null) == null;
  }

  /**
   * The path checks every way in shares: an existing, listable, non-empty directory (memory: a
   * name).
   */
  private static void requireStoreDirectory(Path dir, String backend) {
    if (backend.equals("memory")) {
      return; // a memory store's directory is only its name
    }
    if (!Files.exists(dir)) {
      throw new CommandInputException(
          FailureCause.NO_SUCH_PATH, "no store at " + dir + ": the directory does not exist");
    }
    if (!Files.isDirectory(dir)) {
      throw new CommandInputException(
          FailureCause.NOT_A_DIRECTORY,
          dir + " is a file, not a store directory;" + " pass the directory that holds the store");
    }
    if (StoreMarker.isEmptyDirectory(dir)) {
      throw new CommandInputException(
          FailureCause.FOREIGN_STORE,
          "no store at "
              + dir
              + ": the directory is empty;"
              + " pass the directory that holds the store");
    }
  }

  /** Opens with format 3's families, or with format 2's when the store is older. */
  private static Store openWithKnownFamilies(
      StoreProvider provider, Path dir, StoreOptions options) {
    try {
      return open(provider, dir, options, Format3.families());
    } catch (StoreFormatException e) {
      try {
        return open(provider, dir, options, FormatTwo.families());
      } catch (StoreFormatException older) {
        throw e;
      }
    }
  }

  /**
   * The refusal of a format-3 open: "run migrate first" when the store opens with format 2's
   * families, else {@code e} as the backend said it.
   */
  private static StoreFormatException olderOrAsIs(
      StoreProvider provider, Path dir, StoreFormatException e) {
    if (opensWith(provider, dir, FormatTwo.families())) {
      return new StoreFormatException(
          "store "
              + dir
              + " has format 2's families, not format "
              + Format3.FORMAT
              + "'s; run ankusa-store migrate "
              + dir
              + " first (back it up: format 3 is forward-only)",
          e);
    }
    return e;
  }

  /** Whether the store in {@code dir} opens read-only with {@code families}; it is closed again. */
  private static boolean opensWith(StoreProvider provider, Path dir, List<FamilySpec> families) {
    try (Store store = open(provider, dir, StoreOptions.readOnlyExisting(), families)) {
      return true;
    } catch (StoreFormatException e) {
      return false;
    }
  }

  private static void requireFinishedFormat3(Store store, Path dir) {
    int format = FormatStamp.stamp(store);
    boolean migrating = store.get(Format3.DEFAULT, Keys.migrating(Format3.FORMAT)) != null;
    if (format != Format3.FORMAT || migrating) {
      store.close();
      String what =
          format < 0
              ? "has no format stamp (m:format)"
              : migrating
                  ? "is in an interrupted migration to format " + Format3.FORMAT
                  : "is format " + format;
      throw new StoreFormatException(
          "store "
              + dir
              + " "
              + what
              + ", not format "
              + Format3.FORMAT
              + "; run ankusa-store migrate "
              + dir
              + " first (back it up: format 3 is forward-only)");
    }
  }

  private static void refuseNewer(Store store, Path dir) {
    int format = FormatStamp.stamp(store);
    if (format > Format3.FORMAT) {
      store.close();
      throw new StoreFormatException(
          "store "
              + dir
              + ": store format "
              + format
              + " is newer than "
              + Format3.FORMAT
              + "; use the release that wrote it (formats are forward-only)");
    }
  }
}
