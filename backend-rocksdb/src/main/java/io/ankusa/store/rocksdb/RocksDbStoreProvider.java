package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreOptions;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
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
 * rocksdb.maxSuccessiveMerges} (default 0: see {@link RocksDbSettings} for the trade-off). Other families are LZ4-compressed when {@code compress} is
 * set. RocksDB's {@code default} column family always exists; it is usable through the store only
 * when the caller lists a family named {@code "default"}.
 *
 * <h2>Options</h2>
 *
 * <p>{@link StoreOptions#createIfMissing()} creates the directory, the database and missing
 * families. Properties (all optional; an unknown {@code rocksdb.*} key is refused with {@link
 * io.ankusa.store.spi.StoreArgumentException}; other backends' keys are ignored):
 *
 * <ul>
 *   <li>{@code rocksdb.maxBackgroundJobs} — flush and compaction threads, 1..256 (default 2);
 *   <li>{@code rocksdb.bytesPerSync} — sync SST files every this many bytes while writing them, so a
 *       WAL sync never waits behind a whole-file sync; 0 turns it off (default 1048576);
 *   <li>{@code rocksdb.maxSuccessiveMerges} — fold merge operands of one key in the memtable once
 *       this many stack up, on counters families; 0 turns it off (default 64);
 *   <li>{@code rocksdb.blockSizeBytes} — SST data block size, 512..64 MiB (default 4096).
 * </ul>
 *
 * <p>Fixed: paranoid checks on (RocksDB's default), checksums verified on every read.
 *
 * <h2>Refusals at open</h2>
 *
 * <ul>
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

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Store open(Path dir, StoreOptions options, List<FamilySpec> families) {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(families, "families");
    RocksDbSettings settings = RocksDbSettings.from(options);
    return new RocksDbStore(dir.toAbsolutePath().normalize(), families, options.createIfMissing(), settings);
  }
}
