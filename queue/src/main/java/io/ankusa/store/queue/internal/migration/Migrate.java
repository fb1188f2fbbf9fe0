package io.ankusa.store.queue.internal.migration;

import io.ankusa.store.layout.AggregateShardsValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.FormatStampValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreFormatException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a store's layout forward to the release's format, one {@link Migration} after another,
 * from the registry {2 → 3: {@link TenantKeys}}. Forward-only: a store newer than the release is
 * refused ({@link StoreFormatException} "store format 3 is newer than 2", property {@code
 * aFormat2RunnerRefusesAFormat3Store}).
 *
 * <p>Durability and resumption: the cursor of a migration to format {@code n} lives at {@code
 * m:migrating:n} in {@code default}; each step's ops and the next cursor are committed in ONE
 * {@link Durability#SYNC} batch, and the last step's ops, {@code m:format = n} and the delete of
 * the cursor in one more. A run killed at any moment leaves the store at a committed step; the next
 * run (the next open of the queue) resumes from it and ends with the same store as an uninterrupted
 * run, byte for byte (property {@code resumesAnInterruptedMigrationWithoutDoubleCounting}).
 *
 * <p>Each step also records the queue's {@code counters.sharded_aggregate} setting ({@code
 * m:aggregate_shards}), whose layout its counter merges used; a run resuming with the other setting
 * is refused (property {@code anInterruptedMigrationResumesOnlyWithItsAggregateLayout}).
 *
 * <p>REQUIRES: nothing else writes to the store while a migration runs (it runs at open, before
 * anything serves); the store was opened with {@link Format3#families()} (the backend creates the
 * missing {@code tenants} and {@code counters} families with {@code createIfMissing}).
 */
public final class Migrate {
  private static final Logger LOG = LoggerFactory.getLogger(Migrate.class);

  private final int releaseFormat;
  private final QueueConfig config;
  private final LongSupplier clock;
  private final int rowsPerStep;

  /** The runner of this release (format 3), with the wall clock. */
  public Migrate(QueueConfig config) {
    this(Format3.FORMAT, config, System::currentTimeMillis, TenantKeys.ROWS_PER_STEP);
  }

  /**
   * A runner for a release that writes {@code releaseFormat}.
   *
   * @param clock epoch ms; read once, when a migration starts (TenantKeys' startedAt)
   * @param rowsPerStep old rows per step (500 in production; smaller in tests)
   */
  public Migrate(int releaseFormat, QueueConfig config, LongSupplier clock, int rowsPerStep) {
    if (releaseFormat < 1) {
      throw new StoreArgumentException("release format " + releaseFormat + " is out of range 1..");
    }
    this.releaseFormat = releaseFormat;
    this.config = config;
    this.clock = clock;
    this.rowsPerStep = rowsPerStep;
  }

  /** The registry: from-format → the migration that leaves it. */
  private TreeMap<Integer, Migration> registry() {
    TreeMap<Integer, Migration> r = new TreeMap<>();
    r.put(FormatTwo.FORMAT, new TenantKeys(config, clock, rowsPerStep));
    return r;
  }

  /** What a run did. */
  public record Result(
      int fromFormat, int toFormat, long steps, long rows, long nanos, boolean finished) {
    /** Old rows moved per second of this run (0 when nothing moved). */
    public double rowsPerSecond() {
      return nanos <= 0 ? 0 : rows * 1e9 / nanos;
    }
  }

  /**
   * Whether {@code view} needs a migration to reach this release's format: its stamp is older, or a
   * migration was interrupted. A store with no stamp (new, empty) needs none.
   *
   * @throws StoreFormatException if the store is newer than this release
   */
  public boolean needed(ReadView view) {
    int stamp = checkedStamp(view);
    return (stamp >= 0 && stamp < releaseFormat)
        || view.get(Format3.DEFAULT, Keys.migrating(releaseFormat)) != null;
  }

  /**
   * The plan lines of the migrations a run would perform, e.g. {@code 2 -> 3: re-key
   * due/inflight/dead by tenant ordinal, seed per-tenant counters}; with "(resuming)" when one was
   * interrupted. Reads only.
   *
   * @throws StoreFormatException if the store is newer, or no migration leaves its format
   */
  public List<String> dryRun(ReadView view) {
    List<String> lines = new ArrayList<>();
    if (!needed(view)) {
      return lines;
    }
    int format = checkedStamp(view);
    TreeMap<Integer, Migration> registry = registry();
    while (format < releaseFormat) {
      Migration m = migrationFrom(registry, format);
      boolean resuming = view.get(Format3.DEFAULT, Keys.migrating(m.toFormat())) != null;
      lines.add(m.plan() + (resuming ? " (resuming an interrupted run)" : ""));
      format = m.toFormat();
    }
    return lines;
  }

  /** Runs every migration the store needs to completion. See {@link #run(Store, long)}. */
  public Result run(Store store) {
    return run(store, Long.MAX_VALUE);
  }

