package io.ankusa.store.conformance;

import io.ankusa.store.spi.Store;
import net.jqwik.api.Example;
import net.jqwik.api.Reporter;

/**
 * Durability without a clean close: a crash keeps every acknowledged write and never half a batch.
 * A clean close commits whatever an engine buffered, so a reopen after {@code close()} cannot tell
 * a {@code syncWal()} that does nothing, or a {@code SYNC} write committed only at close, from the
 * real thing; this case crashes instead — in this JVM when the fixture {@link
 * BackendFixture#simulatesCrash() simulates crashes}, else by SIGKILL of a child process writing to
 * the store (backends claiming {@code durableAfterProcessKill}). The reopen properties of {@link
 * LifecycleCases} crash too when the fixture can simulate it.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface CrashCases extends EngineCase {
  /**
   * After a crash every {@code SYNC} batch whose write returned and every batch a returned {@code
   * syncWal()} covers is there, and every other batch is wholly there or wholly absent — whether
   * the crash came right after {@code SYNC} writes with no {@code syncWal()} after them, between
   * two {@code syncWal()} calls, inside a group commit of several threads' {@code SYNC} writes, or
   * (in a killed child) in the middle of a {@code NO_SYNC} write of {@value
   * CrashScript#BIG_BATCH_BYTES} bytes: one crash at each {@link KillPoint} in turn ({@value
   * #KILLS_PROPERTY} for more). What is written is {@link CrashScript}'s; a killed child's pause
   * before the kill is drawn from {@link Seeds#seed()}.
   */
  @Example
  default void crashKeepsAcknowledgedWritesAndWholeBatches(Reporter reporter)
      throws InterruptedException {
    CrashScript script = new CrashScript(capabilities().maxValueBytes());
    int kills = Integer.getInteger(KILLS_PROPERTY, KillPoint.values().length);
    if (backend().simulatesCrash()) {
      for (int kill = 1; kill <= kills; kill++) {
        KillPoint point = KillPoint.ofKill(kill);
        try (TempDirStore t = openFresh()) {
          CrashScript.Record record = new CrashScript.Record();
          script.writeUpTo(t.store(), record, point);
          switch (point) {
            case AFTER_SYNC_WRITE, BETWEEN_SYNC_WALS -> {} // crash right there
            case INSIDE_GROUP_COMMIT -> script.writeGroups(t.store(), record, 25);
            case INSIDE_BIG_BATCH -> {
              script.writeBig(t.store(), 0, record); // synced
              script.writeBig(t.store(), 1, record); // NO_SYNC, not synced: whole or absent
            }
          }
          Store reopened = t.crashAndReopen();
          int whole =
              script.check(
                  reopened, record, "after a simulated crash at " + point + " (" + record + ")");
          report(
              reporter,
              "crashKeepsAcknowledgedWritesAndWholeBatches",
              "simulated crash at "
                  + point
                  + " after "
                  + record
                  + "; "
                  + whole
                  + " big batches whole after it");
        }
      }
      return;
    }
    requireCapability(
        capabilities().durableAfterProcessKill(),
        "durableAfterProcessKill",
        "its stores do not outlive the process and its fixture does not simulate a crash in this JVM");
    long seed = Seeds.seed();
    for (int kill = 1; kill <= kills; kill++) {
      KillPoint point = KillPoint.ofKill(kill);
      try (TempDirStore t = openFresh()) {
        t.closeStore(); // the child opens it
        CrashScript.Record record = CrashKill.run(backend(), t.dir(), FAMILIES, seed + kill, point);
        String when =
            "kill "
                + kill
                + " of "
                + kills
                + " at "
                + point
                + ", after SIGKILL of the writing process ("
                + record
                + "), "
                + Seeds.replay(seed);
        int whole = script.check(t.reopen(), record, when);
        report(
            reporter,
            "crashKeepsAcknowledgedWritesAndWholeBatches",
            "kill "
                + kill
                + " of "
                + kills
                + " at "
                + point
                + " ('"
                + record.last()
                + "') after "
                + record
                + "; "
                + whole
                + " big batches whole after it, "
                + Seeds.replay(seed));
      }
    }
  }

  /**
   * The system property giving how many crashes the crash case makes, each on a fresh store, at the
   * {@link KillPoint}s in turn (default: one at each; a killed child's JVM start is the expensive
   * part; {@code -Pheavy} raises it).
   */
  String KILLS_PROPERTY = "ankusa.crash.kills";
}
