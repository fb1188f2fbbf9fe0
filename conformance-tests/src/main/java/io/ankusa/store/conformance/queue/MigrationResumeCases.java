package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.MigrationChecks.assertCountersEqualExpected;
import static io.ankusa.store.conformance.queue.MigrationChecks.assertSameStore;
import static io.ankusa.store.conformance.queue.MigrationChecks.counts;
import static io.ankusa.store.conformance.queue.MigrationChecks.dump;
import static io.ankusa.store.conformance.queue.MigrationChecks.foldV2;
import static io.ankusa.store.conformance.queue.MigrationChecks.names;
import static io.ankusa.store.conformance.queue.MigrationConformance.STARTED_AT;
import static io.ankusa.store.conformance.queue.MigrationConformance.migrate;
import static io.ankusa.store.conformance.queue.MigrationInputs.everyRowKindV2;
import static io.ankusa.store.conformance.queue.MigrationInputs.largeV2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.BackendFixture;
import io.ankusa.store.conformance.Seeds;
import io.ankusa.store.conformance.TempDirStore;
import io.ankusa.store.layout.CounterField;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.queue.config.QueueConfig;
import io.ankusa.store.queue.internal.DeliveryQueue;
import io.ankusa.store.queue.internal.counter.CounterFold;
import io.ankusa.store.queue.internal.counter.Counters;
import io.ankusa.store.queue.internal.counter.TenantCounts;
import io.ankusa.store.queue.internal.maintenance.QueueVerifier;
import io.ankusa.store.queue.internal.migration.Migrate;
import io.ankusa.store.queue.internal.record.FormatStamp;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Example;

/**
 * Where an interrupted format 2 → 3 migration resumes: closed and reopened between every pair of
 * steps, or its process killed with SIGKILL part-way, it ends equal byte for byte to an
 * uninterrupted run, never counting a row twice; and it resumes only with the aggregate layout it
 * started with.
 *
 * <p>Part of the migration layer: {@link MigrationConformance} runs these cases against the backend
 * its subclass names.
 */
public interface MigrationResumeCases {
  /** How long the process-kill case waits for its child's steps and for its exit. */
  long CHILD_WAIT_SECONDS = 120;

  /** Step size of the process-kill case: many small steps, so a kill lands part-way. */
  int CHILD_ROWS_PER_STEP = 100;

  /** The backend under test (its fixture, made once per suite instance). */
  BackendFixture backend();

  /** Skips the calling case, visibly, when the backend does not claim a capability. */
  void requireCapability(boolean claimed, String capability, String why);

  /** A fresh temporary directory this case owns, with no store open in it yet. */
  TempDirStore scratch();

  /**
   * An interrupted migration resumes without double counting: the store is closed and reopened
   * between every pair of steps (one step per open) and ends equal, in every family and byte for
   * byte, to an uninterrupted run on the same input.
   */
  @Example
  default void resumesAnInterruptedMigrationWithoutDoubleCounting() {
    try (TempDirStore reference = scratch();
        TempDirStore resumed = scratch()) {
      Store a = reference.hold(largeV2(reference, true));
      Map<String, long[]> expected = foldV2(a, STARTED_AT);
      Migrate.Result whole = migrate(500).run(a);
      assertThat(whole.steps()).as("steps of the uninterrupted run").isGreaterThanOrEqualTo(8);

      Store b = resumed.hold(largeV2(resumed, true));
      long steps = 0;
      boolean finished = false;
      while (!finished) {
        finished = migrate(500).run(b, 1).finished();
        steps++;
        b = resumed.reopen();
        assertThat(steps).as("steps of the interrupted run").isLessThanOrEqualTo(whole.steps() + 1);
      }
      assertThat(steps)
          .as("one step per open, as many as the uninterrupted run")
          .isEqualTo(whole.steps());
      assertSameStore(b, a, "a migration interrupted between every pair of steps");
      assertCountersEqualExpected(b, expected);
    }
  }

