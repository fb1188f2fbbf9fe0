package io.ankusa.store.lmdb;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code lmdb} backend (experimental): a {@link Store} on LMDB through lmdbjava, one named
 * database per family. See {@link LmdbStore} for what survives a process kill versus a power loss,
 * and {@link LmdbSettings} for the {@code lmdb.*} options ({@code lmdb.mapSizeBytes}, {@code
 * lmdb.mapSizeMaxBytes}, {@code lmdb.maxReaders}, {@code lmdb.mapGrowWaitMillis}, {@code
 * lmdb.checksums}); unknown {@code
 * lmdb.*} options are refused with {@link io.ankusa.store.spi.StoreArgumentException}.
 *
 * <p>Files in the directory: {@code data.mdb} (the data), {@code lock.mdb} (LMDB's reader table) and
 * {@value DirectoryLock#FILE} (this backend's one-open-store lock).
 */
public final class LmdbStoreProvider implements StoreProvider {

  @Override
  public String name() {
    return "lmdb";
  }

  /**
   * @throws StoreFormatException if {@code dir} holds no LMDB store and {@code
   *     options.createIfMissing()} is false, holds another engine's files, holds families not in
   *     {@code families}, or a family with another counters setting
   * @throws StoreException if the store is open elsewhere or the directory cannot be used
   */
  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    LmdbSettings settings = LmdbSettings.from(options);
    Path abs = dir.toAbsolutePath().normalize();
    boolean exists = Files.isRegularFile(abs.resolve(LmdbEnvironment.DATA_FILE));
    if (!exists) {
      if (!options.createIfMissing()) {
        throw new StoreFormatException(
            "no LMDB store in " + abs + " (no " + LmdbEnvironment.DATA_FILE + ") and createIfMissing is"
                + " false; check the path, or open with createIfMissing to create one");
      }
      if (Files.exists(abs.resolve("CURRENT")) || Files.exists(abs.resolve("IDENTITY"))) {
        throw new StoreFormatException(
            abs + " holds another engine's files (a RocksDB CURRENT/IDENTITY file), not an LMDB store;"
                + " open it with the backend that wrote it");
      }
      try {
        Files.createDirectories(abs);
      } catch (IOException e) {
        throw new StoreException("cannot create the store directory " + abs + ": " + e.getMessage(), e);
      }
    }
    return LmdbStore.open(abs, settings, families, options.createIfMissing());
  }
}
