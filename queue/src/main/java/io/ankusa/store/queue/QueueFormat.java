package io.ankusa.store.queue;

import io.ankusa.store.layout.FamilySentinels;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.KeyFamily;
import io.ankusa.store.layout.KeyRange;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.LastSeqValue;
import io.ankusa.store.layout.NextOrdinalValue;
import io.ankusa.store.queue.migration.Migrate;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;

/**
 * The format stamp {@code m:format}: what a store's layout is, and the bootstrap of a new format-3
 * store. Forward-only: this release reads format 3, refuses a newer one, and sends an older one to
 * the migration.
 */
public final class QueueFormat {
  private QueueFormat() {}

  /** The store's format stamp, or -1 when it has none. */
  public static int stamp(ReadView view) {
    byte[] key = Keys.formatStamp();
    byte[] v = view.get(Format3.DEFAULT, key);
    return v == null ? -1 : FormatStampValue.decodeAt(key, v).format();
  }

  /**
   * {@link #openOrCreate(Store, QueueConfig)} with the default settings (tenants.max 1 000 000 for
   * the migration's overage warning).
   */
  public static void openOrCreate(Store store) {
    openOrCreate(store, QueueConfig.defaults());
  }

  /**
   * Makes sure {@code store} is a format-3 queue store, creating the layout in a new, empty store:
   * every family's sentinels, {@code m:format = 3}, {@code m:next_ord = 1}, {@code m:last_seq = 0},
   * in one SYNC batch. A format-2 store, or one whose migration was interrupted ({@code
   * m:migrating:3}), is migrated first by {@link Migrate} (logged at INFO with rows/s), so a
   * restored format-2 backup opens as format 3 (property {@code aRestoredFormat2BackupMigratesOnOpen}).
   *
   * <p>REQUIRES: the store was opened with {@link Format3#families()}; nothing else writes to it yet.
   *
   * @throws StoreFormatException if the store is newer than format 3, of a format no migration
   *     leaves, or holds data without a stamp
   */
  public static void openOrCreate(Store store, QueueConfig config) {
    int format = stamp(store);
    if (format == Format3.FORMAT && store.get(Format3.DEFAULT, Keys.migrating(Format3.FORMAT)) == null) {
      return;
    }
    if (format >= 0) {
      new Migrate(config).run(store); // refuses a newer store: "store format 4 is newer than 3"
      return;
    }
    if (hasAnyKey(store, Format3.HOOKS) || hasAnyKey(store, Format3.INDEX)) {
      throw new StoreFormatException("store " + store.directory()
          + " holds hooks or index rows but no format stamp (m:format): it was not written by ankusa-store;"
          + " refusing to guess its layout");
    }
    store.write(bootstrap(), Durability.SYNC);
  }

  /** The batch that lays out a new format-3 store. */
  static Batch bootstrap() {
    Batch b = new Batch();
    for (FamilySentinels s : Keys.sentinels()) {
      String cf = s.family().columnFamily();
      byte[] value = s.family() == KeyFamily.COUNTERS ? Int64Add.encode(0) : new byte[0];
      b.put(cf, s.lo(), value);
      b.put(cf, s.hi(), value);
    }
    b.put(Format3.DEFAULT, Keys.formatStamp(), FormatStampValue.FORMAT_3.encode());
    b.put(Format3.DEFAULT, Keys.nextOrd(), NextOrdinalValue.FIRST.encode());
    b.put(Format3.DEFAULT, Keys.lastSeq(), new LastSeqValue(0).encode());
    return b;
  }

  private static boolean hasAnyKey(ReadView view, String family) {
    try (Scan scan = view.scan(family, new byte[0], null, Direction.FORWARD)) {
      return scan.hasNext();
    }
  }

  /** Whether {@code range} holds any key. */
  static boolean any(ReadView view, KeyRange range) {
    try (Scan scan = view.scan(range.columnFamily(), range.lo(), range.hi(), Direction.FORWARD)) {
      return scan.hasNext();
    }
  }
}
