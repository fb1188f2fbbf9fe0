package io.ankusa.store.bench.jmh;

import io.ankusa.store.bench.RawRocksOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.TablePropertiesCollectorFactory;
import org.rocksdb.UInt64AddOperator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The raw RocksJava baseline: the same engine and settings as the rocksdb backend (bytes_per_sync 1
 * MiB, 2 background jobs, 4 KiB blocks, Bloom filters on both families, LZ4 on the plain family;
 * uint64add with max_successive_merges 16, strict, and a 1 MiB write buffer on counters; files full
 * of deletions compacted on the plain family), called directly, no wrapper.
 */
public final class RawRocksTarget implements EngineTarget {
  static {
    RocksDB.loadLibrary();
  }

  private final List<AutoCloseable> owned = new ArrayList<>();
  private final RocksDB db;
  private final ColumnFamilyHandle plain;
  private final ColumnFamilyHandle counters;

  /**
   * How many of {@link #owned}'s first entries are column family handles, closed before the
   * database.
   */
  private final int openHandles;

  private final WriteOptions noSync = new WriteOptions().setSync(false);
  private final WriteOptions sync = new WriteOptions().setSync(true);
  private final ByteBuffer operand = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

  private RawRocksTarget(Path dir) throws RocksDBException {
    UInt64AddOperator merge = new UInt64AddOperator();
    DBOptions dbOptions =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            .setBytesPerSync(1L << 20)
            .setMaxBackgroundJobs(2);
    ColumnFamilyOptions defaultOptions = new ColumnFamilyOptions();
    BloomFilter filter = RawRocksOptions.newFilter();
    BlockBasedTableConfig plainTable = new BlockBasedTableConfig().setBlockSize(4096);
    TablePropertiesCollectorFactory deletions = RawRocksOptions.newDeletionCollector();
    ColumnFamilyOptions plainOptions = RawRocksOptions.deletionCompacted(deletions);
    RawRocksOptions.filter(plainOptions, plainTable, filter);
    plainOptions
        .setTableFormatConfig(plainTable)
        .setCompressionType(CompressionType.LZ4_COMPRESSION);
    BlockBasedTableConfig counterTable = new BlockBasedTableConfig().setBlockSize(4096);
    ColumnFamilyOptions counterOptions = RawRocksOptions.foldingOptions();
    RawRocksOptions.filter(counterOptions, counterTable, filter);
    counterOptions
        .setTableFormatConfig(counterTable)
        .setMergeOperator(merge)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setWriteBufferSize(1L << 20);
    owned.add(merge);
    owned.add(filter);
    owned.add(deletions);
    owned.add(dbOptions);
    owned.add(defaultOptions);
    owned.add(plainOptions);
    owned.add(counterOptions);
    List<ColumnFamilyDescriptor> descriptors =
        List.of(
            new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, defaultOptions),
            new ColumnFamilyDescriptor(PLAIN.getBytes(StandardCharsets.UTF_8), plainOptions),
            new ColumnFamilyDescriptor(COUNTERS.getBytes(StandardCharsets.UTF_8), counterOptions));
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    plain = handles.get(1);
    counters = handles.get(2);
    owned.addAll(0, handles);
    openHandles = handles.size();
  }

  static RawRocksTarget open(Path dir) {
    try {
      dir.toFile().mkdirs();
      return new RawRocksTarget(dir);
    } catch (RocksDBException e) {
      throw new IllegalStateException(
          "raw RocksDB baseline: cannot open " + dir + ": " + e.getMessage(), e);
    }
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return db.get(plain, key);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      db.put(plain, noSync, key, value);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void putAll(byte[][] keys, byte[][] values, boolean synced) {
    try (WriteBatch b = new WriteBatch()) {
      for (int i = 0; i < keys.length; i++) {
        b.put(plain, keys[i], values[i]);
      }
      db.write(synced ? sync : noSync, b);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public long scan(byte[] lo, byte[] hi, int n) {
    long sum = 0;
    try (Slice upper = new Slice(hi);
        ReadOptions ro = new ReadOptions().setIterateUpperBound(upper);
        RocksIterator it = db.newIterator(plain, ro)) {
      it.seek(lo);
      for (int i = 0; i < n && it.isValid(); i++) {
        // The key too, as the SPI's scan and the raw LMDB baseline read it: a scan's entries are
        // (key, value) pairs, and a caller that did not need the keys would not have scanned. (A
        // native call is never optimised away, so the unused copy is still made.)
        it.key();
        sum += it.value().length;
        it.next();
      }
      it.status();
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
    return sum;
  }

  @Override
  public void merge(byte[] key, long delta) {
    try {
      db.merge(counters, noSync, key, operand.putLong(0, delta).array().clone());
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public long counter(byte[] key) {
    try {
      byte[] v = db.get(counters, key);
      return v == null ? 0 : ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    owned.subList(0, openHandles).forEach(RawRocksTarget::closeQuietly);
    db.close();
    noSync.close();
    sync.close();
    owned.subList(openHandles, owned.size()).forEach(RawRocksTarget::closeQuietly);
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
