package io.ankusa.store.conformance.queue;

import static io.ankusa.store.conformance.queue.LayoutAssertions.*;

import io.ankusa.store.conformance.ConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The layout layer's generators: queue action sequences ({@link QueueAction}) and due-second
 * layouts.
 */
public abstract class LayoutGenerators extends ConformanceSuite implements LayoutCase {
  /** Generated, shrinkable sequences of every queue transition, archiver runs included (case 1). */
  @Provide
  Arbitrary<List<QueueAction>> queueActions() {
    return transitions(true);
  }

  /**
   * The same without archiver runs (case 5): they touch no due row or marker, and leaving them out
   * keeps the retries and claims that can strand a marker as frequent as the marker case needs.
   */
  @Provide
  Arbitrary<List<QueueAction>> markerActions() {
    return transitions(false);
  }

  private static Arbitrary<List<QueueAction>> transitions(boolean withArchiverRuns) {
    Arbitrary<Integer> tenant = Arbitraries.integers().between(0, QueueDriver.TENANTS.size() - 1);
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 50);
    Arbitrary<QueueAction> ingest =
        Combinators.combine(
                tenant,
                Arbitraries.integers().between(1, 3),
                Arbitraries.integers().between(1, 3),
                Arbitraries.longs().between(-1500, 2500),
                Arbitraries.integers().between(0, 64))
            .as(QueueAction.Ingest::new);
    Arbitrary<QueueAction> tick =
        Combinators.combine(
                Arbitraries.longs().between(0, 3000), Arbitraries.integers().between(1, 8))
            .as(QueueAction.Tick::new);
    Arbitrary<QueueAction> deliver = pick.map(QueueAction.Deliver::new);
    Arbitrary<QueueAction> retry =
        Combinators.combine(pick, Arbitraries.longs().between(0, 4000)).as(QueueAction.Retry::new);
    Arbitrary<QueueAction> deadLetter = pick.map(QueueAction.DeadLetter::new);
    Arbitrary<QueueAction> revive = pick.map(QueueAction.Revive::new);
    Arbitrary<QueueAction> recover = Arbitraries.just(new QueueAction.RecoverInflight());
    Arbitrary<QueueAction> expand = pick.map(QueueAction.Expand::new);
    Arbitrary<QueueAction> purge =
        Combinators.combine(tenant, Arbitraries.integers().between(0, 2))
            .as((tn, kinds) -> new QueueAction.PurgeTenant(tn, kinds != 1, kinds != 0));
    Arbitrary<QueueAction> archive =
        Combinators.combine(pick, Arbitraries.of(false, true)).as(QueueAction.SettleArchive::new);
    Arbitrary<QueueAction> reclaim =
        Arbitraries.integers().between(1, 10).map(QueueAction.ReclaimHooks::new);
    List<Tuple.Tuple2<Integer, Arbitrary<QueueAction>>> mix =
        new ArrayList<>(
            List.of(
                Tuple.of(8, ingest),
                Tuple.of(6, tick),
                Tuple.of(3, deliver),
                Tuple.of(4, retry),
                Tuple.of(3, deadLetter),
                Tuple.of(3, revive),
                Tuple.of(1, recover),
                Tuple.of(2, expand),
                Tuple.of(1, purge),
                Tuple.of(2, archive),
                Tuple.of(1, reclaim)));
    if (withArchiverRuns) {
      mix.add(Tuple.of(2, archiverRuns()));
    }
    return Arbitraries.frequencyOf(mix).list().ofMinSize(1).ofMaxSize(30);
  }

  /** Ingest, dispatch, delivery and reclaim between archiver runs (the archive cases). */
  @Provide
  Arbitrary<List<QueueAction>> archiveActions() {
    Arbitrary<QueueAction> ingest =
        Combinators.combine(
                Arbitraries.integers().between(0, QueueDriver.TENANTS.size() - 1),
                Arbitraries.integers().between(1, 4),
                Arbitraries.integers().between(1, 2),
                Arbitraries.longs().between(-1500, 500),
                Arbitraries.integers().between(0, 40))
            .as(QueueAction.Ingest::new);
    Arbitrary<QueueAction> tick =
        Combinators.combine(
                Arbitraries.longs().between(0, 3000), Arbitraries.integers().between(1, 8))
            .as(QueueAction.Tick::new);
    Arbitrary<QueueAction> deliver =
        Arbitraries.integers().between(0, 50).map(QueueAction.Deliver::new);
    Arbitrary<QueueAction> reclaim =
        Arbitraries.integers().between(1, 10).map(QueueAction.ReclaimHooks::new);
    @SuppressWarnings("unchecked")
    Arbitrary<QueueAction> action =
        Arbitraries.frequencyOf(
            Tuple.of(6, ingest),
            Tuple.of(3, tick),
            Tuple.of(3, deliver),
            Tuple.of(2, reclaim),
            Tuple.of(6, archiverRuns()));
    return action.list().ofMinSize(1).ofMaxSize(30);
  }

  private static Arbitrary<QueueAction> archiverRuns() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 6),
            Arbitraries.integers().between(1, 4),
            Arbitraries.of(false, true),
            Arbitraries.of(false, false, true),
            Arbitraries.of(false, false, false, true))
        .as(QueueAction.Archive::new);
  }

  /**
   * Per tenant, the seconds (relative to now's) of its rows: past or future, never now's or the
   * next.
   */
  @Provide
  Arbitrary<List<List<Integer>>> dueSecondsPerTenant() {
    return Arbitraries.integers()
        .between(-8, 6)
        .filter(o -> o != 0 && o != 1)
        .list()
        .ofMaxSize(5)
        .list()
        .ofMinSize(1)
        .ofMaxSize(6);
  }
}
