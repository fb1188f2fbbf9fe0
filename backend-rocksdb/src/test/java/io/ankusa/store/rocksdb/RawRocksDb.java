package io.ankusa.store.rocksdb;

import io.ankusa.store.spi.FamilySpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LiveFileMetaData;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TableProperties;
import org.rocksdb.UInt64AddOperator;

/**
 * A store's directory opened with plain RocksJava, behind the backend's back, for tests that must
 * flush, compact or find the SST files of a family. Counters families get the merge operator (a
 * compaction of merge operands needs it). REQUIRES: the store in {@code dir} is closed.
 */
final class RawRocksDb implements AutoCloseable {
  private final RocksDB db;
  private final DBOptions dbOptions;
  private final List<ColumnFamilyOptions> cfOptions = new ArrayList<>();
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final List<String> names = new ArrayList<>();
  private final UInt64AddOperator merge = new UInt64AddOperator();

  /** One SST file of a family with the size of its data blocks (they start at offset 0). */
  record SstFile(Path path, long size, long dataBytes) {}

  RawRocksDb(Path dir, List<FamilySpec> families) throws RocksDBException {
    RocksDB.loadLibrary();
    dbOptions = new DBOptions();
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    if (families.stream().noneMatch(f -> f.name().equals("default"))) {
      ColumnFamilyOptions o = new ColumnFamilyOptions();
      cfOptions.add(o);
      descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, o));
      names.add("default");
    }
    for (FamilySpec f : families) {
      ColumnFamilyOptions o = new ColumnFamilyOptions();
      if (f.counters()) {
        o.setMergeOperator(merge);
      }
      cfOptions.add(o);
      descriptors.add(new ColumnFamilyDescriptor(f.name().getBytes(StandardCharsets.UTF_8), o));
      names.add(f.name());
    }
    db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
  }

  ColumnFamilyHandle handle(String family) {
    return handles.get(names.indexOf(family));
  }

  RocksDB db() {
    return db;
  }

  void flush(String family) throws RocksDBException {
    try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
      db.flush(fo, handle(family));
    }
  }

  /** Flushes the family and compacts it whole, so all its data sits in SST files. */
  void compact(String family) throws RocksDBException {
    flush(family);
    db.compactRange(handle(family));
  }

  /** The live SST files of {@code family}, with the byte size of their data blocks. */
  List<SstFile> sstFiles(String family) throws RocksDBException {
    Map<String, TableProperties> props = db.getPropertiesOfAllTables(handle(family));
    List<SstFile> out = new ArrayList<>();
    for (LiveFileMetaData f : db.getLiveFilesMetaData()) {
      if (!new String(f.columnFamilyName(), StandardCharsets.UTF_8).equals(family)) {
        continue;
      }
      Path path = Path.of(f.path(), f.fileName());
      TableProperties p = props.get(path.toString());
      if (p == null) {
        p =
            props.entrySet().stream()
                .filter(e -> e.getKey().endsWith(f.fileName()))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
      }
      out.add(new SstFile(path, f.size(), p == null ? f.size() / 2 : p.getDataSize()));
    }
    return out;
  }

  @Override
  public void close() {
    handles.forEach(ColumnFamilyHandle::close);
    db.close();
    dbOptions.close();
    cfOptions.forEach(ColumnFamilyOptions::close);
    merge.close();
  }
}
