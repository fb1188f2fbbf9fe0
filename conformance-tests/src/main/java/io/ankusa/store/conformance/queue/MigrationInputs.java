package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.MigrationConformance.STARTED_AT;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.conformance.queue.fixtures.StoreFixtures;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.queue.internal.migration.FormatTwo;
import io.ankusa.store.queue.internal.migration.FormatTwoWriter;
import io.ankusa.store.queue.internal.record.DeliveryRow;
import io.ankusa.store.spi.Store;

/**
 * The format-2 stores the migration layer migrates ({@link MigrationConformance}, {@link
 * MigrationResumeCases}): the large one of several steps per phase, and one with a row of every
 * kind.
 */
final class MigrationInputs {
  private MigrationInputs() {}

  /** The seed of the large store's generated rows. */
  static final long LARGE_SEED = 20_261_130L;

  /** The large v2 store in {@code s}, opened with the format-3 families. */
  static Store largeV2(TempDirStore s, boolean brokenHooks) {
    s.reopen(FormatTwo.families());
    StoreFixtures.writeLargeV2(
        s.store(),
        MigrationConformance.LARGE_HOOKS,
        brokenHooks ? LARGE_SEED : LARGE_SEED + 1,
        brokenHooks);
    return s.reopen(Format3.families());
  }

  /**
   * A format-2 store with one row of every kind, opened with the format-3 families: hooks 1-4
   * (acme, globex, acme, acme), due rows before, at and after {@link
   * MigrationConformance#STARTED_AT}, two inflight rows, two dead rows (empty ids; a source id
   * filling the value) and two archive obligations; 9 rows.
   */
  static Store everyRowKindV2(BackendFixture backend, TempDirStore s) {
    Store v2 = s.hold(backend.open(s.dir(), FormatTwo.families()));
    new FormatTwoWriter(v2)
        .layout()
        .hook(StoreFixtures.hook(1, StoreFixtures.ACME, 1_000, 1, 2))
        .hook(StoreFixtures.hook(2, StoreFixtures.GLOBEX, 1_100, 1, 2))
        .hook(StoreFixtures.hook(3, StoreFixtures.ACME, 1_200, 1))
        .hook(StoreFixtures.hook(4, StoreFixtures.ACME, 1_300, 1, 2))
        .due(1, 1, STARTED_AT - 1_000, DeliveryRow.first(1_000, 11))
        .due(2, 1, STARTED_AT, DeliveryRow.first(1_100, 12))
        .due(3, 1, STARTED_AT + 1, new DeliveryRow(1, STARTED_AT + 1, "503", 13))
        .inflight(4, 1, DeliveryRow.first(1_300, 14))
        .inflight(4, 2, DeliveryRow.first(1_300, 15))
        .dead(5_000, 2, 2, "", "", new DeliveryRow(5, 0, "410 Gone", 16))
        .dead(5_100, 1, 2, "s", "", new DeliveryRow(5, 0, "410 Gone", 17))
        .archive(1, 40)
        .archive(2, 30)
        .commit();
    return s.reopen(Format3.families());
  }
}
