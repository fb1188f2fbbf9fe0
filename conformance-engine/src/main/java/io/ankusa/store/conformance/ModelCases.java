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
   * the backend and to the {@link ReferenceModel} (a plain oracle, never a backend); after each batch
   * the whole state of both families, a random-range reverse scan, a multiGet and the probes' counters
   * must agree, and a snapshot taken before a batch (when the backend claims snapshots) must agree
   * with the model's ({@link ModelReplay}). A failing sequence is written as an op log ({@link OpLog})
   * whose path the failure names: {@code ankusa-store replay --backend NAME FILE} re-runs it and prints
   * the per-step history.
   */
  @Property
  default void modelBasedRandomBatches(@ForAll("rounds") List<ModelRound> rounds) {
    try (TempDirStore t = openFresh()) {
      new ModelReplay(t.store(), capabilities().snapshots(), line -> {}).run(rounds);
    } catch (AssertionError | RuntimeException e) {
      String provider = backend().provider().name();
      Path log = OpLog.write(opLogFile(), rounds, "modelBasedRandomBatches failed on " + backend().name()
          + "\n" + firstLine(e) + "\nreplay: ./ankusa-store replay --backend " + provider + " FILE");
      throw new AssertionError(e.getMessage() + "\n  op log: " + log.toAbsolutePath()
          + " (replay with: ankusa-store replay --backend " + provider + " " + log.toAbsolutePath() + ")", e);
    }
  }

  /**
   * Where a failing model sequence is written: {@code ankusa.oplog.dir} when set, else {@code
   * target/ankusa-oplogs} under the working directory when it has a {@code target} (a Maven build),
   * else the temporary directory. One file per backend; jqwik's last failing try (the shrunk one)
   * is the one left.
   */
  private Path opLogFile() {
    String dir = System.getProperty("ankusa.oplog.dir");
    Path base = dir != null ? Path.of(dir)
        : Files.isDirectory(Path.of("target")) ? Path.of("target", "ankusa-oplogs")
        : Path.of(System.getProperty("java.io.tmpdir"), "ankusa-oplogs");
    return base.resolve("model-" + backend().name().replaceAll("[^A-Za-z0-9._-]", "_") + ".ops");
  }
}
