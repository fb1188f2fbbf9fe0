package io.ankusa.store.lmdb;

import io.ankusa.store.kit.FamilyCatalog;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * One open LMDB environment of a store and its named databases: one DBI per family, plus the
 * metadata DBI {@value #META_DBI} that records every family's spec so a reopen can refuse what it
 * does not understand.
 *
 * <p>The environment is opened with {@code MDB_NOSYNC} (a commit writes its pages through the OS
 * page cache but does not fsync; {@link LmdbStore} syncs explicitly) and {@code MDB_NOTLS} (read
 * transactions are not bound to the thread that began them, so a scan may be closed from another
 * thread). Keys and values cross as {@link MapBytes} ({@link MapBytesProxy}): arrays going in are
 * copied to native memory for the call; what a read finds is a view of the map that the reader
 * copies out of, once, before its next read; no JVM flags needed.
 *
 * <p>Metadata: key {@code "format"} → 4-byte big-endian version; key {@code "family:" + name} → one
 * byte, 1 for a counters family, 0 otherwise. The version says how values are stored (see {@link
 * ValueChecksums}): {@value #FORMAT_PLAIN} as given (stores written before checksums existed, or
 * created with {@code lmdb.checksums=false}), {@value #FORMAT_CHECKSUMS} with a CRC32C of key and
 * value appended. It is written once, when the store is created; a release that knows only format
 * {@value #FORMAT_PLAIN} refuses a format-{@value #FORMAT_CHECKSUMS} store instead of misreading
 * it. The metadata DBI's name contains a dot, which no family name can ({@link FamilySpec}), so it
 * never collides with a family.
 *
 * <p>Not thread-safe by itself: {@link LmdbStore} guards it (see its locking notes).
 */
final class LmdbEnvironment {
  static final String META_DBI = "ankusa.meta";

  /** Metadata format of stores whose values carry no checksum. */
  static final int FORMAT_PLAIN = 1;

  /** Metadata format of stores whose values carry a CRC32C of key and value. */
  static final int FORMAT_CHECKSUMS = 2;

  static final String DATA_FILE = "data.mdb";
  private static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.UTF_8);
  private static final String FAMILY_PREFIX = "family:";

  private final Env<MapBytes> env;
  private final Map<String, Dbi<MapBytes>> dbis;
  private final Dbi<MapBytes> meta;
  private final ValueChecksums checksums;
  private final PointReadTxns pointReads;

  private LmdbEnvironment(
      Env<MapBytes> env,
      Map<String, Dbi<MapBytes>> dbis,
      Dbi<MapBytes> meta,
      ValueChecksums checksums) {
    this.env = env;
    this.dbis = dbis;
    this.meta = meta;
    this.checksums = checksums;
    this.pointReads = new PointReadTxns(env);
  }

  /** The read transactions point reads renew rather than begin. */
  PointReadTxns pointReads() {
    return pointReads;
  }

  /** How this store's values are stored: with checksums or as given, as its metadata records. */
  ValueChecksums checksums() {
    return checksums;
  }

  Env<MapBytes> env() {
    return env;
  }

  /** The DBI of a family the catalog has already checked. */
  Dbi<MapBytes> dbi(String family) {
    Dbi<MapBytes> dbi = dbis.get(family);
    if (dbi == null) {
      throw new StoreArgumentException("no LMDB database is open for family '" + family + "'");
    }
    return dbi;
  }

  /** The current size of the memory map in bytes. */
  long mapSize() {
    return env.info().mapSize;
  }

  /**
   * Opens the environment in {@code dir} and its families, creating the missing ones when {@code
   * create}. With {@code readOnly}, maps the data file {@code MDB_RDONLY | MDB_NOLOCK}: no file is
   * created or written (LMDB's reader table in {@code lock.mdb} included), the families are checked
   * in a read transaction, and a missing family is refused. REQUIRES: {@code dir} exists; the
   * caller holds the store's directory claim (with {@code MDB_NOLOCK} that claim is what keeps
   * writers out).
   *
   * @throws StoreFormatException when the store holds families not listed in {@code catalog}, a
   *     listed family with another counters setting, a newer metadata format, LMDB databases this
   *     backend did not record, or (with {@code create} false) lacks a listed family. Nothing was
   *     changed on disk: the checks run in a write transaction that is aborted.
   * @throws io.ankusa.store.spi.StoreCorruptionException when {@code data.mdb} is damaged: cut
   *     short before a page its newest meta page reaches, or holding a page LMDB never writes
   *     ({@link DataFileCheck}); it was not mapped
   */
  static LmdbEnvironment open(
      Path dir,
      LmdbSettings settings,
      FamilyCatalog catalog,
      long mapSize,
      boolean create,
      boolean readOnly) {
    Path data = dir.resolve(DATA_FILE);
    if (Files.isRegularFile(data)) {
      DataFileCheck.check(data);
    }
    Env<MapBytes> env;
    try {
      env =
          Env.create(MapBytesProxy.PROXY)
              .setMapSize(mapSize)
              .setMaxDbs(catalog.specs().size() + 1)
              .setMaxReaders(settings.maxReaders())
              .open(
                  dir.toFile(),
                  readOnly
                      ? new EnvFlags[] {
                        EnvFlags.MDB_RDONLY_ENV, EnvFlags.MDB_NOLOCK, EnvFlags.MDB_NOTLS
                      }
                      : new EnvFlags[] {EnvFlags.MDB_NOSYNC, EnvFlags.MDB_NOTLS});
    } catch (Env.FileInvalidException | Env.VersionMismatchException e) {
      throw new StoreFormatException(
          "the "
              + DATA_FILE
              + " in "
              + dir
              + " is not an LMDB data file this release can read ("
              + e.getMessage()
              + "): it belongs to another engine or LMDB version; open it with the program that wrote it",
          e);
    } catch (LmdbException e) {
      throw new StoreException(
          "cannot open the LMDB environment in "
              + dir
              + ": "
              + e.getMessage()
              + "; check the directory's permissions and that its data.mdb is an LMDB file",
          e);
    }
    try {
      return readOnly
          ? attachReadOnly(dir, env, catalog)
          : attach(dir, env, catalog, create, settings.checksums());
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
  }

  private static LmdbEnvironment attach(
      Path dir, Env<MapBytes> env, FamilyCatalog catalog, boolean create, boolean checksumsIfNew) {
    List<String> existing = databaseNames(dir, env);
    boolean fresh = existing.isEmpty();
    if (!fresh && !existing.contains(META_DBI)) {
      throw new StoreFormatException(
          "the LMDB environment in "
              + dir
              + " holds databases "
              + existing
              + " but no '"
              + META_DBI
              + "': it was not written by ankusa-store; open it with the program that wrote it");
    }
    Map<String, Dbi<MapBytes>> dbis = new LinkedHashMap<>();
    Txn<MapBytes> txn = env.txnWrite();
    try {
      Dbi<MapBytes> meta =
          env.openDbi(
              txn, META_DBI.getBytes(StandardCharsets.UTF_8), null, false, DbiFlags.MDB_CREATE);
      int format =
          fresh
              ? (checksumsIfNew ? FORMAT_CHECKSUMS : FORMAT_PLAIN)
              : recordedFormat(dir, txn, meta);
      Map<String, Boolean> recorded = readRecorded(txn, meta);
      for (String name : existing) {
        if (!name.equals(META_DBI) && !recorded.containsKey(name)) {
          throw new StoreFormatException(
              "the LMDB store in "
                  + dir
                  + " holds a database '"
                  + name
                  + "' that its metadata does not"
                  + " record: it was not written by this backend; restore the store from a backup");
        }
      }
      checkFamilies(dir, recorded, catalog.specs());
      for (FamilySpec f : catalog.specs()) {
        Boolean had = recorded.get(f.name());
        if (had == null) {
          if (!create) {
            throw new StoreFormatException(
                "the LMDB store in "
                    + dir
                    + " has no family '"
                    + f.name()
                    + "' and createIfMissing is"
                    + " false; open it with createIfMissing to add the family");
          }
          meta.put(
              txn,
              MapBytes.of((FAMILY_PREFIX + f.name()).getBytes(StandardCharsets.UTF_8)),
              MapBytes.of(new byte[] {(byte) (f.counters() ? 1 : 0)}));
        }
        dbis.put(
            f.name(),
            env.openDbi(
                txn,
                f.name().getBytes(StandardCharsets.UTF_8),
                null,
                false,
                had == null ? new DbiFlags[] {DbiFlags.MDB_CREATE} : new DbiFlags[0]));
      }
      if (fresh || meta.get(txn, MapBytes.of(FORMAT_KEY)) == null) {
        meta.put(txn, MapBytes.of(FORMAT_KEY), MapBytes.of(new byte[] {0, 0, 0, (byte) format}));
      }
      txn.commit();
      return new LmdbEnvironment(
          env,
          dbis,
          meta,
          format == FORMAT_CHECKSUMS ? ValueChecksums.CRC32C : ValueChecksums.NONE);
    } catch (LmdbException e) {
      throw new StoreFormatException(
          "cannot open the families of the LMDB store in " + dir + ": " + e.getMessage(), e);
    } finally {
      txn.close();
    }
  }

  /**
   * {@link #attach} for a read-only environment: the same checks, in a read transaction, opening
   * only what exists; a store without the metadata database or without a listed family is refused.
   */
  private static LmdbEnvironment attachReadOnly(
      Path dir, Env<MapBytes> env, FamilyCatalog catalog) {
    List<String> existing = databaseNames(dir, env);
    if (!existing.contains(META_DBI)) {
      throw new StoreFormatException(
          "the LMDB environment in "
              + dir
              + " holds databases "
              + existing
              + " but no '"
              + META_DBI
              + "': it holds no store of this backend to open read-only; check the path");
    }
    Map<String, Dbi<MapBytes>> dbis = new LinkedHashMap<>();
    Txn<MapBytes> txn = env.txnRead();
    try {
      Dbi<MapBytes> meta = env.openDbi(txn, META_DBI.getBytes(StandardCharsets.UTF_8), null, false);
      int format = recordedFormat(dir, txn, meta);
      Map<String, Boolean> recorded = readRecorded(txn, meta);
      checkFamilies(dir, recorded, catalog.specs());
      for (FamilySpec f : catalog.specs()) {
        if (!recorded.containsKey(f.name())) {
          throw new StoreFormatException(
              "the LMDB store in "
                  + dir
                  + " has no family '"
                  + f.name()
                  + "', and a read-only open cannot add"
                  + " it; open it read-write with createIfMissing to add the family");
        }
        dbis.put(
            f.name(), env.openDbi(txn, f.name().getBytes(StandardCharsets.UTF_8), null, false));
      }
      txn.commit(); // keeps the DBI handles open for later transactions
      return new LmdbEnvironment(
          env,
          dbis,
          meta,
          format == FORMAT_CHECKSUMS ? ValueChecksums.CRC32C : ValueChecksums.NONE);
    } catch (LmdbException e) {
      throw new StoreFormatException(
          "cannot open the families of the LMDB store in " + dir + " read-only: " + e.getMessage(),
          e);
    } finally {
      txn.close();
    }
  }

  /** The names of the named databases in the environment. */
  private static List<String> databaseNames(Path dir, Env<MapBytes> env) {
    List<String> names = new ArrayList<>();
    try {
      for (byte[] name : env.getDbiNames()) {
        names.add(new String(name, StandardCharsets.UTF_8));
      }
    } catch (LmdbException e) {
      throw new StoreFormatException(
          "cannot list the databases of the LMDB store in " + dir + ": " + e.getMessage(), e);
    }
    return names;
  }

  /**
   * The metadata format of an existing store: {@value #FORMAT_PLAIN} when it records none (the
   * first stores), else the recorded one.
   *
   * @throws StoreFormatException for a format this release does not read
   */
  private static int recordedFormat(Path dir, Txn<MapBytes> txn, Dbi<MapBytes> meta) {
    MapBytes stored = meta.get(txn, MapBytes.of(FORMAT_KEY));
    if (stored == null) {
      return FORMAT_PLAIN;
    }
    int version = stored.size() == Integer.BYTES ? stored.intAt(0) : -1;
    if (version != FORMAT_PLAIN && version != FORMAT_CHECKSUMS) {
      throw new StoreFormatException(
          "the LMDB store in "
              + dir
              + " has metadata format "
              + version
              + " and this release reads "
              + FORMAT_PLAIN
              + " and "
              + FORMAT_CHECKSUMS
              + ": it was written by a newer release; open it with"
              + " that release");
    }
    return version;
  }

  /** Family name → counters, from the metadata DBI. */
  private static Map<String, Boolean> readRecorded(Txn<MapBytes> txn, Dbi<MapBytes> meta) {
    Map<String, Boolean> recorded = new TreeMap<>();
    try (Cursor<MapBytes> c = meta.openCursor(txn)) {
      for (boolean ok = c.first(); ok; ok = c.next()) {
        String key = new String(c.key().copy(), StandardCharsets.UTF_8);
        if (key.startsWith(FAMILY_PREFIX)) {
          byte[] v = c.val().copy();
          recorded.put(key.substring(FAMILY_PREFIX.length()), v.length == 1 && v[0] == 1);
        }
      }
    }
    return recorded;
  }

  /** Unlisted families and counters mismatches, with the messages the contract asks for. */
  static void checkFamilies(Path dir, Map<String, Boolean> recorded, List<FamilySpec> asked) {
    Map<String, FamilySpec> byName = new HashMap<>();
    asked.forEach(f -> byName.put(f.name(), f));
    List<String> unlisted = recorded.keySet().stream().filter(n -> !byName.containsKey(n)).toList();
    if (!unlisted.isEmpty()) {
      throw new StoreFormatException(
          "the LMDB store in "
              + dir
              + " holds families "
              + unlisted
              + " that the caller did not list "
              + asked.stream().map(FamilySpec::name).toList()
              + ": it was written by a newer release; open it with that release");
    }
    for (FamilySpec f : asked) {
      Boolean had = recorded.get(f.name());
      if (had != null && had != f.counters()) {
        throw new StoreFormatException(
            "the LMDB store in "
                + dir
                + ": family '"
                + f.name()
                + "' was created with counters="
                + had
                + " but is opened with counters="
                + f.counters()
                + "; open it with the same FamilySpec");
      }
    }
  }

  /**
   * Closes every DBI handle and the environment. REQUIRES: no transaction of this environment is
   * open (the store closes its scans and snapshots first and holds its exclusive lock).
   */
  void close() {
    if (env.isClosed()) {
      return;
    }
    pointReads.closeAll();
    for (Dbi<MapBytes> dbi : dbis.values()) {
      dbi.close();
    }
    meta.close();
    env.close();
  }

  boolean isClosed() {
    return env.isClosed();
  }
}
