package io.ankusa.store.spi;

import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;

/**
 * Opens stores of one backend. Registered in {@code
 * META-INF/services/io.ankusa.store.spi.StoreProvider} and found by {@link #named(String)}.
 */
public interface StoreProvider {

  /** The backend's name: {@code "memory"}, {@code "rocksdb"}, {@code "lmdb"}, … */
  String name();

  /**
   * Opens (or, with {@link StoreOptions#createIfMissing()}, creates) the store in {@code dir} with
   * exactly {@code families}.
   *
   * <p>REQUIRES: family names are distinct. Only one open store per directory at a time, on every
   * backend (property {@code aSecondOpenOfAnOpenStoreIsRefused}), whatever path names it (property
   * {@code secondOpenThroughSymlinkIsRefused}); a refused open leaves the open store's lock in
   * force (property {@code refusedSecondOpenKeepsTheLock}). A backend that keeps files claims
   * {@code dir} through the backend kit's {@code DirectoryClaim}. With {@link
   * StoreOptions#readOnly()} the store is returned behind the kit's {@code ReadOnlyStore} and no
   * file changes (properties {@code readOnlyOpenRefusesWrites}, {@code readOnlyOpenChangesNoFile}).
   *
   * @throws StoreFormatException if {@code dir} holds a family not in {@code families} — an older
   *     release refusing a newer store (property {@code openRefusesUnlistedFamilies}) — or a listed
   *     family with different counters setting, or holds no store and creation was not asked for,
   *     or holds another backend's store, a marker that is not one, or files that are not a store
   *     of this backend (property {@code foreignOrNonEmptyDirectoryIsRefusedUntouched}); nothing
   *     was written
   * @throws StoreArgumentException for a null argument or an unknown option of this backend
   *     (properties {@code nullArgumentsAreRefused}, {@code unknownOptionOfTheBackendIsRefused})
   * @throws StoreException if the directory is locked by another open store or cannot be read
   */
  Store open(Path dir, StoreOptions options, List<FamilySpec> families);

  /** The provider registered under {@code name}, found with {@link ServiceLoader}. */
  static StoreProvider named(String name) {
    TreeSet<String> seen = new TreeSet<>();
    for (StoreProvider p : ServiceLoader.load(StoreProvider.class)) {
      if (p.name().equals(name)) {
        return p;
      }
      seen.add(p.name());
    }
    throw new StoreArgumentException(
        "no store backend named '"
            + name
            + "' on the classpath; available: "
            + seen
            + " (add the backend's jar, e.g. ankusa-store-backend-"
            + name
            + ")");
  }

  /** Names of every provider on the classpath, sorted. */
  static List<String> available() {
    TreeSet<String> names = new TreeSet<>();
    ServiceLoader.load(StoreProvider.class).forEach(p -> names.add(p.name()));
    return List.copyOf(names);
  }
}
