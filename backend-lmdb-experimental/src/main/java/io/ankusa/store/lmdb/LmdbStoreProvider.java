package io.ankusa.store.lmdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The {@code lmdb} backend (experimental): a {@link Store} on LMDB through lmdbjava, one named
 * database per family. See {@link LmdbStore} for what survives a process kill versus a power loss,
 * and {@link LmdbSettings} for the {@code lmdb.*} options ({@code lmdb.mapSizeBytes}, {@code
 * lmdb.mapSizeMaxBytes}, {@code lmdb.maxReaders}, {@code lmdb.mapGrowWaitMillis}, {@code
 * lmdb.checksums}); unknown {@code lmdb.*} options are refused with {@link
 * io.ankusa.store.spi.StoreArgumentException}.
 *
 * <p>Files in the directory: {@code data.mdb} (the data), {@code lock.mdb} (LMDB's reader table),
 * {@value StoreMarker#FILE} (the store marker: backend {@code lmdb}, format {@value #FORMAT}) and
 * {@value io.ankusa.store.kit.directory.DirectoryLock#FILE} (the one-open-store lock), both the
 * backend kit's ({@link DirectoryClaim}). Stores made before markers existed also hold {@code
 * ankusa-lmdb.lock}, the lock file of earlier releases; they are recognised by an LMDB {@code
 * data.mdb} and get the marker at their first read-write open.
 *
 * <p>A {@link StoreOptions#readOnly() read-only} open maps the data file with {@code MDB_RDONLY}
 * and {@code MDB_NOLOCK}: no file is created or written, not even LMDB's reader table (the kit's
 * shared directory lock keeps read-write opens of this release out meanwhile), and every write is
 * refused ({@link io.ankusa.store.kit.forwarding.ReadOnlyStore}).
 */
public final class LmdbStoreProvider implements StoreProvider {
  /** This backend's storage format, written in the store marker. */
  static final int FORMAT = 1;

  private static final StoreMarker MARKER = new StoreMarker("lmdb", FORMAT);

  /**
   * LMDB's magic number, at offset 16 of the first meta page (after the page header),
   * little-endian.
   */
  private static final int LMDB_MAGIC = 0xBEEFC0DE;

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
    FamilyCatalog.checkOpenArguments(dir, options, families);
    LmdbSettings settings = LmdbSettings.from(options);
    FamilyCatalog catalog =
        new FamilyCatalog(
            families, LmdbStore.CAPABILITIES.maxKeyBytes(), LmdbStore.CAPABILITIES.maxValueBytes());
    return DirectoryClaim.openStore(
        dir,
        options,
        MARKER,
        LmdbStoreProvider::holdsStore,
        claim -> {
          boolean create = options.createIfMissing() && !claim.readOnly();
          if (!create
              && !Files.isRegularFile(claim.directory().resolve(LmdbEnvironment.DATA_FILE))) {
            throw new StoreFormatException(
                "no LMDB store in "
                    + claim.directory()
                    + " (no "
                    + LmdbEnvironment.DATA_FILE
                    + ")"
                    + (claim.readOnly() ? " to open read-only" : " and createIfMissing is false")
                    + "; check the path, or open with createIfMissing to create one");
          }
          return LmdbStore.open(claim, settings, catalog, create);
        });
  }

  /**
   * Whether {@code dir} holds an LMDB store made before store markers: a {@code data.mdb} that
   * starts with an LMDB meta page (the magic number at offset 16). An empty or foreign {@code
   * data.mdb} is not one. Reads only.
   */
  static boolean holdsStore(Path dir) {
    Path data = dir.resolve(LmdbEnvironment.DATA_FILE);
    if (!Files.isRegularFile(data)) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(data, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
      while (head.hasRemaining() && ch.read(head) > 0) {
        // read the first 24 bytes
      }
      return !head.hasRemaining() && head.getInt(16) == LMDB_MAGIC;
    } catch (IOException e) {
      throw new StoreException(
          "cannot read " + data + " to tell whether it is an LMDB data file: " + e, e);
    }
  }
}