  /**
   * Runs at most {@code maxSteps} steps (each one committed SYNC) and returns; a later run resumes.
   * Logs at INFO when a migration starts, resumes and ends (rows, steps, rows/s), and at WARN when
   * the store ends with more tenants than {@code tenants.max}.
   *
   * @throws StoreFormatException if the store is newer than this release, no migration leaves its
   *     format, or it was not opened with the families the migration writes
   */
  public Result run(Store store, long maxSteps) {
    int from = checkedStamp(store);
    if (!needed(store)) {
      return new Result(from, from, 0, 0, 0, true);
    }
    TreeMap<Integer, Migration> registry = registry();
    int format = from;
    long steps = 0;
    long rows = 0;
    long started = System.nanoTime();
    while (format < releaseFormat) {
      Migration m = migrationFrom(registry, format);
      requireFamilies(store, m);
      byte[] cursorKey = Keys.migrating(m.toFormat());
      byte[] cursor = store.get(Format3.DEFAULT, cursorKey);
      if (cursor != null && m.toFormat() == Format3.FORMAT) {
        requireStartedLayout(store, m);
      }
      long phaseStarted = System.nanoTime();
      long phaseRows = 0;
      LOG.info(
          "store {}: {} migration {} -> {} ({})",
          store.directory(),
          cursor == null ? "starting" : "resuming",
          m.fromFormat(),
          m.toFormat(),
          m.plan());
      boolean done = false;
      while (!done) {
        if (steps >= maxSteps) {
          return new Result(from, format, steps, rows, System.nanoTime() - started, false);
        }
        Migration.Step step = m.step(store, cursor);
        Batch batch = step.ops();
        if (m.toFormat() == Format3.FORMAT) {
          // Each step's counter merges use config's aggregate layout: record it with them, as a new
          // store
          // does, so a resumed run can refuse the other layout (requireStartedLayout).
          batch.put(
              Format3.DEFAULT,
              Keys.aggregateShards(),
              AggregateShardsValue.of(config.shardedAggregate()).encode());
        }
        if (step.done()) {
          batch.put(
              Format3.DEFAULT, Keys.formatStamp(), new FormatStampValue(m.toFormat()).encode());
          batch.delete(Format3.DEFAULT, cursorKey);
        } else {
          batch.put(Format3.DEFAULT, cursorKey, step.cursor());
        }
        store.write(batch, Durability.SYNC);
        step.committed().run();
        steps++;
        rows += step.rows();
        phaseRows += step.rows();
        cursor = step.cursor();
        done = step.done();
      }
      long nanos = System.nanoTime() - phaseStarted;
      LOG.info(
          "store {}: migrated {} -> {}: {} rows in {} ms ({} rows/s)",
          store.directory(),
          m.fromFormat(),
          m.toFormat(),
          phaseRows,
          TimeUnit.NANOSECONDS.toMillis(nanos),
          nanos <= 0 ? 0 : Math.round(phaseRows * 1e9 / nanos));
      format = m.toFormat();
    }
    long tenants = Tenants.count(store);
    if (tenants > config.tenantsMax()) {
      LOG.warn(
          "store {}: {} tenants after the migration, {} over tenants.max = {}; existing tenants keep"
              + " working, new ones are refused until tenants.max is raised",
          store.directory(),
          tenants,
          tenants - config.tenantsMax(),
          config.tenantsMax());
    }
    return new Result(from, format, steps, rows, System.nanoTime() - started, true);
  }

  /** The store's stamp (-1 when none), refused when newer than this release. */
  private int checkedStamp(ReadView view) {
    int stamp = FormatStamp.stamp(view);
    if (stamp > releaseFormat) {
      throw new StoreFormatException(
          "store format "
              + stamp
              + " is newer than "
              + releaseFormat
              + ": this release reads format "
              + releaseFormat
              + " and formats are forward-only; open the store"
              + " with the release that wrote it, or restore the backup taken before the upgrade");
    }
    return stamp;
  }

  private Migration migrationFrom(TreeMap<Integer, Migration> registry, int format) {
    Migration m = registry.get(format);
    if (m == null) {
      throw new StoreFormatException(
          "store format "
              + format
              + " cannot be migrated by this release (it"
              + " migrates from formats "
              + registry.keySet()
              + " to "
              + releaseFormat
              + "); upgrade through the"
              + " release that reads format "
              + format
              + " first");
    }
    return m;
  }

  /**
   * Refuses to resume a migration to format 3 with the other {@code counters.sharded_aggregate}
   * setting than the one its committed steps merged the node aggregate with (recorded in {@code
   * m:aggregate_shards} by each step): finished under the other setting, the aggregate a queue
   * reads would miss the deltas of the steps before. A run interrupted by a release that did not
   * record the setting is resumed unchecked.
   */
  private void requireStartedLayout(ReadView view, Migration m) {
    byte[] recorded = view.get(Format3.DEFAULT, Keys.aggregateShards());
    if (recorded == null) {
      return;
    }
    boolean sharded = AggregateShardsValue.decodeAt(Keys.aggregateShards(), recorded).sharded();
    if (sharded != config.shardedAggregate()) {
      throw new StoreFormatException(
          "the interrupted migration "
              + m.fromFormat()
              + " -> "
              + m.toFormat()
              + " of this store started with counters.sharded_aggregate = "
              + sharded
              + " ("
              + Bytes.hex(Keys.aggregateShards())
              + "), but the queue is configured with counters.sharded_aggregate = "
              + config.shardedAggregate()
              + "; the steps already committed merged the node aggregate in the first layout: resume it with"
              + " counters.sharded_aggregate = "
              + sharded);
    }
  }

  private static void requireFamilies(Store store, Migration m) {
    Set<String> open = new HashSet<>();
    for (FamilySpec f : store.families()) {
      open.add(f.name());
    }
    for (FamilySpec f : Format3.families()) {
      if (m.toFormat() == Format3.FORMAT && !open.contains(f.name())) {
        throw new StoreFormatException(
            "store "
                + store.directory()
                + " was opened without family '"
                + f.name()
                + "', which the migration "
                + m.fromFormat()
                + " -> "
                + m.toFormat()
                + " writes; open it with"
                + " Format3.families() (the backend creates the missing families)");
      }
    }
  }
}
