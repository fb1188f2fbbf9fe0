package io.ankusa.store.lmdb;

import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreOptions;
import java.util.List;

/**
 * The {@code lmdb.*} properties of {@link StoreOptions}, parsed and checked once at open.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>{@code lmdb.mapSizeBytes}</td><td>64 MiB</td><td>initial size of the memory map
 *       (LMDB's {@code mdb_env_set_mapsize}); the map doubles when a write finds it full</td></tr>
 *   <tr><td>{@code lmdb.mapSizeMaxBytes}</td><td>64 GiB</td><td>the map never grows past this; a
 *       write that needs more fails with {@code StoreFullException}</td></tr>
 *   <tr><td>{@code lmdb.maxReaders}</td><td>512</td><td>reader slots: at most this many read
 *       transactions (open scans, snapshots, in-flight reads, and the reset ones point reads keep for
 *       reuse: an eighth of the slots at most, see {@link PointReadTxns}) at once</td></tr>
 *   <tr><td>{@code lmdb.mapGrowWaitMillis}</td><td>10000</td><td>how long a write that must grow the
 *       map waits for open scans and snapshots to close (LMDB cannot remap under a read
 *       transaction)</td></tr>
 *   <tr><td>{@code lmdb.checksums}</td><td>true</td><td>a store <em>created</em> with it stores a
 *       CRC32C of key and value with every value and checks it on every read (see {@link
 *       ValueChecksums}); the store records the choice, and a reopen follows the record whatever this
 *       option says (stores written before checksums existed keep reading as they were
 *       written)</td></tr>
 * </table>
 *
 * <p>Sizes are rounded down to a multiple of 4 KiB (LMDB wants whole OS pages).
 *
 * @param mapSizeBytes initial map size
 * @param mapSizeMaxBytes largest map size the store grows to
 * @param maxReaders reader slots in LMDB's lock table
 * @param mapGrowWaitMillis how long growth waits for long-lived readers
 * @param checksums whether a store created now checksums its values
 */
record LmdbSettings(
    long mapSizeBytes,
    long mapSizeMaxBytes,
    int maxReaders,
    long mapGrowWaitMillis,
    boolean checksums) {
  static final String MAP_SIZE = "lmdb.mapSizeBytes";
  static final String MAP_SIZE_MAX = "lmdb.mapSizeMaxBytes";
  static final String MAX_READERS = "lmdb.maxReaders";
  static final String MAP_GROW_WAIT = "lmdb.mapGrowWaitMillis";
  static final String CHECKSUMS = "lmdb.checksums";
  static final List<String> KNOWN =
      List.of(MAP_SIZE, MAP_SIZE_MAX, MAX_READERS, MAP_GROW_WAIT, CHECKSUMS);

  static final long DEFAULT_MAP_SIZE = 64L << 20;
  static final long DEFAULT_MAP_SIZE_MAX = 64L << 30;
  static final int DEFAULT_MAX_READERS = 512;
  static final long DEFAULT_MAP_GROW_WAIT_MILLIS = 10_000;

  /** Smallest map accepted: a few pages of metadata plus room for the families' roots. */
  static final long MIN_MAP_SIZE = 256L << 10;

  private static final long PAGE = 4096;

  LmdbSettings {
    if (mapSizeBytes < MIN_MAP_SIZE) {
      throw new StoreArgumentException(
          "option "
              + MAP_SIZE
              + "="
              + mapSizeBytes
              + " is below the minimum of "
              + MIN_MAP_SIZE
              + " bytes");
    }
    if (mapSizeMaxBytes < mapSizeBytes) {
      throw new StoreArgumentException(
          "option "
              + MAP_SIZE_MAX
              + "="
              + mapSizeMaxBytes
              + " is below "
              + MAP_SIZE
              + "="
              + mapSizeBytes
              + "; raise "
              + MAP_SIZE_MAX
              + " or lower "
              + MAP_SIZE);
    }
    if (maxReaders < 1 || maxReaders > 65_536) {
      throw new StoreArgumentException(
          "option " + MAX_READERS + "=" + maxReaders + " must be in 1..65536");
    }
    if (mapGrowWaitMillis < 0) {
      throw new StoreArgumentException(
          "option " + MAP_GROW_WAIT + "=" + mapGrowWaitMillis + " is negative");
    }
    mapSizeBytes = mapSizeBytes / PAGE * PAGE;
    mapSizeMaxBytes = mapSizeMaxBytes / PAGE * PAGE;
  }

  /**
   * Reads the {@code lmdb.*} properties of {@code options}, ignoring other backends' properties.
   *
   * @throws StoreArgumentException on an unknown {@code lmdb.*} property (naming the known ones) or
   *     a value out of range
   */
  static LmdbSettings from(StoreOptions options) {
    for (String key : options.properties().keySet()) {
      if (key.startsWith("lmdb.") && !KNOWN.contains(key)) {
        throw new StoreArgumentException(
            "unknown LMDB option '" + key + "'; the lmdb backend knows " + KNOWN);
      }
    }
    long readers = options.longProperty(MAX_READERS, DEFAULT_MAX_READERS);
    if (readers < 1 || readers > 65_536) {
      throw new StoreArgumentException(
          "option " + MAX_READERS + "=" + readers + " must be in 1..65536");
    }
    String checksums = options.property(CHECKSUMS, "true");
    if (!checksums.equals("true") && !checksums.equals("false")) {
      throw new StoreArgumentException(
          "option " + CHECKSUMS + "='" + checksums + "' must be true or false");
    }
    return new LmdbSettings(
        options.longProperty(MAP_SIZE, DEFAULT_MAP_SIZE),
        options.longProperty(MAP_SIZE_MAX, DEFAULT_MAP_SIZE_MAX),
        (int) readers,
        options.longProperty(MAP_GROW_WAIT, DEFAULT_MAP_GROW_WAIT_MILLIS),
        Boolean.parseBoolean(checksums));
  }

  /** The next map size after {@code current}: double, capped at the maximum, whole pages. */
  long grownFrom(long current) {
    long doubled = current > mapSizeMaxBytes / 2 ? mapSizeMaxBytes : current * 2;
    return Math.min(mapSizeMaxBytes, doubled) / PAGE * PAGE;
  }
}