  /**
   * The process-kill variant: a child JVM migrates the store one committed step at a time and is
   * killed with SIGKILL at a random moment; the next open of the queue resumes, and the store
   * equals an uninterrupted run byte for byte. Needs {@code durableAfterProcessKill}.
   */
  @Example
  default void resumesAMigrationKilledWithSigkillWithoutDoubleCounting() throws Exception {
    requireCapability(
        backend().capabilities().durableAfterProcessKill(),
        "durableAfterProcessKill",
        "a SYNC write must survive kill -9 for a killed migration to resume");
    long seed = Seeds.seed();
    Random random = new Random(seed);
    try (TempDirStore reference = scratch()) {
      Store a = reference.hold(largeV2(reference, true));
      Migrate.Result whole = migrate(CHILD_ROWS_PER_STEP).run(a);
      int partWay = 0;
      for (int round = 0; round < 8 && partWay < 2; round++) {
        try (TempDirStore killed = scratch()) {
          largeV2(killed, true);
          killed.closeStore();
          long killAfter = 1 + random.nextInt((int) whole.steps() - 2);
          String what =
              Seeds.replay(seed) + " round " + round + ", killed after " + killAfter + " steps";
          runChildAndKill(killed.dir(), killAfter, random.nextInt(3), what);
          Store b = killed.reopen();
          if (b.get(Format3.DEFAULT, Keys.migrating(Format3.FORMAT)) != null) {
            partWay++; // the kill landed before the last step: the open below resumes it
          }
          DeliveryQueue.open(
              b, QueueConfig.defaults()); // resumes with the persisted migration start
          assertSameStore(b, a, "a migration killed with SIGKILL (" + what + ")");
        }
      }
      assertThat(partWay)
          .as("rounds whose kill left the migration part-way (%s)", Seeds.replay(seed))
          .isPositive();
    }
  }

  /**
   * An interrupted migration resumes only with the aggregate layout it started with: two steps
   * under {@code counters.sharded_aggregate = true}, then a runner and a queue with the setting off
   * are both refused, naming both settings, and the store is unchanged; resumed with the setting
   * on, the migration finishes and the node aggregate a sharded queue reads equals the sum of the
   * tenants' counters and a fold of the rows.
   */
  @Example
  default void anInterruptedMigrationResumesOnlyWithItsAggregateLayout() {
    QueueConfig sharded = QueueConfig.defaults().withShardedAggregate(true);
    try (TempDirStore s = scratch()) {
      Store store = s.hold(everyRowKindV2(backend(), s));
      assertThat(new Migrate(Format3.FORMAT, sharded, () -> STARTED_AT, 2).run(store, 2).finished())
          .as("finished after 2 steps of 2 rows")
          .isFalse();
      Map<String, List<String>> part = dump(store, names(Format3.families()));
      assertThatThrownBy(
              () ->
                  new Migrate(Format3.FORMAT, QueueConfig.defaults(), () -> STARTED_AT, 2)
                      .run(store))
          .as("resuming with counters.sharded_aggregate = false")
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("started with counters.sharded_aggregate = true")
          .hasMessageContaining("configured with counters.sharded_aggregate = false");
      assertThatThrownBy(() -> DeliveryQueue.open(store, QueueConfig.defaults()))
          .as("opening the queue with counters.sharded_aggregate = false")
          .isInstanceOf(StoreFormatException.class);
      assertThat(dump(store, names(Format3.families())))
          .as("the store after the refused resumes")
          .isEqualTo(part);

      DeliveryQueue queue = DeliveryQueue.open(store, sharded);
      assertThat(FormatStamp.stamp(store)).isEqualTo(Format3.FORMAT);
      Map<Long, TenantCounts> stored = Counters.readAll(store);
      long[] sum = new long[6];
      stored.forEach(
          (ord, c) -> {
            for (CounterField f : CounterField.values()) {
              sum[f.code() - 1] += ord == 0 ? 0 : c.get(f);
            }
          });
      assertThat(queue.counters().aggregate(store))
          .as("the aggregate a sharded queue reads")
          .isEqualTo(counts(sum));
      assertThat(stored).as("stored counters equal a fold").isEqualTo(CounterFold.fold(store));
      assertThat(QueueVerifier.verify(store)).isEmpty();
    }
  }

  /**
   * Starts {@link MigrationChild} on {@code dir}, waits for {@code killAfter} committed steps, then
   * SIGKILLs it.
   */
  private void runChildAndKill(Path dir, long killAfter, int extraMillis, String what)
      throws Exception {
    Path progress = Files.createTempFile("ankusa-migration-progress-", ".txt");
    try {
      Process child =
          ChildJvm.start(
              MigrationChild.class,
              backend(),
              List.of(
                  dir.toString(),
                  Long.toString(STARTED_AT),
                  Integer.toString(CHILD_ROWS_PER_STEP),
                  progress.toString()));
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CHILD_WAIT_SECONDS);
        while (steps(progress) < killAfter && child.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(1);
        }
        assertThat(steps(progress))
            .as("%s: steps the child committed before the kill", what)
            .isGreaterThanOrEqualTo(killAfter);
        Thread.sleep(extraMillis);
        child.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no clean close
      } finally {
        child.destroyForcibly();
        assertThat(child.waitFor(CHILD_WAIT_SECONDS, TimeUnit.SECONDS))
            .as("%s: child exited", what)
            .isTrue();
      }
    } finally {
      Files.deleteIfExists(progress);
    }
  }

  private static long steps(Path progress) throws IOException {
    return Files.readAllLines(progress, StandardCharsets.UTF_8).stream()
        .filter(l -> l.startsWith("step "))
        .count();
  }
}
