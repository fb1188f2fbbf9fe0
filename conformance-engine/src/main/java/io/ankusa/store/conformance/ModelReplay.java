package io.ankusa.store.conformance;

import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a sequence of {@link ModelRound}s against a store and the {@link ReferenceModel}, checking after
 * each batch what {@code modelBasedRandomBatches} promises: the whole state of both families, a
 * reverse scan of the round's range, a multiGet and the counters of its probes, and — when the round
 * asks and the store has snapshots — a snapshot taken before the batch. The first difference throws
 * an {@link AssertionError} naming the step, the family and the first differing entry.
 *
 * <p>With a history sink, every step also prints what the store answered (the ops, then each check's
 * result), so the histories of two backends on the same op log can be diffed line by line; the model's
 * answer is printed only where it differs. Ownership: the caller owns the store; this class writes to
 * it and closes only the snapshots it takes.
 */
public final class ModelReplay {
  /** The families the rounds write: {@code plain} and the counters family {@code counters}. */
  public static final List<String> FAMILIES = List.of(EngineConformance.PLAIN, EngineConformance.COUNTERS);

  private static final byte[] START = new byte[0];

  private final Store store;
  private final boolean snapshots;
  private final Consumer<String> history;
  private final ReferenceModel model = new ReferenceModel(FAMILIES);

  /**
   * A replay onto {@code store}, which is open with {@link #FAMILIES} and empty. {@code snapshots}:
   * whether the store claims snapshots. {@code history} receives one line per fact (nothing: {@code
   * line -> {}}).
   */
  public ModelReplay(Store store, boolean snapshots, Consumer<String> history) {
    this.store = store;
    this.snapshots = snapshots;
    this.history = history;
  }

  /**
   * Replays {@code rounds} on a fresh store of {@code fixture} (in a temporary directory it deletes),
   * printing the history to {@code history}; returns the first difference from the model, or null when
   * the backend agrees at every step. An exception the backend throws during a step counts as a
   * difference; one thrown while opening the store is passed on.
   */
  public static AssertionError replay(BackendFixture fixture, List<ModelRound> rounds, Consumer<String> history) {
    try (TempDirStore t = TempDirStore.open(fixture, EngineConformance.FAMILIES)) {
      new ModelReplay(t.store(), fixture.capabilities().snapshots(), history).run(rounds);
      return null;
    } catch (AssertionError e) {
      return e;
    }
  }

  /** Runs every round in order; throws at the first difference from the model. */
  public void run(List<ModelRound> rounds) {
    for (int i = 0; i < rounds.size(); i++) {
      try {
        step(i, rounds.size(), rounds.get(i));
      } catch (RuntimeException e) {
        history.accept("    THREW: " + e);
        throw new AssertionError("batch " + i + " (counting from 0) of " + rounds.size() + ", " + rounds.get(i)
            + ": the backend threw where the model answered: " + e, e);
      }
    }
  }

  private void step(int i, int of, ModelRound round) {
    String when = "batch " + i + " (counting from 0) of " + of + ", " + round;
    Durability durability = i % 2 == 0 ? Durability.NO_SYNC : Durability.SYNC;
    history.accept("step " + i + " (" + durability + (round.underSnapshot() ? ", snapshot before the batch" : "") + ")");
    round.ops().forEach(op -> history.accept("  " + OpLog.line(op)));
    Snapshot snap = null;
    try {
      ReferenceModel modelSnap = null;
      if (round.underSnapshot() && snapshots) {
        snap = store.snapshot();
        modelSnap = model.copy();
      }
      store.write(round.batch(), durability);
      model.apply(round.batch());
      for (String fam : FAMILIES) {
        check(all(store, fam), all(model, fam), when + ": family '" + fam + "' full forward scan",
            "  " + fam + ":");
        check(entries(store, fam, round.lo(), round.hi(), Direction.REVERSE),
            entries(model, fam, round.lo(), round.hi(), Direction.REVERSE),
            when + ": family '" + fam + "' reverse scan [" + Bytes.hex(round.lo()) + ", " + Bytes.hex(round.hi()) + ")",
            "  " + fam + " reverse [" + OpLog.hex(round.lo()) + ", " + OpLog.hex(round.hi()) + "):");
        check(hex(store.multiGet(fam, round.probes())), hex(model.multiGet(fam, round.probes())),
            when + ": family '" + fam + "' multiGet", "  " + fam + " multiGet " + hex(round.probes()) + ":");
        if (snap != null) {
          check(all(snap, fam), all(modelSnap, fam),
              when + ": family '" + fam + "' scan of a snapshot taken before the batch", "  " + fam + " snapshot:");
        }
      }
      List<String> counters = new ArrayList<>();
      List<String> modelCounters = new ArrayList<>();
      for (byte[] p : round.probes()) {
        counters.add(OpLog.hex(p) + "=" + store.counter(EngineConformance.COUNTERS, p));
        modelCounters.add(OpLog.hex(p) + "=" + model.counter(EngineConformance.COUNTERS, p));
      }
      check(counters, modelCounters, when + ": counters of the probes", "  counter() of the probes:");
    } finally {
      if (snap != null) {
        snap.close();
      }
    }
  }

  /** Prints the store's answer; throws when it differs from the model's, naming the first difference. */
  private void check(List<String> actual, List<String> expected, String what, String label) {
    history.accept(label + " " + actual);
    if (!actual.equals(expected)) {
      history.accept("    DIFFERS: the model has " + expected);
      EngineAssertions.assertSameList(actual, expected, what);
    }
  }

  private static List<String> all(ReadView view, String family) {
    return entries(view, family, START, null, Direction.FORWARD);
  }

  private static List<String> entries(ReadView view, String family, byte[] lo, byte[] hi, Direction dir) {
    List<String> out = new ArrayList<>();
    try (Scan scan = view.scan(family, lo, hi, dir)) {
      while (scan.hasNext()) {
        Entry e = scan.next();
        out.add(OpLog.hex(e.key()) + "=" + OpLog.hex(e.value()));
      }
    }
    return out;
  }

  private static List<String> hex(List<byte[]> arrays) {
    return arrays.stream().map(a -> a == null ? "null" : OpLog.hex(a)).toList();
  }
}
