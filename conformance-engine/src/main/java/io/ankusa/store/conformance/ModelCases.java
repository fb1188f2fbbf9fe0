package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The keystone: random batch sequences on the backend and on the reference model, the whole state
 * compared after each batch.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface ModelCases extends EngineCase {
  /**
   * Random, shrinkable sequences of batches over a small key space (so ops collide) are applied to
   * the backend and to the {@link ReferenceModel} (a plain oracle, never a backend); after each
   * batch the whole state of both families, a random-range reverse scan, a multiGet and the probes'
   * counters must agree, and a snapshot taken before a batch (when the backend claims snapshots)
   * must agree with the model's ({@link ModelReplay}). Before a batch the store may be flushed,
   * compacted or reopened ({@link Perturbation}, drawn with the batches), so the merge law and
   * range deletes are checked over flushed and reopened data on every engine. Each try runs under
   * one of the fixture's {@link BackendFixture#optionSets() option sets} (the default in half the
   * tries), named in the failure. A failing sequence is written as an op log ({@link OpLog}, with
   * its option set) whose path the failure names: {@code ankusa-store replay --backend NAME FILE}
   * re-runs it and prints the per-step history; the failure also says under which of the fixture's
   * option sets the same sequence fails.
   */
  @Property
  default void modelBasedRandomBatches(
      @ForAll("optionSets") NamedOptions set, @ForAll("rounds") List<ModelRound> rounds) {
    BackendFixture fixture = backend().withOptions(set);
    try (TempDirStore t = TempDirStore.open(fixture, FAMILIES)) {
      new ModelReplay(t, fixture, line -> {}).run(rounds);
    } catch (AssertionError | RuntimeException e) {
      String provider = backend().provider().name();
      String replay = "ankusa-store replay --backend " + provider;
      Path log =
          OpLog.write(
              opLogFile(),
              rounds,
              set.relativeTo(backend().options()),
              "modelBasedRandomBatches failed on "
                  + backend().name()
                  + " under "
                  + set
                  + "\n"
                  + firstLine(e)
                  + "\nreplay: "
                  + replay
                  + " FILE (opens the store under the"
                  + " file's options line)\nreduce: delete steps, ops or perturb= fields and replay until it stops failing");
      throw new AssertionError(
          "under "
              + set
              + ": "
              + e.getMessage()
              + "\n  the same sequence under each option set of "
              + backend().name()
              + ": "
              + underEachSet(rounds)
              + "\n  op log: "
              + log.toAbsolutePath()
              + " (replay with: "
              + replay
              + " "
              + log.toAbsolutePath()
              + "; reduce it by deleting steps, ops or perturb= fields while it still fails)",
          e);
    }
  }

  /**
   * Which option sets the failing sequence fails under, for the failure message, and where the
   * history under the first set that fails first differs from the history under the first that
   * passes.
   */
  private String underEachSet(List<ModelRound> rounds) {
    try {
      List<ModelReplay.SetReplay> replays = ModelReplay.replayUnderEachOptionSet(backend(), rounds);
      List<String> verdicts = new java.util.ArrayList<>();
      replays.forEach(
          r -> verdicts.add(r.set().name() + (r.difference() == null ? " passes" : " fails")));
      var passing = replays.stream().filter(r -> r.difference() == null).findFirst();
      var failing = replays.stream().filter(r -> r.difference() != null).findFirst();
      String diff =
          passing.isPresent() && failing.isPresent()
              ? "; histories ("
                  + passing.get().set().name()
                  + " | "
                  + failing.get().set().name()
                  + ") first differ at "
                  + ModelReplay.firstDifference(passing.get().history(), failing.get().history())
              : "";
      return String.join(", ", verdicts) + diff;
    } catch (RuntimeException e) {
      return "not replayed (" + e + ")";
    }
  }

  /**
   * Where a failing model sequence is written: {@code ankusa.oplog.dir} when set, else {@code
   * target/ankusa-oplogs} under the working directory when it has a {@code target} (a Maven build),
   * else the temporary directory. One file per backend (the option set is inside it); jqwik's last
   * failing try (the shrunk one) is the one left.
   */
  private Path opLogFile() {
    String dir = System.getProperty("ankusa.oplog.dir");
    Path base =
        dir != null
            ? Path.of(dir)
            : Files.isDirectory(Path.of("target"))
                ? Path.of("target", "ankusa-oplogs")
                : Path.of(System.getProperty("java.io.tmpdir"), "ankusa-oplogs");
    return base.resolve("model-" + backend().name().replaceAll("[^A-Za-z0-9._-]", "_") + ".ops");
  }
}
