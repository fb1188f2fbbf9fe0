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
 *   <li>a scan owns a read transaction (its consistent state) until its end or its close; a snapshot
 *       is a read transaction; keys are in LMDB's default {@code memcmp} order, i.e. unsigned bytes;
 *   <li>keys and values cross as {@code MapBytes}: a read gets a view of the memory map and copies
 *       out what it returns, once, with the JVM's intrinsic memory copy where it has one ({@code
 *       NativeMemory}); a checksummed value is copied without its checksum, which is read in place.
 * </ul>
 *
 * <h2>Durability, honestly</h2>
 *
 * <p>The environment runs with {@code MDB_NOSYNC}. A committed batch is in the OS page cache when
 * {@code write} returns: it survives a kill -9 of the process. It survives a power loss or OS crash
 * only once synced: a {@code SYNC} write (fdatasync before returning) or a returned {@code syncWal()}.
 * LMDB documents that under {@code MDB_NOSYNC} a system crash may also damage the database when the
 * filesystem does not preserve write order.
 *
 * <h2>Damaged files, honestly</h2>
 *
 * <p>LMDB keeps no checksums of its own. This backend adds what it can: a truncated {@code data.mdb}
 * is refused at open before it is mapped (no SIGBUS); new stores keep a CRC32C of key and value with
 * every value ({@code lmdb.checksums}, on by default; recorded in the store's metadata, so older
 * stores without checksums keep opening), and a flipped byte in a key or value is reported by the
 * read that meets it; errors LMDB's bounds checks raise are reported. All of these are {@link
 * io.ankusa.store.spi.StoreCorruptionException}, never a clean end of a scan. Still undetected:
 * damage to page headers, branch pages or the free list, which LMDB may misread or abort the process
 * on. See {@code LmdbStore.CAPABILITIES}.
 *
 * <h2>Limits and options</h2>
 *
 * <p>Keys up to 511 bytes (LMDB's compiled-in maximum), values up to 16 MiB. The map starts at {@code
 * lmdb.mapSizeBytes} and doubles when full, up to {@code lmdb.mapSizeMaxBytes}; growth waits for open
 * scans and snapshots to close (LMDB cannot remap under a read transaction). See {@link
 * io.ankusa.store.lmdb.LmdbStore} and {@code LmdbSettings}.
 */
package io.ankusa.store.lmdb;
