package io.ankusa.store.rocksdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.kit.directory.DirectoryClaim;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import org.rocksdb.RocksDB;

/**
 * The {@code rocksdb} backend: an embedded RocksDB (RocksJava) store, one column family per {@link
 * FamilySpec}.
 *
 * <h2>Families</h2>
 *
 * <p>A counters family gets RocksDB's {@code UInt64AddOperator} (8-byte little-endian operands, the
 * {@link io.ankusa.store.spi.Int64Add} encoding), no compression, its {@code writeBufferHint} as
 * {@code write_buffer_size} when positive, and {@code max_successive_merges} from {@code
 * rocksdb.maxSuccessiveMerges} with {@code strict_max_successive_merges} (default 16: see {@link
 * RocksDbSettings} for why), and Bloom filters over its keys in SST files and in the memtable
 * ({@code rocksdb.countersBloomBitsPerKey}). Other families are LZ4-compressed when {@code
 * compress} is set, and get the same Bloom filters ({@code rocksdb.bloomBitsPerKey}). RocksDB's
 * {@code default} column family always exists; it is usable through the store only when the caller
 * lists a family named {@code "default"}.
 *
 * <h2>Options</h2>
 *
 * <p>{@link StoreOptions#createIfMissing()} creates the directory, the database and missing
 * families; a store is created only in an empty or missing directory. {@link
 * StoreOptions#readOnly()} opens with RocksDB's read-only open ({@code RocksDB.openReadOnly}): the
 * WAL is replayed into memory only, no SST file, MANIFEST, info LOG or lock file is written, and
 * every write is refused ({@link io.ankusa.store.kit.forwarding.ReadOnlyStore}). Properties (all
 * optional; an unknown {@code rocksdb.*} key is refused with {@link
 * io.ankusa.store.spi.StoreArgumentException}; other backends' keys are ignored):
 *
 * <ul>
 *   <li>{@code rocksdb.maxBackgroundJobs} — flush and compaction threads, 1..256 (default 2);
 *   <li>{@code rocksdb.bytesPerSync} — sync SST files every this many bytes while writing them, so
 *       a WAL sync never waits behind a whole-file sync; 0 turns it off (default 1048576);
 *   <li>{@code rocksdb.maxSuccessiveMerges} — fold merge operands of one key in the memtable once
 *       this many stack up, on counters families, reading the key's base value from disk when it is
 *       not cached; 0 turns it off (default 16);
 *   <li>{@code rocksdb.countersBloomBitsPerKey} — on counters families, a Bloom filter of this many
 *       bits per key in every SST file and a whole-key Bloom filter in the memtable, so a counter
 *       read skips what does not hold its key; 0..64, 0 turns both off (default 10);
 *   <li>{@code rocksdb.bloomBitsPerKey} — the same filters on every other family, so a point read
 *       of an absent key (an idempotency key not seen before) skips what does not hold it; 0..64, 0
 *       turns both off (default 10);
 *   <li>{@code rocksdb.blockSizeBytes} — SST data block size, 512..64 MiB (default 4096);
 *   <li>{@code rocksdb.writeBufferBytes} — memtable size of every family in place of its hint,
 *       0..16 GiB, RocksDB raising anything below 64 KiB to 64 KiB (default 0: the hint, else
 *       RocksDB's default);
 *   <li>{@code rocksdb.maxTotalWalBytes} — flush the families the oldest write-ahead log backs once
 *       the live logs exceed this, 0..1 TiB (default 0: RocksDB's own limit).
 * </ul>
 *
 * <p>Fixed: paranoid checks on (RocksDB's default), checksums verified on every read.
 *
 * <h2>Refusals at open</h2>
 *
 * <p>The directory is claimed through the backend kit's {@link DirectoryClaim}: locked by its real
 * path, its store marker ({@value StoreMarker#FILE}: backend {@value #NAME}, format {@value
 * #FORMAT}) checked, and a store made before markers existed recognised by RocksDB's own {@code
 * CURRENT} and {@code MANIFEST-*} files (it gets the marker at its first read-write open).
 *
 * <ul>
 *   <li>another backend's store, a marker that is not one, or a non-empty directory that holds no
 *       RocksDB store: {@link io.ankusa.store.spi.StoreFormatException} naming what was found,
 *       nothing written;
 *   <li>the directory holds a column family the caller did not list (other than {@code default}):
 *       {@link io.ankusa.store.spi.StoreFormatException} naming them — a newer release wrote them
 *       (property {@code openRefusesUnlistedFamilies});
 *   <li>a listed family was created with the other counters setting (read from RocksDB's newest
 *       {@code OPTIONS-*} file; skipped if that file is missing): {@code StoreFormatException};
 *   <li>no store and {@code createIfMissing=false}: {@code StoreFormatException};
 *   <li>the directory is locked by another open store (this process or another): {@link
 *       io.ankusa.store.spi.StoreException}.
 * </ul>
 */
public final class RocksDbStoreProvider implements StoreProvider {
  static {
    RocksDB.loadLibrary();
  }

  /** The name this backend is found by: {@code "rocksdb"}. */
  public static final String NAME = "rocksdb";

  /** This backend's storage format, written in the store marker. */
  public static final int FORMAT = 1;

  private static final StoreMarker MARKER = new StoreMarker(NAME, FORMAT);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    FamilyCatalog.checkOpenArguments(dir, options, families);
    RocksDbSettings settings = RocksDbSettings.from(options);
    FamilyCatalog catalog =
        new FamilyCatalog(
            families,
            RocksDbStore.CAPABILITIES.maxKeyBytes(),
            RocksDbStore.CAPABILITIES.maxValueBytes());
    return DirectoryClaim.openStore(
        dir,
        options,
        MARKER,
        RocksDbEngine::holdsStore,
        claim -> new RocksDbStore(claim, catalog, options.createIfMissing(), settings));
  }
}
