package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.MigrationChecks.assertSameStore;
import static io.ankusa.store.conformance.queue.MigrationChecks.assertUpgraded;
import static io.ankusa.store.conformance.queue.MigrationChecks.dump;
import static io.ankusa.store.conformance.queue.MigrationChecks.foldV2;
import static io.ankusa.store.conformance.queue.MigrationChecks.names;
import static io.ankusa.store.conformance.queue.MigrationChecks.rowCount;
import static io.ankusa.store.conformance.queue.MigrationInputs.LARGE_SEED;
import static io.ankusa.store.conformance.queue.MigrationInputs.everyRowKindV2;
import static io.ankusa.store.conformance.queue.MigrationInputs.largeV2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.ankusa.store.conformance.ConformanceSuite;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.conformance.queue.fixtures.StoreArchive;
import io.ankusa.store.conformance.queue.fixtures.StoreFixtures;
import io.ankusa.store.layout.ActiveKey;
import io.ankusa.store.layout.ArchiveValue;
import io.ankusa.store.layout.DeadValue;
import io.ankusa.store.layout.DueKind;
import io.ankusa.store.layout.DueValue;
import io.ankusa.store.layout.EmptyValue;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.InflightValue;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.layout.TenantId;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.migration.FormatTwo;
import io.ankusa.store.queue.internal.migration.FormatTwoWriter;
import io.ankusa.store.queue.internal.migration.Migrate;
import io.ankusa.store.queue.internal.migration.QueueFormat;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.queue.internal.record.HookEnvelope;
import io.ankusa.store.queue.internal.tenant.Tenants;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreFormatException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;
import org.opentest4j.TestAbortedException;
import org.slf4j.LoggerFactory;

/**
 * The store format 2 → 3 migration (docs/deployment.md, 'Format 3, forward-only') as a conformance
 * layer: a backend's test class extends it and names its {@link
 * io.ankusa.store.conformance.BackendFixture}:
 *
 * <pre>{@code
 * class RocksDbMigrationConformanceTest extends MigrationConformance {
 *   @Override protected BackendFixture fixture() { return new RocksDbFixture(); }
 * }
 * }</pre>
 *
 * <p>Format-2 inputs are written with {@link StoreFixtures} / {@link
 * io.ankusa.store.queue.internal.migration.FormatTwoWriter} into a store opened with the format-2
 * families, then reopened with {@link Format3#families()} (the backend creates {@code tenants} and
 * {@code counters}). The RocksDB suite overrides {@link #openV2Fixture(Path)} and {@link
 * #openV3Fixture(Path)} to unpack the packed fixtures instead ({@link #openPackedFixture}).
 *
 * <p>Expected counts never come from the code under test: they are a fold of the format-2 rows,
 * with each row's tenant read from its hook envelope ({@link MigrationChecks#foldV2}). Migrations
 * run with a fixed migration start ({@link #STARTED_AT}), so stores can be compared byte for byte.
 *
 * <p>The cases of a migration that resumes — after a stop between any two steps, after a SIGKILL,
 * with its aggregate layout — are {@link MigrationResumeCases}; the format-2 stores the cases build
 * are {@link MigrationInputs}, the checks of a migrated store {@link MigrationChecks}.
 */
