/** The RocksDB backend. */
package io.ankusa.store.rocksdb;
