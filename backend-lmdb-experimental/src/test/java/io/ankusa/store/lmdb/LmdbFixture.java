package io.ankusa.store.lmdb;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.NamedOptions;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

/**
 * The conformance fixture of the lmdb backend: default options (64 MiB initial map, checksums on).
 *
 * <p>{@link #corrupt} flips one byte inside each of a run of stored values in the middle of the
 * family — damage in a leaf page's data, which the check at open does not read and this backend
 * detects through its value checksums when a read meets it (see {@code LmdbStore.CAPABILITIES}), so
 * the suite's corruption case checks the read path. Damage to LMDB's structure is refused at open
 * ({@code DataFileCheck}); the module's {@code DataFileCheckTest} checks that, and {@code
 * CorruptionTest} the error path of a branch pointer damaged while the store is open.
 *
 * <p>Option sets ({@link #optionSets()}): the defaults and {@value #SMALL_MAP} (a 256 KiB starting
 * map, the smallest the backend accepts, so a longer sequence grows the map mid-sequence). LMDB has
 * no memtable: {@link #flush} syncs the environment ({@code syncWal}), and a compaction is the
 * same.
 */
final class LmdbFixture implements BackendFixture {
  /** How many consecutive entries in the middle of the family get a damaged value. */
  private static final int DAMAGED_ENTRIES = 5;

  @Override
  public StoreProvider provider() {
    return new LmdbStoreProvider();
  }

  @Override
  public Capabilities capabilities() {
    return LmdbStore.CAPABILITIES;
  }

  /** The option set with the smallest starting map. */
  static final String SMALL_MAP = "small-map";

  @Override
  public List<NamedOptions> optionSets() {
    return List.of(
        new NamedOptions(NamedOptions.DEFAULT, options()),
        new NamedOptions(
            SMALL_MAP,
            options().with(LmdbSettings.MAP_SIZE, Long.toString(LmdbSettings.MIN_MAP_SIZE))));
  }

  @Override
  public void flush(Store store) {
    store.syncWal();
  }

  @Override
  public void corrupt(Path dir, List<FamilySpec> families, String family) {
    for (byte[] stored : middleEntries(dir, family)) {
      List<Long> at = DataFileDamage.find(dir, stored);
      if (at.isEmpty()) {
        throw new IllegalStateException(
            "a stored value of family '" + family + "' is not in " + dir);
      }
      for (long offset :
          at) { // stale copies in freed pages too: harmless, and it keeps this simple
        DataFileDamage.flip(dir, offset + stored.length / 2, 0x20);
      }
    }
  }

  /**
   * The stored bytes (value and checksum) of {@link #DAMAGED_ENTRIES} entries in the family's
   * middle.
   */
  private static List<byte[]> middleEntries(Path dir, String family) {
    List<byte[]> all = new ArrayList<>();
    try (Env<byte[]> env =
        Env.create(ByteArrayProxy.PROXY_BA).setMaxDbs(64).open(dir.toFile(), EnvFlags.MDB_NOTLS)) {
      Dbi<byte[]> dbi = env.openDbi(family);
      try (Txn<byte[]> txn = env.txnRead();
          Cursor<byte[]> c = dbi.openCursor(txn)) {
        for (boolean ok = c.first(); ok; ok = c.next()) {
          all.add(c.val());
        }
      }
    }
    if (all.size() < DAMAGED_ENTRIES * 2) {
      throw new IllegalStateException(
          "family '"
              + family
              + "' in "
              + dir
              + " holds "
              + all.size()
              + " entries, too few to damage its middle; write more first");
    }
    int from = all.size() / 2 - DAMAGED_ENTRIES / 2;
    return all.subList(from, from + DAMAGED_ENTRIES);
  }
}
