package io.ankusa.store.rocksdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.LogCut;
import io.ankusa.store.conformance.NamedOptions;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.rocksdb.RocksDBException;

/**
 * The RocksDB backend as the conformance suite sees it: the provider, its capabilities, and
 * corruption injection — compact the family into SST files with plain RocksJava, then overwrite a
 * run of bytes in the middle of the data blocks of its largest SST file, so a read of the family
 * meets a checksum mismatch (property {@code scanNeverEndsEarlyOnCorruption}); and log damage — one
 * bit flipped half-way through the newest write-ahead log (property {@code
 * midLogDamageIsReportedNeverSilentlyDropped}); and log cuts — one family flushed alone, then a
 * copy of the store with one write-ahead log truncated at the start of a record or inside it, every
 * record of every log in turn (property {@code cutLogNeverSplitsABatchAcrossFamilies}).
 *
 * <p>Option sets ({@link #optionSets()}): the defaults (counters' merge operands folded in the
 * memtable once 16 stack up on a key), {@value #MERGE_FOLDING} (folded once two stack up, so short
 * sequences fold too), {@value #NO_MERGE_FOLDING} (never folded), and {@value #TINY_WRITE_BUFFER}
 * (64 KiB memtables, RocksDB's smallest, and a flush whenever 4 KiB of log is live, so a transition
 * round flushes and compacts on its own dozens of times). Its {@link #flush} and {@link #compact}
 * hooks flush every family's memtable and compact its whole range (also what {@code
 * snapshotHeldAcrossCommitsAndFlushes} flushes with).
 */
public final class RocksDbFixture implements BackendFixture {
  /** Where the damage was done, for tests that want to say so in their messages. */
  record Damage(Path file, long offset, int length) {}

  /** The option set that folds merge operands in the memtable. */
  static final String MERGE_FOLDING = "merge-folding";

  /** The option set that never folds merge operands. */
  static final String NO_MERGE_FOLDING = "no-merge-folding";

  /** The option set with the smallest memtables RocksDB allows. */
  static final String TINY_WRITE_BUFFER = "tiny-write-buffer";

  private final StoreProvider provider = new RocksDbStoreProvider();

  @Override
  public StoreProvider provider() {
    return provider;
  }

  @Override
  public Capabilities capabilities() {
    return RocksDbStore.CAPABILITIES;
  }

  /**
   * True: {@link #damageLog} flips a bit in the newest log, {@link #logCuts} cuts every log file.
   */
  @Override
  public boolean logDamageInjection() {
    return true;
  }

  @Override
  public List<NamedOptions> optionSets() {
    return List.of(
        new NamedOptions(NamedOptions.DEFAULT, options()),
        new NamedOptions(MERGE_FOLDING, options().with(RocksDbSettings.MAX_SUCCESSIVE_MERGES, "2")),
        new NamedOptions(
            TINY_WRITE_BUFFER,
            options()
                .with(RocksDbSettings.WRITE_BUFFER_BYTES, "65536")
                .with(RocksDbSettings.MAX_TOTAL_WAL_BYTES, "4096")),
        new NamedOptions(
            NO_MERGE_FOLDING, options().with(RocksDbSettings.MAX_SUCCESSIVE_MERGES, "0")));
  }

  @Override
  public void flush(Store store) {
    rocksDb(store).flush(false);
  }

  @Override
  public void compact(Store store) {
    rocksDb(store).flush(true);
  }

  private static RocksDbStore rocksDb(Store store) {
    if (store instanceof RocksDbStore r) {
      return r;
    }
    throw new IllegalArgumentException("not a store this fixture opened: " + store);
  }

  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    damage(dir, families, family);
  }

  /** Flips one bit half-way through the newest write-ahead log, where the unflushed batches are. */
  @Override
  public void damageLog(Path dir) {
    WalFiles.Wal wal = WalFiles.newest(dir);
    wal.flipBit(wal.size() / 2);
  }

  /** Flushes the family's memtable alone, as RocksDB does when that family's write buffer fills. */
  @Override
  public void flushFamily(Store store, String family) {
    rocksDb(store).flushFamily(family);
  }

  /**
   * The start of every record and its middle, in every write-ahead log of the closed store, oldest
   * log first ({@link WalFiles#records}).
   */
  @Override
  public List<LogCut> logCuts(Path dir) {
    List<WalFiles.Wal> wals = WalFiles.all(dir);
    List<List<WalFiles.LogRecord>> records = wals.stream().map(WalFiles::records).toList();
    int left = records.stream().mapToInt(List::size).sum();
    List<LogCut> cuts = new ArrayList<>();
    for (int w = 0; w < wals.size(); w++) {
      String file = wals.get(w).path().getFileName().toString();
      for (WalFiles.LogRecord r : records.get(w)) {
        cuts.add(new LogCut(file, r.start(), "the start of a record", left));
        cuts.add(
            new LogCut(file, (r.start() + r.end()) / 2, "inside the record at " + r.start(), left));
        left--;
      }
    }
    return cuts;
  }

  /**
   * Copies every file of the closed store, then truncates the copy's log file where {@code cut}
   * says.
   */
  @Override
  public void copyWithLogCut(Path dir, Path copy, LogCut cut) {
    try {
      Files.createDirectories(copy);
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy the store in " + dir + " to " + copy, e);
    }
    new WalFiles.Wal(copy.resolve(cut.file())).truncate(cut.offset());
  }

  /**
   * Compacts {@code family} of the closed store in {@code dir} and flips a run of bytes in the
   * middle of the data blocks of its largest SST file.
   *
   * @throws IllegalStateException if the family has no SST file (nothing was written to it)
   */
  static Damage damage(Path dir, List<FamilySpec> families, String family) {
    RawRocksDb.SstFile target;
    try (RawRocksDb raw = new RawRocksDb(dir, families)) {
      raw.compact(family);
      target =
          raw.sstFiles(family).stream()
              .max(Comparator.comparingLong(RawRocksDb.SstFile::size))
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "family '"
                              + family
                              + "' in "
                              + dir
                              + " has no SST file to damage; write to it first"));
    } catch (RocksDBException e) {
      throw new IllegalStateException(
          "cannot compact family '" + family + "' in " + dir + ": " + e, e);
    }
    long data = Math.max(1, Math.min(target.dataBytes(), target.size()));
    int length = (int) Math.max(1, Math.min(64, data / 4));
    long offset = Math.max(0, data / 2 - length / 2);
    try (FileChannel ch =
        FileChannel.open(target.path(), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(length);
      ch.read(buf, offset);
      buf.flip();
      for (int i = 0; i < buf.limit(); i++) {
        buf.put(i, (byte) ~buf.get(i));
      }
      ch.write(buf, offset);
      ch.force(true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot damage " + target.path(), e);
    }
    return new Damage(target.path(), offset, length);
  }
}
