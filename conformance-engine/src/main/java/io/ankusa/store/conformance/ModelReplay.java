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
 * Runs a sequence of {@link ModelRound}s against a store and the {@link ReferenceModel}, checking
 * after each batch what {@code modelBasedRandomBatches} promises: the whole state of both families,
 * a reverse scan of the round's range, a multiGet and the counters of its probes, and — when the
 * round asks and the store has snapshots — a snapshot taken before the batch. The first difference
 * throws an {@link AssertionError} naming the step, the family and the first differing entry.
 *
 * <p>Before a round's batch comes its {@link Perturbation}: a flush or compaction through the
 * fixture's hooks, or a reopen ({@code syncWal}, close, open again through the fixture) — the model
 * keeps its state across all three, so merges and range deletes are checked over flushed, compacted
 * and reopened data.
 *
 * <p>With a history sink, every step also prints what the store answered (the ops, then each
 * check's result), so the histories of two backends, or of one backend under two option sets
 * ({@link #replayUnderEachOptionSet}), on the same op log can be diffed line by line; the model's
 * answer is printed only where it differs. Ownership: the caller owns the {@link TempDirStore};
 * this class writes to its store, may reopen it, and closes only the snapshots it takes.
 */
public final class ModelReplay {
  /** The families the rounds write: {@code plain} and the counters family {@code counters}. */
  public static final List<String> FAMILIES =
      List.of(EngineConformance.PLAIN, EngineConformance.COUNTERS);

  private static final byte[] START = new byte[0];

  private final TempDirStore target;
  private final BackendFixture fixture;
  private final boolean snapshots;
  private final Consumer<String> history;
  private final ReferenceModel model = new ReferenceModel(FAMILIES);

  /**
   * A replay onto the store of {@code target}, which {@code fixture} opened with {@link #FAMILIES}
   * and which is empty; the fixture's hooks flush and compact it, and reopens go through {@code
   * target}. {@code history} receives one line per fact (nothing: {@code line -> {}}).
   */
  public ModelReplay(TempDirStore target, BackendFixture fixture, Consumer<String> history) {
    this.target = target;
    this.fixture = fixture;
    this.snapshots = fixture.capabilities().snapshots();
    this.history = history;
  }

  /** One option set's replay: its history, and its first difference from the model (null: none). */
  public record SetReplay(NamedOptions set, List<String> history, AssertionError difference) {}

  /**
   * Replays {@code rounds} under each of {@code fixture}'s {@link BackendFixture#optionSets()},
   * each on a fresh store, recording each history. A backend keeps one contract whatever its
   * options, so the histories must be identical: {@link #firstDifference} names the first line
   * where two differ.
   */
  public static List<SetReplay> replayUnderEachOptionSet(
      BackendFixture fixture, List<ModelRound> rounds) {
    List<SetReplay> out = new ArrayList<>();
    for (NamedOptions set : fixture.optionSets()) {
      List<String> lines = new ArrayList<>();
      AssertionError difference = replay(fixture.withOptions(set), rounds, lines::add);
      out.add(new SetReplay(set, List.copyOf(lines), difference));
    }
    return out;
  }

  /**
   * The first line where two histories differ, as {@code "line N: A | B"} (a missing line is {@code
   * <end>}), or null when they are the same.
   */
  public static String firstDifference(List<String> a, List<String> b) {
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      String x = i < a.size() ? a.get(i) : "<end>";
      String y = i < b.size() ? b.get(i) : "<end>";
      if (!x.equals(y)) {
        return "line " + (i + 1) + ": " + x + " | " + y;
      }
    }
    return null;
  }

  /**
   * Replays {@code rounds} on a fresh store of {@code fixture} (in a temporary directory it
   * deletes), printing the history to {@code history}; returns the first difference from the model,
   * or null when the backend agrees at every step. An exception the backend throws during a step
   * counts as a difference; one thrown while opening the store is passed on.
   */
  public static AssertionError replay(
      BackendFixture fixture, List<ModelRound> rounds, Consumer<String> history) {
    try (TempDirStore t = TempDirStore.open(fixture, EngineConformance.FAMILIES)) {
      new ModelReplay(t, fixture, history).run(rounds);
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
        throw new AssertionError(
            "batch "
                + i
                + " (counting from 0) of "
                + rounds.size()
                + ", "
                + rounds.get(i)
                + ": the backend threw where the model answered: "
                + e,
            e);
      }
    }
  }

  private void step(int i, int of, ModelRound round) {
    String when = "batch " + i + " (counting from 0) of " + of + ", " + round;
    Durability durability = i % 2 == 0 ? Durability.NO_SYNC : Durability.SYNC;
    history.accept(
        "step "
            + i
            + " ("
            + durability
            + (round.underSnapshot() ? ", snapshot before the batch" : "")
            + ")");
    perturb(round.before());
    round.ops().forEach(op -> history.accept("  " + OpLog.line(op)));
    Store store = target.store();
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
        check(
            all(store, fam),
            all(model, fam),
            when + ": family '" + fam + "' full forward scan",
            "  " + fam + ":");
        check(
            entries(store, fam, round.lo(), round.hi(), Direction.REVERSE),
            entries(model, fam, round.lo(), round.hi(), Direction.REVERSE),
            when
                + ": family '"
                + fam
                + "' reverse scan ["
                + Bytes.hex(round.lo())
                + ", "
                + Bytes.hex(round.hi())
                + ")",
            "  "
                + fam
                + " reverse ["
                + OpLog.hex(round.lo())
                + ", "
                + OpLog.hex(round.hi())
                + "):");
        check(
            hex(store.multiGet(fam, round.probes())),
            hex(model.multiGet(fam, round.probes())),
            when + ": family '" + fam + "' multiGet",
            "  " + fam + " multiGet " + hex(round.probes()) + ":");
        if (snap != null) {
          check(
              all(snap, fam),
              all(modelSnap, fam),
              when + ": family '" + fam + "' scan of a snapshot taken before the batch",
              "  " + fam + " snapshot:");
        }
      }
      List<String> counters = new ArrayList<>();
      List<String> modelCounters = new ArrayList<>();
      for (byte[] p : round.probes()) {
        counters.add(OpLog.hex(p) + "=" + store.counter(EngineConformance.COUNTERS, p));
        modelCounters.add(OpLog.hex(p) + "=" + model.counter(EngineConformance.COUNTERS, p));
      }
      check(
          counters, modelCounters, when + ": counters of the probes", "  counter() of the probes:");
    } finally {
      if (snap != null) {
        snap.close();
      }
    }
  }

  /** Does {@code p} to the store before a batch; the model keeps its state. */
  private void perturb(Perturbation p) {
    switch (p) {
      case NONE -> {
        return;
      }
      case FLUSH -> fixture.flush(target.store());
      case COMPACT -> fixture.compact(target.store());
      case REOPEN -> {
        target.store().syncWal();
        target.reopen();
      }
    }
    history.accept("  perturb " + p.word());
  }

  /**
   * Prints the store's answer; throws when it differs from the model's, naming the first
   * difference.
   */
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

  private static List<String> entries(
      ReadView view, String family, byte[] lo, byte[] hi, Direction dir) {
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
