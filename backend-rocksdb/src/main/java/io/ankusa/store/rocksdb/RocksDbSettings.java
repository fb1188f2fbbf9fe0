package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.util.List;
import java.util.Map;

/**
 * The {@code rocksdb.*} properties of {@link StoreOptions} this backend understands, parsed and
 * checked once at open. Properties of other backends are ignored; an unknown {@code rocksdb.*} key
 * is refused with {@link StoreArgumentException} naming the known ones (a typo must not silently
 * fall back to a default).
 *
 * @param maxBackgroundJobs {@code rocksdb.maxBackgroundJobs}: flush and compaction threads (default
 *     2)
 * @param bytesPerSync {@code rocksdb.bytesPerSync}: incremental sync of SST files while they are
 *     written, so a WAL sync never waits behind a whole-file sync (default 1 MiB)
 * @param maxSuccessiveMerges {@code rocksdb.maxSuccessiveMerges}: on counters families, fold a
 *     key's merge operands into one value in the memtable once this many stack up on it (default
 *     16; 0 turns folding off). A read of a counter merges every operand written since the last
 *     flush, so without folding a hot counter (the node aggregate) read under a few thousand merges
 *     per second walks thousands of operands, and the gauge tick's time goes almost all into that
 *     merge (docs/measurements/gate.md). The fold is a read inside the write path, of at most this
 *     many operands and the key's base value, which it reads from an SST file when it must ({@code
 *     strict_max_successive_merges}): RocksDB's lenient default reads the block cache only, gives
 *     up when the base is not cached, and then every later merge into that key counts the ever
 *     longer chain and retries, which slows every later write of that counter (property {@code
 *     aHotCounterReadMergesAFewOperandsEvenWhenItsBaseIsNotCached})
 * @param blockSizeBytes {@code rocksdb.blockSizeBytes}: data block size of SST files (default 4
 *     KiB)
 * @param writeBufferBytes {@code rocksdb.writeBufferBytes}: memtable size of every family, in place
 *     of the family's hint and RocksDB's default (default 0: unset). RocksDB raises a value below
 *     64 KiB to 64 KiB. A tiny buffer makes the engine flush, and then compact, mid-sequence: the
 *     conformance suite runs its model property under it
 * @param maxTotalWalBytes {@code rocksdb.maxTotalWalBytes}: once the live write-ahead logs exceed
 *     this, RocksDB flushes the families whose memtables the oldest log backs (default 0: RocksDB's
 *     own limit, four times the total write buffer size). A small value flushes every few KiB of
 *     writes, whatever the write buffer size: how the suite forces flushes mid-sequence
 * @param countersBloomBitsPerKey {@code rocksdb.countersBloomBitsPerKey}: on counters families, a
 *     Bloom filter of this many bits per key in every SST file, and a whole-key Bloom filter in the
 *     memtable ({@value RocksDbEngine#MEMTABLE_BLOOM_RATIO} of its size), so a point read of a
 *     counter skips each memtable and each SST file that does not hold the key instead of searching
 *     it (default 10, about 1 % false positives; 0 turns both off). A counter is read by its key —
 *     the gauge tick's aggregate, a tenant's counts, the fold inside a merge — and under merge load
 *     most of a counter read's time went into searching memtables and level-0 files that hold only
 *     the hot keys (docs/measurements/gate.md has the gauge tick without and with the filters)
 * @param bloomBitsPerKey {@code rocksdb.bloomBitsPerKey}: the same filters, SST and memtable, on
 *     every other family (default 10; 0 turns both off). A point read of a key that is not there —
 *     the ingest writer's look-up of each idempotency key, which for a new key finds nothing —
 *     otherwise searches the memtable and every level-0 file whose key range covers the key, and
 *     one file per deeper level; the filters make the writer's read of a group's keys several times
 *     cheaper (docs/measurements/ingest.md)
 * @param statistics {@code rocksdb.statistics}: 1 keeps RocksDB's statistics (its tickers), so
 *     {@link RocksDbStore#engineStatistics()} can also report what iterators stepped over and what
 *     compaction read and wrote; 0, the default, keeps none (they cost a few counter updates on
 *     every read and write)
 */
