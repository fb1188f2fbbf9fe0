package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreFormatException;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Reporter;

/**
 * Open, close, reopen: every call after close throws (getters excepted), writes survive a reopen,
 * unlisted families are refused, a reported write failure closes scans and snapshots.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface LifecycleCases extends EngineCase {
  /**
   * After close every Store method, an open Scan and an open Snapshot (and its scans) throw
   * StoreClosedException; closing again, and closing the scan and snapshot afterwards, is fine.
   * Snapshots are checked when the backend claims them. Store.capabilities(), families() and
   * directory() describe the store and keep answering ({@link #descriptiveGettersAnswerAfterClose}).
   */
  @Example
  default void everyCallAfterCloseThrows() {
    byte[] k = {0x42};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}).put(PLAIN, new byte[] {0x43}, new byte[] {2})
          .merge(COUNTERS, k, 1), Durability.SYNC);

      Scan closedScan = s.scan(PLAIN, START, null, Direction.FORWARD);
      closedScan.close();
      closedScan.close();
      assertClosed("a closed scan's hasNext", closedScan::hasNext);
      assertClosed("a closed scan's next", closedScan::next);
      boolean snapshots = capabilities().snapshots();
      if (snapshots) {
        Snapshot closedSnap = s.snapshot();
        closedSnap.close();
        closedSnap.close();
        assertClosed("a closed snapshot's get", () -> closedSnap.get(PLAIN, k));
      }

      Scan scan = s.scan(PLAIN, START, null, Direction.FORWARD);
      assertThat(scan.hasNext()).isTrue();
      scan.next();
      Scan reverse = s.scan(PLAIN, START, null, Direction.REVERSE);
      Snapshot snap = snapshots ? s.snapshot() : null;
      Scan snapScan = snapshots ? snap.scan(PLAIN, START, null, Direction.FORWARD) : null;

      s.close();
      s.close();

      assertClosed("Store.get", () -> s.get(PLAIN, k));
      assertClosed("Store.multiGet", () -> s.multiGet(PLAIN, List.of(k)));
      assertClosed("Store.scan", () -> s.scan(PLAIN, START, null, Direction.FORWARD));
      assertClosed("Store.counter", () -> s.counter(COUNTERS, k));
      assertClosed("Store.write", () -> s.write(new Batch().put(PLAIN, k, k), Durability.NO_SYNC));
      assertClosed("Store.write of an empty batch", () -> s.write(new Batch(), Durability.SYNC));
      assertClosed("Store.syncWal", s::syncWal);
      assertClosed("Store.snapshot", s::snapshot);
      assertClosed("Store.reportWriteFailure", () -> s.reportWriteFailure(new RuntimeException("test")));
      assertClosed("Store.visit", () -> s.visit(PLAIN, START, null, Direction.FORWARD, (key, value) -> true));
      assertClosed("an open scan's hasNext", scan::hasNext);
      assertClosed("an open scan's next", scan::next);
      assertClosed("an open reverse scan's next", reverse::next);
      if (snapshots) {
        assertClosed("an open snapshot's get", () -> snap.get(PLAIN, k));
        assertClosed("an open snapshot's multiGet", () -> snap.multiGet(PLAIN, List.of(k)));
        assertClosed("an open snapshot's scan", () -> snap.scan(PLAIN, START, null, Direction.FORWARD));
        assertClosed("an open snapshot's counter", () -> snap.counter(COUNTERS, k));
        assertClosed("an open snapshot's visit", () -> snap.visit(PLAIN, START, null, Direction.FORWARD, (key, value) -> true));
        assertClosed("an open snapshot scan's hasNext", snapScan::hasNext);
        snapScan.close();
        snap.close();
      }
      scan.close();
      reverse.close();
    }
  }

  private static void assertClosed(String call, Runnable r) {
    assertThatThrownBy(r::run).as("%s after close", call).isInstanceOf(StoreClosedException.class);
  }

  /** SYNC writes are all there after close and reopen: both families, every key, every counter. */
  @Property
  default void syncWritesSurviveReopen(@ForAll("smallBatches") List<List<Op>> batches) {
    survivesReopen(batches, Durability.SYNC, false);
  }

  /** NO_SYNC writes followed by a returned syncWal() are all there after close and reopen. */
  @Property
  default void noSyncWritesSurviveReopenAfterSyncWal(@ForAll("smallBatches") List<List<Op>> batches) {
    survivesReopen(batches, Durability.NO_SYNC, true);
  }

  private void survivesReopen(List<List<Op>> batches, Durability durability, boolean syncWal) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      ReferenceModel model = new ReferenceModel(ModelReplay.FAMILIES);
      for (List<Op> ops : batches) {
        Batch b = new Batch();
        ops.forEach(b::add);
        s.write(b, durability);
        model.apply(b);
      }
      if (syncWal) {
        s.syncWal();
      }
      Store reopened = t.reopen();
      for (FamilySpec f : FAMILIES) {
        assertSameState(reopened, model, f.name(), "after " + durability + " writes"
            + (syncWal ? ", syncWal()" : "") + ", close and reopen");
      }
    }
  }

  /** Opening a store without listing one of its families fails with StoreFormatException naming it. */
  @Example
  default void openRefusesUnlistedFamilies() {
    List<FamilySpec> both = List.of(FamilySpec.plain("kept"), FamilySpec.plain("newer-family"));
    try (TempDirStore t = TempDirStore.open(backend(), both)) {
      t.store().write(new Batch().put("kept", new byte[] {1}, new byte[] {1})
          .put("newer-family", new byte[] {2}, new byte[] {2}), Durability.SYNC);
      t.closeStore();
      assertThatThrownBy(() -> t.reopen(List.of(FamilySpec.plain("kept"))))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("newer-family");
      Store again = t.reopen(both);
      assertThat(again.get("kept", new byte[] {1})).as("the refused open changed nothing").isEqualTo(new byte[] {1});
      assertThat(again.get("newer-family", new byte[] {2})).isEqualTo(new byte[] {2});
    }
  }

  /** capabilities(), families() and directory() give the same answers after close as before. */
  @Example
  default void descriptiveGettersAnswerAfterClose(Reporter reporter) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Capabilities capabilities = s.capabilities();
      List<FamilySpec> families = s.families();
      Path directory = s.directory();
      assertThat(families).as("families() of an open store").isEqualTo(FAMILIES);
      t.closeStore();
      assertThat(s.capabilities()).as("capabilities() after close").isEqualTo(capabilities);
      assertThat(s.families()).as("families() after close").isEqualTo(families);
      assertThat(s.directory()).as("directory() after close").isEqualTo(directory);
      report(reporter, "descriptiveGettersAnswerAfterClose", "directory " + directory + ", " + families.size() + " families");
    }
  }

  /**
   * reportWriteFailure closes the scans and snapshots open on the store (later use throws
   * StoreClosedException; closing them is fine); the store itself keeps reading and writing.
   */
  @Example
  default void reportWriteFailureClosesScansAndSnapshots(Reporter reporter) {
    byte[] k = {0x31};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}).put(PLAIN, new byte[] {0x32}, new byte[] {2}), Durability.SYNC);
      Scan started = s.scan(PLAIN, START, null, Direction.FORWARD);
      started.next();
      Scan unstarted = s.scan(PLAIN, START, null, Direction.REVERSE);
      boolean snapshots = capabilities().snapshots();
      Snapshot snap = snapshots ? s.snapshot() : null;
      Scan snapScan = snapshots ? snap.scan(PLAIN, START, null, Direction.FORWARD) : null;
      s.reportWriteFailure(new RuntimeException("a write failure injected by the conformance suite"));
      assertClosed("a started scan after reportWriteFailure", started::hasNext);
      assertClosed("an unstarted scan after reportWriteFailure", unstarted::next);
      if (snapshots) {
        assertClosed("a snapshot's get after reportWriteFailure", () -> snap.get(PLAIN, k));
        assertClosed("a snapshot's scan after reportWriteFailure", () -> snap.scan(PLAIN, START, null, Direction.FORWARD));
        assertClosed("a snapshot scan's hasNext after reportWriteFailure", snapScan::hasNext);
        snapScan.close();
        snap.close();
      }
      started.close();
      unstarted.close();
      s.write(new Batch().put(PLAIN, k, new byte[] {3}), Durability.SYNC);
      assertThat(s.get(PLAIN, k)).as("the store after reportWriteFailure").isEqualTo(new byte[] {3});
      report(reporter, "reportWriteFailureClosesScansAndSnapshots", "2 scans" + (snapshots ? ", 1 snapshot and its scan" : "")
          + " closed; the store kept working");
    }
  }
}
