package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.opentest4j.TestAbortedException;

/**
 * The durability layer's power cut ({@code
 * DurabilityConformance.acknowledgedBatchesSurvivePowerCuts}, in conformance-tests; here, beside
 * the crash case whose writes and checks it reuses, because it needs nothing of the queue): stores
 * on the power-cut file system ({@link PowerCutFileSystem}), written by a child JVM running {@link
 * CrashScript} up to a {@link KillPoint}, killed there, then the power cut — every write not synced
 * is lost, file by file — and the store reopened and checked: every batch acknowledged after a
 * {@code SYNC} write or a returned {@code syncWal()} is there, and no batch is half there. A
 * process kill alone cannot show a missing fsync: the OS keeps what the process wrote; a power cut
 * does not.
 *
 * <p>{@value #CUTS_PROPERTY} cuts (default {@value #DEFAULT_CUTS}, one at each kill point; {@code
 * -Pheavy} raises it), each on a fresh store; the cuts accumulate on one mount (and, for a server,
 * one data directory that recovers after each). Ends unverified, with the reason, when the machine
 * cannot mount the file system, when the backend does not claim {@code durableAfterProcessKill}, or
 * when no write of the backend was ever synced on it (its data lives elsewhere).
 */
public final class PowerCutCase {
  /** The system property giving the number of cuts. */
  static final String CUTS_PROPERTY = "ankusa.powercut.cuts";

  static final int DEFAULT_CUTS = 4;

  private PowerCutCase() {}

  /** Runs the cuts against {@code fixture}; returns what they showed, for the report. */
  public static String run(BackendFixture fixture) throws InterruptedException {
    if (!fixture.capabilities().durableAfterProcessKill()) {
      throw new TestAbortedException(
          fixture.name()
              + " does not claim durableAfterProcessKill: its stores do not"
              + " outlive the process, so there is nothing to keep across a power cut");
    }
    String missing = PowerCutFileSystem.unavailable().orElse(null);
    if (missing != null) {
      throw new TestAbortedException("the power cut cannot run on this machine: " + missing);
    }
    PowerCutFileSystem fs;
    try {
      fs = PowerCutFileSystem.mount(PowerCutFileSystem.workDirectory());
    } catch (IllegalStateException | java.io.UncheckedIOException e) {
      throw new TestAbortedException(
          "the power cut cannot run on this machine: " + e.getMessage(), e);
    }
    try (fs) {
      PowerCutTarget target;
      try {
        target = fixture.powerCutTarget(fs.root());
      } catch (UnsupportedOperationException e) {
        throw new TestAbortedException(
            fixture.name()
                + " cannot put its data on the power-cut file system: "
                + e.getMessage());
      }
      try (target) {
        return cut(fixture, fs, target);
      }
    }
  }

  private static String cut(BackendFixture fixture, PowerCutFileSystem fs, PowerCutTarget target)
      throws InterruptedException {
    BackendFixture onCutFs = target.fixture();
    fs.syncAll(); // what the target set up (a server's initialised data directory) is where the
    // test starts
    long before = fs.counters().fsyncs();
    int cuts = Integer.getInteger(CUTS_PROPERTY, DEFAULT_CUTS);
    long seed = Seeds.seed();
    CrashScript script = new CrashScript(fixture.capabilities().maxValueBytes());
    long acknowledged = 0;
    long dropped = 0;
    long vanished = 0;
    List<String> points = new ArrayList<>();
    for (int cut = 1; cut <= cuts; cut++) {
      KillPoint point = KillPoint.ofKill(cut);
      Path dir = fs.root().resolve("store-" + cut);
      try {
        Files.createDirectory(dir);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      PowerCutFileSystem.syncDirectory(
          fs.root()); // the case made the directory; the store owns what is in it
      onCutFs.open(dir, EngineCase.FAMILIES).close();
      CrashScript.Record record =
          CrashKill.run(onCutFs, dir, EngineCase.FAMILIES, seed + cut, point);
      target.beforeCut();
      PowerCutFileSystem.Counters counters = fs.cut();
      target.afterCut();
      String when =
          "power cut "
              + cut
              + " of "
              + cuts
              + " at "
              + point
              + " ("
              + record
              + "; the cut dropped "
              + counters.lastCutDroppedBytes()
              + " bytes of unsynced pages and "
              + counters.lastCutVanishedFiles()
              + " files whose directory entry was never synced), "
              + Seeds.replay(seed);
      try (Store reopened = onCutFs.open(dir, EngineCase.FAMILIES)) {
        script.check(reopened, record, when);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            e.getMessage() + "\nwhat the cut did, file by file: " + fs.lastCutLog(40), e);
      }
      acknowledged += record.acknowledgedBatches();
      dropped += counters.lastCutDroppedBytes();
      vanished += counters.lastCutVanishedFiles();
      points.add(point.name());
    }
    PowerCutFileSystem.Counters seen = fs.counters();
    if (seen.fsyncs() + seen.syncWrites() - before == 0) {
      throw new TestAbortedException(
          fixture.name()
              + " never synced a file on the power-cut file system, so its"
              + " data lives elsewhere and the cuts could not reach it; its fixture's powerCutTarget must put the data"
              + " below the root it is given");
    }
    assertThat(acknowledged)
        .as("batches acknowledged before %d power cuts: the writers must have made progress", cuts)
        .isPositive();
    return cuts
        + " power cuts ("
        + String.join(", ", points)
        + "), "
        + acknowledged
        + " acknowledged batches"
        + " checked after them; the cuts dropped "
        + dropped
        + " bytes of unsynced pages and "
        + vanished
        + " files never synced into their directory; "
        + (seen.fsyncs() - before)
        + " fsyncs, "
        + seen.directoryFsyncs()
        + " directory fsyncs and "
        + seen.syncWrites()
        + " synchronous writes seen, "
        + Seeds.replay(seed);
  }
}