record RocksDbSettings(
    int maxBackgroundJobs,
    long bytesPerSync,
    long maxSuccessiveMerges,
    long blockSizeBytes,
    long writeBufferBytes,
    long maxTotalWalBytes,
    long countersBloomBitsPerKey,
    long bloomBitsPerKey,
    boolean statistics) {
  static final String PREFIX = "rocksdb.";
  static final String MAX_BACKGROUND_JOBS = PREFIX + "maxBackgroundJobs";
  static final String BYTES_PER_SYNC = PREFIX + "bytesPerSync";
  static final String MAX_SUCCESSIVE_MERGES = PREFIX + "maxSuccessiveMerges";
  static final String BLOCK_SIZE_BYTES = PREFIX + "blockSizeBytes";
  static final String WRITE_BUFFER_BYTES = PREFIX + "writeBufferBytes";
  static final String MAX_TOTAL_WAL_BYTES = PREFIX + "maxTotalWalBytes";
  static final String COUNTERS_BLOOM_BITS_PER_KEY = PREFIX + "countersBloomBitsPerKey";
  static final String BLOOM_BITS_PER_KEY = PREFIX + "bloomBitsPerKey";
  static final String STATISTICS = PREFIX + "statistics";
  static final List<String> KNOWN =
      List.of(
          MAX_BACKGROUND_JOBS,
          BYTES_PER_SYNC,
          MAX_SUCCESSIVE_MERGES,
          BLOCK_SIZE_BYTES,
          WRITE_BUFFER_BYTES,
          MAX_TOTAL_WAL_BYTES,
          COUNTERS_BLOOM_BITS_PER_KEY,
          BLOOM_BITS_PER_KEY,
          STATISTICS);

  static final RocksDbSettings DEFAULTS =
      new RocksDbSettings(2, 1L << 20, 16, 4096, 0, 0, 10, 10, false);

  /**
   * The settings in {@code options}.
   *
   * @throws StoreArgumentException for an unknown {@code rocksdb.*} key or a value out of range
   */
  static RocksDbSettings from(StoreOptions options) {
    for (Map.Entry<String, String> e : options.properties().entrySet()) {
      if (e.getKey().startsWith(PREFIX) && !KNOWN.contains(e.getKey())) {
        throw new StoreArgumentException(
            "unknown RocksDB option "
                + e.getKey()
                + "='"
                + e.getValue()
                + "'; the rocksdb backend knows "
                + KNOWN
                + " (see RocksDbStoreProvider)");
      }
    }
    long jobs = range(options, MAX_BACKGROUND_JOBS, DEFAULTS.maxBackgroundJobs, 1, 256);
    long bytesPerSync = range(options, BYTES_PER_SYNC, DEFAULTS.bytesPerSync, 0, 1L << 40);
    long merges = range(options, MAX_SUCCESSIVE_MERGES, DEFAULTS.maxSuccessiveMerges, 0, 1L << 20);
    long block = range(options, BLOCK_SIZE_BYTES, DEFAULTS.blockSizeBytes, 512, 64L << 20);
    long writeBuffer = range(options, WRITE_BUFFER_BYTES, DEFAULTS.writeBufferBytes, 0, 1L << 34);
    long totalWal = range(options, MAX_TOTAL_WAL_BYTES, DEFAULTS.maxTotalWalBytes, 0, 1L << 40);
    long countersBloomBits =
        range(options, COUNTERS_BLOOM_BITS_PER_KEY, DEFAULTS.countersBloomBitsPerKey, 0, 64);
    long bloomBits = range(options, BLOOM_BITS_PER_KEY, DEFAULTS.bloomBitsPerKey, 0, 64);
    long statistics = range(options, STATISTICS, DEFAULTS.statistics ? 1 : 0, 0, 1);
    return new RocksDbSettings(
        (int) jobs,
        bytesPerSync,
        merges,
        block,
        writeBuffer,
        totalWal,
        countersBloomBits,
        bloomBits,
        statistics == 1);
  }

  private static long range(StoreOptions options, String key, long fallback, long min, long max) {
    long v = options.longProperty(key, fallback);
    if (v < min || v > max) {
      throw new StoreArgumentException(
          "option " + key + "=" + v + " is out of range; use " + min + ".." + max);
    }
    return v;
  }
}
