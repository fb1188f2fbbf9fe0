/**
 * The experimental LMDB backend ({@code lmdb}): {@link io.ankusa.store.spi.Store} on LMDB 0.9.33
 * through lmdbjava 0.9.3, registered as {@link io.ankusa.store.lmdb.LmdbStoreProvider}.
 *
 * <h2>Mapping</h2>
 *
 * <ul>
 *   <li>a family is a named LMDB database (DBI); the metadata DBI {@code ankusa.meta} records each
 *       family's name and counters flag, so a reopen refuses unlisted families ("written by a newer
 *       release") and counters mismatches with {@link io.ankusa.store.spi.StoreFormatException};
 *   <li>a batch is one write transaction; merges are read-modify-writes inside it (LMDB has one
 *       writer, so they are atomic); deleteRange walks a cursor;
 *   <li>a scan owns a read transaction (its consistent state) until its end or its close; a
 *       snapshot is a read transaction; keys are in LMDB's default {@code memcmp} order, i.e.
 *       unsigned bytes;
 *   <li>keys and values cross as {@code MapBytes}: a read gets a view of the memory map and copies
 *       out what it returns, once, with the JVM's intrinsic memory copy where it has one ({@code
 *       NativeMemory}); a checksummed value is copied without its checksum, which is read in place.
 * </ul>
 *
 * <h2>Durability, honestly</h2>
 *
 * <p>The environment runs with {@code MDB_NOSYNC}. A committed batch is in the OS page cache when
 * {@code write} returns: it survives a kill -9 of the process. It survives a power loss or OS crash
 * only once synced: a {@code SYNC} write (fdatasync before returning) or a returned {@code
 * syncWal()}. LMDB documents that under {@code MDB_NOSYNC} a system crash may also damage the
 * database when the filesystem does not preserve write order.
 *
 * <h2>Damaged files, honestly</h2>
 *
 * <p>LMDB keeps no checksums of its own and trusts its file: a damaged {@code data.mdb} can make it
 * read past the end of the file (SIGBUS), follow a page number out of its map (SIGSEGV) or fail an
 * assertion (abort), each of which ends the JVM. So before LMDB maps the file, {@code
 * DataFileCheck} reads it with plain Java I/O: the meta page LMDB will use, then every page of
 * every B-tree that meta page reaches (headers, bounds, nodes, key order, node flags, overflow
 * pages, the free list), each of which must lie wholly inside the file. It does not compare the
 * file's length with the meta page's last page number: pages a transaction allocated and freed
 * again are counted there and never written, so a healthy file can be shorter. Its cost is one read
 * of every reachable page at every open (docs/storage.md gives the figure at 10<sup>6</sup> keys).
 * New stores also keep a CRC32C of key and value with every value ({@code lmdb.checksums}, on by
 * default; recorded in the store's metadata, so older stores without checksums keep opening), and a
 * flipped byte in a key or value is reported by the read that meets it; errors LMDB's bounds checks
 * raise are reported. All of these are {@link io.ankusa.store.spi.StoreCorruptionException}, never
 * a clean end of a scan. Still possible: damage done while the store is open, after the check (LMDB
 * may crash on it), and well-formed wrong bytes in a store without checksums (read as data). See
 * {@code LmdbStore.CAPABILITIES}.
 *
 * <h2>Limits and options</h2>
 *
 * <p>Keys up to 511 bytes (LMDB's compiled-in maximum), values up to 16 MiB. The map starts at
 * {@code lmdb.mapSizeBytes} and doubles when full, up to {@code lmdb.mapSizeMaxBytes}; growth waits
 * for open scans and snapshots to close (LMDB cannot remap under a read transaction). See {@link
 * io.ankusa.store.lmdb.LmdbStore} and {@code LmdbSettings}.
 */
package io.ankusa.store.lmdb;