public abstract class MigrationConformance extends ConformanceSuite
    implements MigrationResumeCases {
  /**
   * The migration start of every run in this suite: after the fixtures' past rows, before
   * FUTURE_AT.
   */
  protected static final long STARTED_AT = 100_000_000L;

  /** Hooks of the large store: several 500-row steps per phase. */
  protected static final int LARGE_HOOKS = 2_400;

  // ================================================================ fixtures (overridable)

  /**
   * A format-2 store with the fixture content in {@code dir} (empty), opened with {@link
   * Format3#families()}. Default: {@link StoreFixtures#writeV2} into a store opened with the
   * format-2 families, closed, reopened with the format-3 ones.
   */
  protected Store openV2Fixture(Path dir) {
    try (Store v2 = backend().open(dir, FormatTwo.families())) {
      StoreFixtures.writeV2(v2);
    }
    return backend().open(dir, Format3.families());
  }

  /**
   * A format-3 store with the fixture content in {@code dir} (empty). Default: {@link
   * StoreFixtures#writeV3}.
   */
  protected Store openV3Fixture(Path dir) {
    try (Store v3 = backend().open(dir, Format3.families())) {
      StoreFixtures.writeV3(v3);
    }
    return backend().open(dir, Format3.families());
  }

  /**
   * Unpacks the packed fixture {@code resource} into {@code dir} and opens it with the format-3
   * families.
   */
  protected final Store openPackedFixture(String resource, Path dir) {
    StoreArchive.unpackResource(resource, dir);
    return backend().open(dir, Format3.families());
  }

  // ================================================================ cases

  /**
   * The v2 fixture upgrades to v3 with counters equal to a fold, in every family and for every
   * tenant, default included: each tenant's six counters equal a fold of the format-2 rows (tenant
   * from the envelope), the stored counters equal a fold of the format-3 rows (ord 0 included), the
   * layout verifies clean, no {@code 'd'}/{@code 'f'} key is left, and hooks, deliveries and audit
   * are unchanged byte for byte.
   */
  @Example
  public void v2FixtureUpgradesToV3WithCountersEqualAFold() {
    try (TempDirStore s = scratch()) {
      Store store = s.hold(openV2Fixture(s.dir()));
      assertThat(FormatStamp.stamp(store)).as("the v2 fixture's stamp").isEqualTo(2);
      Map<String, long[]> expected = foldV2(store, STARTED_AT);
      assertThat(expected)
          .as("tenants of the v2 fixture")
          .containsKeys(
              StoreFixtures.ACME,
              StoreFixtures.GLOBEX,
              StoreFixtures.INITECH,
              TenantId.DEFAULT_NAME);
      Map<String, List<String>> untouched =
          dump(store, List.of(Format3.HOOKS, Format3.DELIVERIES, Format3.AUDIT));

      Migrate.Result result = migrate(500).run(store);

      assertThat(result.finished()).isTrue();
      assertThat(result.rows()).as("rows moved").isEqualTo(rowCount(expected));
      assertUpgraded(store, expected);
      assertThat(dump(store, List.of(Format3.HOOKS, Format3.DELIVERIES, Format3.AUDIT)))
          .as("hooks, deliveries and audit are not touched by the migration")
          .isEqualTo(untouched);
      long initech = Tenants.ord(store, TenantId.of(StoreFixtures.INITECH)).orElseThrow();
      TenantCounts onlyDead = new Counters(QueueConfig.defaults()).read(store, initech);
      assertThat(onlyDead.dead()).as("initech's dead rows").isPositive();
      assertThat(onlyDead.pending() + onlyDead.scheduled() + onlyDead.inflight())
          .as("initech has only dead rows")
          .isZero();
      s.reopen();
      assertThat(DeliveryQueue.open(s.store(), QueueConfig.defaults()).lastSeq())
          .as("m:last_seq = max hook seq")
          .isEqualTo(7);
    }
  }

  /**
   * The migration allocates each ordinal once: dense ordinals 1..n, one per distinct tenant, in
   * first-sight order (due rows by time, then inflight, dead, archive), {@code 't'} and {@code 'n'}
   * agreeing, and {@code m:next_ord = n + 1}.
   */
  @Example
  public void allocatesEachOrdinalOnce() {
    try (TempDirStore s = scratch()) {
      Store store = s.hold(largeV2(s, false));
      Map<String, long[]> expected = foldV2(store, STARTED_AT);
      migrate(500).run(store);
      List<String> firstSight = new ArrayList<>(expected.keySet());
      assertThat(Tenants.count(store)).as("ordinals allocated").isEqualTo(firstSight.size());
      for (int i = 0; i < firstSight.size(); i++) {
        TenantId tenant = TenantId.of(firstSight.get(i));
        assertThat(Tenants.ord(store, tenant))
            .as("ordinal of %s, seen %s-th", tenant, i + 1)
            .hasValue(i + 1);
        assertThat(Tenants.name(store, i + 1)).as("tenant of ordinal %s", i + 1).contains(tenant);
      }
      assertThat(QueueVerifier.verify(store))
          .as("ordinals dense and unique, and every other invariant")
          .isEmpty();
    }
  }

  /**
   * A hook with no tenant, a hook that is gone and a hook whose envelope does not decode all file
   * their rows under {@code "default"}; the counters still equal a fold.
   */
  @Example
  public void aHookWithNoTenantOrNoEnvelopeFilesUnderDefault() {
    try (TempDirStore s = scratch()) {
      Store v2 = s.hold(backend().open(s.dir(), FormatTwo.families()));
      HookEnvelope noTenant = StoreFixtures.hook(1, null, 1_000, 1);
      HookEnvelope acme = StoreFixtures.hook(2, StoreFixtures.ACME, 1_100, 1);
      FormatTwoWriter w = new FormatTwoWriter(v2).layout();
      w.hook(acme).due(2, 1, 1_100, DeliveryRow.first(1_100, 40));
      w.hook(noTenant).due(1, 1, 1_000, DeliveryRow.first(1_000, 10));
      w.due(3, 1, 1_200, DeliveryRow.first(1_200, 20)); // hook 3 is gone
      w.rawHook(4, "not an envelope".getBytes(StandardCharsets.UTF_8))
          .inflight(4, 2, DeliveryRow.first(1_300, 30));
      w.rawHook(5, new byte[] {1, 0, 0})
          .dead(9_000, 5, 1, "src", "h5", DeliveryRow.first(1_400, 50));
      w.archive(3, 20);
      w.commit();
      Store store = s.reopen(Format3.families());

      migrate(500).run(store);

      long def = Tenants.ord(store, TenantId.DEFAULT).orElseThrow();
      assertThat(def).as("default is seen first (hook 1's row is due first)").isEqualTo(1);
      assertThat(new Counters(QueueConfig.defaults()).read(store, def))
          .as("default's counters: hooks 1 (no tenant), 3 (gone), 4 and 5 (do not decode)")
          .isEqualTo(new TenantCounts(2, 0, 1, 1, 10 + 20 + 30 + 50, 1));
      assertThat(Counters.readAll(store))
          .as("stored counters equal a fold")
          .isEqualTo(CounterFold.fold(store));
      DeadValue dead = DeadValue.decode(store.get(Format3.INDEX, Keys.dead(9_000, 5, 1)));
      assertThat(dead.ord()).as("ord in the dead row of the undecodable hook").isEqualTo(def);
      assertThat(new String(dead.hookId(), StandardCharsets.UTF_8)).isEqualTo("h5");
    }
  }

  /**
   * A format-2 release refuses a format-3 store twice over: the backend refuses to open it without
   * the {@code tenants} and {@code counters} families, and the format-2 runner's stamp check says
   * "store format 3 is newer than 2". The store is unchanged.
   */
  @Example
  public void aFormat2RunnerRefusesAFormat3Store() {
    try (TempDirStore s = scratch()) {
      s.hold(openV3Fixture(s.dir()));
      Map<String, List<String>> before = dump(s.store(), names(Format3.families()));
      s.closeStore();
      assertThatThrownBy(() -> s.reopen(FormatTwo.families()))
          .as("opening a format-3 store with the format-2 families")
          .isInstanceOf(StoreFormatException.class);
      Store store = s.reopen(Format3.families());
      Migrate formatTwoRunner = new Migrate(2, QueueConfig.defaults(), () -> STARTED_AT, 500);
      assertThatThrownBy(() -> formatTwoRunner.run(store))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("store format 3 is newer than 2");
      assertThatThrownBy(() -> formatTwoRunner.dryRun(store))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("store format 3 is newer than 2");
      assertThat(dump(store, names(Format3.families())))
          .as("the refused store is unchanged")
          .isEqualTo(before);
      assertThat(migrate(500).dryRun(store)).as("the format-3 runner has nothing to do").isEmpty();
    }
  }

  /**
   * A restored format-2 backup migrates when the queue opens it (even with tenants.max below its
   * tenant count: the migration allocates past the cap and logs the overage), and a migration
   * interrupted part-way is finished by the next open with the migration start it persisted (so due
   * rows get the same kind as in an uninterrupted run, whatever the clock says at the second open).
   */
  @Example
  public void aRestoredFormat2BackupMigratesOnOpen() {
    try (TempDirStore s = scratch()) {
      Store store = s.hold(openV2Fixture(s.dir()));
      assertThat(migrate(500).dryRun(store))
          .containsExactly(
              "2 -> 3: re-key due/inflight/dead by tenant ordinal, seed per-tenant counters");
      DeliveryQueue.open(store, QueueConfig.defaults().withTenantsMax(2));
      assertThat(FormatStamp.stamp(store)).isEqualTo(Format3.FORMAT);
      assertThat(store.get(Format3.DEFAULT, Keys.migrating(3)))
          .as("m:migrating:3 after the migration")
          .isNull();
      assertThat(QueueVerifier.verify(store)).isEmpty();
      assertThat(Tenants.count(store))
          .as("tenants.max = 2 never strands rows: every tenant gets an ordinal")
          .isEqualTo(4);
    }
    try (TempDirStore reference = scratch();
        TempDirStore partial = scratch()) {
      long lateStart =
          1_000_000L + LARGE_HOOKS * 7L / 2; // half of the due rows are "after the start"
      Store a = reference.hold(largeV2(reference, false));
      new Migrate(Format3.FORMAT, QueueConfig.defaults(), () -> lateStart, 500).run(a);
      Store b = partial.hold(largeV2(partial, false));
      Migrate.Result part =
          new Migrate(Format3.FORMAT, QueueConfig.defaults(), () -> lateStart, 500).run(b, 2);
      assertThat(part.finished()).isFalse();
      assertThat(migrate(500).dryRun(b)).singleElement().asString().contains("resuming");
      b = partial.reopen();
      DeliveryQueue.open(b, QueueConfig.defaults());
      assertSameStore(
          b, a, "a migration interrupted after 2 steps and finished by DeliveryQueue.open");
      assertThat(QueueVerifier.verify(b)).isEmpty();
    }
  }

  /**
   * The v3 fixture opens as a queue and passes every layout invariant (QueueVerifier finds
   * nothing), and holds what the fixture promises: three or more tenants including default,
   * pending, retrying, inflight and dead rows, archive obligations, and a tenant with only dead
   * rows.
   */
  @Example
  public void theV3FixtureOpensAndPassesTheLayoutInvariants() {
    try (TempDirStore s = scratch()) {
      Store store = s.hold(openV3Fixture(s.dir()));
      DeliveryQueue queue = DeliveryQueue.open(store, QueueConfig.defaults());
      assertThat(FormatStamp.stamp(store)).isEqualTo(Format3.FORMAT);
      assertThat(QueueVerifier.verify(store)).isEmpty();
      assertThat(Tenants.count(store)).as("tenants").isGreaterThanOrEqualTo(3);
      TenantCounts all = queue.counters().aggregate(store);
      assertThat(all.pending()).as("pending rows").isPositive();
      assertThat(all.scheduled()).as("retrying rows").isPositive();
      assertThat(all.inflight()).as("inflight rows").isPositive();
      assertThat(all.dead()).as("dead rows").isPositive();
      assertThat(all.archivePending()).as("archive obligations").isPositive();
      for (String t :
          List.of(
              StoreFixtures.ACME,
              StoreFixtures.GLOBEX,
              StoreFixtures.INITECH,
              TenantId.DEFAULT_NAME)) {
        assertThat(Tenants.ord(store, TenantId.of(t))).as("ordinal of %s", t).isPresent();
      }
      TenantCounts initech =
          queue
              .counters()
              .read(store, Tenants.ord(store, TenantId.of(StoreFixtures.INITECH)).orElseThrow());
      assertThat(initech.dead()).isPositive();
      assertThat(initech.pending() + initech.scheduled() + initech.inflight())
          .as("initech has only dead rows")
          .isZero();
      TenantCounts def =
          queue.counters().read(store, Tenants.ord(store, TenantId.DEFAULT).orElseThrow());
      assertThat(def.pending() + def.dead())
          .as("default (hooks with no tenant) has rows")
          .isPositive();
    }
  }

  /**
   * A large v2 store migrates in several 500-row steps per phase: the committed cursor is seen
   * mid-phase at least twice in each of due, inflight, dead and archive, no step moves more than
   * 500 rows, every row is moved once, and the result verifies clean.
   */
  @Example
  public void aLargeV2StoreMigratesInSeveralStepsPerPhase() {
    try (TempDirStore s = scratch()) {
      Store store = s.hold(largeV2(s, false));
      Map<String, long[]> expected = foldV2(store, STARTED_AT);
      int[] midPhase = new int[6];
      long rows = 0;
      boolean finished = false;
      Migrate migrate = migrate(500);
      while (!finished) {
        Migrate.Result r = migrate.run(store, 1);
        assertThat(r.rows()).as("rows moved by one step").isLessThanOrEqualTo(500);
        rows += r.rows();
        finished = r.finished();
        byte[] cursor = store.get(Format3.DEFAULT, Keys.migrating(3));
        if (!finished) {
          assertThat(cursor).as("the committed cursor").isNotNull();
          if (cursor.length > 9) {
            midPhase[cursor[0]]++;
          }
        }
      }
      assertThat(rows).as("rows moved in all").isEqualTo(rowCount(expected));
      for (int phase = 1; phase <= 4; phase++) {
        assertThat(midPhase[phase])
            .as("steps ending mid-phase in phase %s (1 due, 2 inflight, 3 dead, 4 archive)", phase)
            .isGreaterThanOrEqualTo(2);
      }
      assertUpgraded(store, expected);
    }
  }

  /**
   * Every kind of format-2 row migrates with all its fields, and a run's result counts what it
   * moved: due rows before, exactly at and after the migration start (pending, pending, retrying:
   * kind 0, 0, 1) under their tenant's ordinal with their size and an active marker; inflight rows
   * with their size; dead rows keeping their source and hook ids byte for byte (also empty ones,
   * and a source id that fills the value) with the ordinal added and an {@code 'X'} key; archive
   * obligations with their size and ordinal. With 3 rows per step the 9 rows take 3 steps and the
   * result says so (from 2 to 3, rows 9, finished, its nanos within the call and its rows/s their
   * quotient); counters equal a fold of the format-2 rows. A migration of one row per step stopped
   * after 4 steps reports 4 rows, unfinished, still at format 2, a dry run says it resumes; after a
   * reopen a new runner does the other 5 and the store equals the uninterrupted run's byte for
   * byte. Running again finds nothing to do.
   */
  @Example
  public void everyRowKindMigratesWithAllItsFieldsAndTheResultCountsTheRows() {
    try (TempDirStore reference = scratch();
        TempDirStore stopped = scratch()) {
      Store a = reference.hold(everyRowKindV2(backend(), reference));
      byte[] emptyIds = a.get(Format3.INDEX, FormatTwo.deadKey(5_000, 2, 2));
      assertThat(FormatTwo.DeadValueV2.decodeAt(FormatTwo.deadKey(5_000, 2, 2), emptyIds))
          .as("a format-2 dead value read back")
          .isEqualTo(FormatTwo.DeadValueV2.of("", ""))
          .isNotEqualTo(FormatTwo.DeadValueV2.of("s", ""));
      Map<String, long[]> expected = foldV2(a, STARTED_AT);
      long t0 = System.nanoTime();
      Migrate.Result whole = migrate(3).run(a);
      long elapsed = System.nanoTime() - t0;
      assertThat(
              List.of(
                  whole.fromFormat(),
                  whole.toFormat(),
                  whole.steps(),
                  whole.rows(),
                  whole.finished()))
          .as("from, to, steps, rows, finished of the uninterrupted run")
          .isEqualTo(List.of(2, 3, 3L, 9L, true));
      assertThat(whole.nanos()).as("nanos of the run").isPositive().isLessThanOrEqualTo(elapsed);
      assertThat(whole.rowsPerSecond())
          .as("rows/s")
          .isCloseTo(9 * 1e9 / whole.nanos(), within(1e-6));

      long acme = Tenants.ord(a, TenantId.of(StoreFixtures.ACME)).orElseThrow();
      long globex = Tenants.ord(a, TenantId.of(StoreFixtures.GLOBEX)).orElseThrow();
      assertThat(List.of(acme, globex))
          .as("ordinals in first-sight order")
          .isEqualTo(List.of(1L, 2L));
      assertRow(
          a,
          Keys.due(acme, STARTED_AT - 1_000, 1, 1),
          new DueValue(11, DueKind.FIRST_ATTEMPT).encode());
      assertRow(
          a, Keys.due(globex, STARTED_AT, 2, 1), new DueValue(12, DueKind.FIRST_ATTEMPT).encode());
      assertRow(a, Keys.due(acme, STARTED_AT + 1, 3, 1), new DueValue(13, DueKind.RETRY).encode());
      for (long[] marker :
          new long[][] {{STARTED_AT - 1_000, acme}, {STARTED_AT, globex}, {STARTED_AT + 1, acme}}) {
        assertRow(a, Keys.active(ActiveKey.bucketOf(marker[0]), marker[1]), EmptyValue.encode());
      }
      assertRow(a, Keys.inflight(acme, 4, 1), new InflightValue(14).encode());
      assertRow(a, Keys.inflight(acme, 4, 2), new InflightValue(15).encode());
      assertRow(
          a, Keys.dead(5_000, 2, 2), new DeadValue(globex, new byte[0], new byte[0]).encode());
      assertRow(a, Keys.deadByTenant(globex, 5_000, 2, 2), EmptyValue.encode());
      assertRow(a, Keys.dead(5_100, 1, 2), DeadValue.of(acme, "s", "").encode());
      assertRow(a, Keys.deadByTenant(acme, 5_100, 1, 2), EmptyValue.encode());
      assertRow(a, Keys.archive(1), new ArchiveValue(40, acme).encode());
      assertRow(a, Keys.archive(2), new ArchiveValue(30, globex).encode());
      assertUpgraded(a, expected);

      Store b = stopped.hold(everyRowKindV2(backend(), stopped));
      long t1 = System.nanoTime();
      Migrate.Result part = migrate(1).run(b, 4);
      assertThat(part.nanos())
          .as("nanos of the stopped run")
          .isPositive()
          .isLessThanOrEqualTo(System.nanoTime() - t1);
      assertThat(
              List.of(
                  part.fromFormat(), part.toFormat(), part.steps(), part.rows(), part.finished()))
          .as("from, to, steps, rows, finished of a run stopped after 4 steps")
          .isEqualTo(List.of(2, 2, 4L, 4L, false));
      assertThat(migrate(1).needed(b)).as("needed after an interrupted run").isTrue();
      assertThat(migrate(1).dryRun(b)).singleElement().asString().contains("resuming");
      b = stopped.reopen();
      Migrate.Result rest = migrate(1).run(b);
      assertThat(
              List.of(
                  rest.fromFormat(), rest.toFormat(), rest.steps(), rest.rows(), rest.finished()))
          .as("from, to, steps, rows, finished of the resumed run")
          .isEqualTo(List.of(2, 3, 5L, 5L, true));
      assertSameStore(
          b, a, "a migration of one row per step stopped after 4 steps and resumed after a reopen");

      assertThat(migrate(3).needed(a)).as("needed after the migration").isFalse();
      Migrate.Result again = migrate(3).run(a);
      assertThat(again)
          .as("a run on a migrated store")
          .isEqualTo(new Migrate.Result(3, 3, 0, 0, 0, true));
      assertThat(again.rowsPerSecond()).as("rows/s of a run that moved nothing").isZero();
    }
  }

  /**
   * Bad input gets a clear error and loses nothing: a format-2 store opened without the format-3
   * families is refused by the migration naming the family and the migration; a dead value that
   * does not decode is refused naming its key, and the step that met it writes nothing; a store
   * with hooks but no format stamp is refused on open; a release format below 1 is refused and a
   * format-1 runner refuses a format-2 store as newer; a format-3 store opened with the other
   * {@code counters.sharded_aggregate} setting is refused naming both, also when a stray migration
   * cursor sends it through the migration runner. Each refused store is unchanged. An empty store
   * needs no migration and a run on it does nothing.
   */
  @Example
  public void aMigrationRefusesBadInputAndChangesNothing() {
    try (TempDirStore s = scratch()) {
      Store v2 = s.hold(backend().open(s.dir(), FormatTwo.families()));
      new FormatTwoWriter(v2)
          .layout()
          .hook(StoreFixtures.hook(1, StoreFixtures.ACME, 1_000, 1))
          .due(1, 1, 1_000, DeliveryRow.first(1_000, 11))
          .commit();
      List<String> v2Families = names(FormatTwo.families());
      Map<String, List<String>> before = dump(v2, v2Families);
      assertThatThrownBy(() -> migrate(500).run(v2))
          .as("migrating a store opened with the format-2 families")
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("without family")
          .hasMessageContaining("2 -> 3");
      assertThat(dump(v2, v2Families))
          .as("the store after the refused migration")
          .isEqualTo(before);

      Store store = s.reopen(Format3.families());
      byte[] badKey = FormatTwo.deadKey(5_000, 1, 2);
      byte[] badValue = {0, 0, 0, 5, 's', 0, 0, 0, 0, 0};
      store.write(new Batch().put(Format3.INDEX, badKey, badValue), Durability.SYNC);
      Map<String, List<String>> damaged = dump(store, names(Format3.families()));
      assertThatThrownBy(() -> migrate(500).run(store))
          .as("migrating a dead value that does not decode")
          .isInstanceOf(StoreCorruptionException.class)
          .hasMessageContaining("does not decode")
          .hasMessageContaining(Bytes.hex(badKey));
      assertThat(dump(store, names(Format3.families())))
          .as("the store after the refused step")
          .isEqualTo(damaged);

      assertThatThrownBy(() -> new Migrate(0, QueueConfig.defaults(), () -> STARTED_AT, 500))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining("release format 0");
      assertThatThrownBy(
              () -> new Migrate(1, QueueConfig.defaults(), () -> STARTED_AT, 500).run(store))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("store format 2 is newer than 1");
    }
    try (TempDirStore s = scratch()) {
      Store store = s.hold(backend().open(s.dir(), Format3.families()));
      assertThat(migrate(500).needed(store)).as("an empty store needs a migration").isFalse();
      assertThat(migrate(500).run(store))
          .as("a run on an empty store")
          .isEqualTo(new Migrate.Result(-1, -1, 0, 0, 0, true));
      store.write(
          new Batch()
              .put(Format3.HOOKS, Keys.hook(1), StoreFixtures.hook(1, null, 1_000, 1).encode()),
          Durability.SYNC);
      Map<String, List<String>> stampless = dump(store, names(Format3.families()));
      assertThatThrownBy(() -> QueueFormat.openOrCreate(store))
          .as("opening a store with a hook and no stamp")
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("no format stamp");
      assertThat(dump(store, names(Format3.families())))
          .as("the refused stampless store")
          .isEqualTo(stampless);
    }
    try (TempDirStore s = scratch()) {
      Store store = s.hold(openV3Fixture(s.dir()));
      boolean sharded = FormatStamp.shardedAggregate(store);
      Map<String, List<String>> v3 = dump(store, names(Format3.families()));
      assertThatThrownBy(
              () ->
                  DeliveryQueue.open(store, QueueConfig.defaults().withShardedAggregate(!sharded)))
          .as("opening the v3 fixture with counters.sharded_aggregate = %s", !sharded)
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("created with counters.sharded_aggregate = " + sharded)
          .hasMessageContaining("configured with counters.sharded_aggregate = " + !sharded);
      assertThat(dump(store, names(Format3.families()))).as("the refused v3 store").isEqualTo(v3);
      store.write(
          new Batch().put(Format3.DEFAULT, Keys.migrating(Format3.FORMAT), new byte[] {5}),
          Durability.SYNC);
      assertThatThrownBy(
              () ->
                  DeliveryQueue.open(store, QueueConfig.defaults().withShardedAggregate(!sharded)))
          .as(
              "opening it, with a stray migration cursor, with counters.sharded_aggregate = %s",
              !sharded)
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("created with counters.sharded_aggregate = " + sharded);
    }
  }

  /**
   * An empty format-2 store (its layout only) migrates to exactly what a new format-3 store holds,
   * byte for byte: sentinels, stamp, {@code m:next_ord}, {@code m:last_seq} and the aggregate
   * layout, and no format-2 sentinel left.
   */
  @Example
  public void anEmptyFormat2StoreMigratesToWhatANewStoreHolds() {
    try (TempDirStore fresh = scratch();
        TempDirStore migrated = scratch()) {
      Store created = fresh.hold(backend().open(fresh.dir(), Format3.families()));
      QueueFormat.openOrCreate(created);
      Store v2 = migrated.hold(backend().open(migrated.dir(), FormatTwo.families()));
      new FormatTwoWriter(v2).layout().commit();
      Store store = migrated.reopen(Format3.families());
      assertThat(migrate(500).run(store).rows()).as("rows of an empty format-2 store").isZero();
      assertSameStore(store, created, "an empty format-2 store after its migration");
    }
  }

  private static void assertRow(ReadView view, byte[] key, byte[] value) {
    assertThat(view.get(Format3.INDEX, key)).as("index row %s", Bytes.hex(key)).isEqualTo(value);
  }

  /**
   * Bench, not a test: migration rows/s of a format-2 store of about 10⁵ index rows, logged, never
   * asserted (performance targets live in benches, never in tests). Skipped unless {@code
   * -Dankusa.migration.bench=true}, so the default build stays fast.
   */
  @Example
  public void migrationRowsPerSecondAt100kRows() {
    if (!Boolean.getBoolean("ankusa.migration.bench")) {
      throw new TestAbortedException(
          "bench: run with -Dankusa.migration.bench=true to measure migration rows/s");
    }
    try (TempDirStore s = scratch()) {
      s.reopen(FormatTwo.families());
      int rows = StoreFixtures.writeLargeV2(s.store(), 50_000, LARGE_SEED, false);
      Store store = s.reopen(Format3.families());
      Migrate.Result r = migrate(500).run(store);
      LoggerFactory.getLogger(MigrationConformance.class)
          .info(
              "migration bench on {}: {} index rows written, {} moved in {} steps, {} ms, {} rows/s",
              backend().name(),
              rows,
              r.rows(),
              r.steps(),
              TimeUnit.NANOSECONDS.toMillis(r.nanos()),
              Math.round(r.rowsPerSecond()));
    }
  }

  // ================================================================ helpers

  /** The format-3 runner with the suite's fixed migration start. */
  protected static Migrate migrate(int rowsPerStep) {
    return new Migrate(Format3.FORMAT, QueueConfig.defaults(), () -> STARTED_AT, rowsPerStep);
  }

  /** A fresh temporary directory this case owns, with no store open in it yet. */
  @Override
  public final TempDirStore scratch() {
    return TempDirStore.empty(backend(), Format3.families());
  }
}
