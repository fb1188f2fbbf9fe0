/**
 * The RocksDB backend ({@code rocksdb}): {@link io.ankusa.store.rocksdb.RocksDbStoreProvider} opens
 * a {@link io.ankusa.store.rocksdb.RocksDbStore} on RocksJava, one column family per family.
 *
 * <p>Layout of the code: {@code RocksDbEngine} owns every native object of one open database;
 * {@code RocksDbReadView} is the read code shared by the live store and {@code RocksDbSnapshot};
 * {@code RocksDbScan} is the bounded, snapshot-pinned iterator that checks {@code status()}
 * whenever it stops; {@code RocksDbFailures} maps RocksDB statuses to the contract's exceptions;
 * {@code RocksDbSettings} parses the {@code rocksdb.*} options.
 *
 * <p>Checked by {@code RocksDbEngineConformanceTest} (the engine layer of the conformance suite)
 * and this module's tests: corruption, native resources, format refusals, write-failure recovery,
 * the merge law across flush/compaction/reopen, and durability across kill -9.
 */
package io.ankusa.store.rocksdb;
