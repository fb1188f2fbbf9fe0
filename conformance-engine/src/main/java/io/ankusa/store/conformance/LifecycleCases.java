package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Capabilities;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Int64Add;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreWriteFailedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Reporter;

/**
 * Open, close, reopen: every call after close throws (getters excepted), writes survive a reopen
 * (also when batches freed large values they wrote themselves), unlisted families are refused, a
 * reported write failure closes scans and snapshots and recovers the store from an injected write
 * or sync failure.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface LifecycleCases extends EngineCase {
  /**
   * After close every Store method, an open Scan and an open Snapshot (and its scans) throw
   * StoreClosedException; closing again, and closing the scan and snapshot afterwards, is fine.
   * Snapshots are checked when the backend claims them. Store.capabilities(), families() and
   * directory() describe the store and keep answering ({@link
   * #descriptiveGettersAnswerAfterClose}).
   */
  @Example
  default void everyCallAfterCloseThrows() {
    byte[] k = {0x42};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(
          new Batch()
              .put(PLAIN, k, new byte[] {1})
              .put(PLAIN, new byte[] {0x43}, new byte[] {2})
              .merge(COUNTERS, k, 1),
          Durability.SYNC);

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
      assertClosed(
          "Store.reportWriteFailure", () -> s.reportWriteFailure(new RuntimeException("test")));
      assertClosed(
          "Store.visit",
          () -> s.visit(PLAIN, START, null, Direction.FORWARD, (key, value) -> true));
      assertClosed("an open scan's hasNext", scan::hasNext);
      assertClosed("an open scan's next", scan::next);
      assertClosed("an open reverse scan's next", reverse::next);
      if (snapshots) {
        assertClosed("an open snapshot's get", () -> snap.get(PLAIN, k));
        assertClosed("an open snapshot's multiGet", () -> snap.multiGet(PLAIN, List.of(k)));
        assertClosed(
            "an open snapshot's scan", () -> snap.scan(PLAIN, START, null, Direction.FORWARD));
        assertClosed("an open snapshot's counter", () -> snap.counter(COUNTERS, k));
        assertClosed(
            "an open snapshot's visit",
            () -> snap.visit(PLAIN, START, null, Direction.FORWARD, (key, value) -> true));
        assertClosed("an open snapshot scan's hasNext", snapScan::hasNext);
        snapScan.close();
        snap.close();
      }
      scan.close();
      reverse.close();
    }
  }

  /**
   * Closing a store while scans are open on it, after {@code NO_SYNC} writes that no sync covered,
   * closes the scans too: each later call on them throws StoreClosedException, closing them is
   * fine, and the store lets go of its engine — the same directory opens again at once, in this
   * JVM, three times over. (What {@link #everyCallAfterCloseThrows} checks after {@code SYNC}
   * writes, here with unsynced state still held in the engine's memory at close, where an engine
   * may take another path.)
   */
  @Example
  default void closeAfterNoSyncWritesClosesOpenScans(Reporter reporter) {
    try (TempDirStore t = openFresh()) {
      boolean snapshots = capabilities().snapshots();
      for (int round = 0; round < 3; round++) {
        Store s = round == 0 ? t.store() : t.reopen();
        for (int b = 0; b < 4; b++) {
          Batch batch = new Batch();
          for (int i = 0; i < 16; i++) {
            batch.put(PLAIN, new byte[] {(byte) round, (byte) b, (byte) i}, new byte[] {(byte) i});
          }
          s.write(batch.merge(COUNTERS, new byte[] {(byte) round}, b + 1), Durability.NO_SYNC);
        }
        Scan started = s.scan(PLAIN, START, null, Direction.FORWARD);
        assertThat(started.hasNext()).as("a scan after NO_SYNC writes sees them").isTrue();
        started.next();
        Scan unstarted = s.scan(PLAIN, START, null, Direction.REVERSE);
        Snapshot snap = snapshots ? s.snapshot() : null;
        Scan snapScan = snapshots ? snap.scan(PLAIN, START, null, Direction.FORWARD) : null;
        if (snapshots) {
          snapScan.next();
        }
        t.closeStore();
        String when = "round " + round + ", after NO_SYNC writes and close";
        assertClosed("a started scan's hasNext, " + when, started::hasNext);
        assertClosed("a started scan's next, " + when, started::next);
        assertClosed("an unstarted reverse scan's next, " + when, unstarted::next);
        if (snapshots) {
          assertClosed("a snapshot scan's hasNext, " + when, snapScan::hasNext);
          assertClosed("a snapshot's get, " + when, () -> snap.get(PLAIN, new byte[] {1}));
          snapScan.close();
          snap.close();
        }
        started.close();
        unstarted.close();
      }
      Store last = t.reopen();
      last.get(PLAIN, new byte[] {0});
      report(
          reporter,
          "closeAfterNoSyncWritesClosesOpenScans",
          "3 closes with unsynced writes and open scans"
              + (snapshots ? " and snapshots" : "")
              + "; each scan closed, the directory reopened each time");
    }
  }

  /**
   * Opening an existing store with {@code createIfMissing=false} and a family it does not hold is
   * refused with StoreFormatException naming the family, and creates nothing: the store still opens
   * with exactly its old families, and (for a store in files) no file under the directory changed.
   */
  @Example
  default void createIfMissingFalseRefusesANewFamily(Reporter reporter) {
    try (TempDirStore t = openFresh()) {
      t.store().write(new Batch().put(PLAIN, new byte[] {1}, new byte[] {1}), Durability.SYNC);
      t.closeStore();
      List<FamilySpec> withNew = new java.util.ArrayList<>(FAMILIES);
      withNew.add(FamilySpec.plain("added-later"));
      FileChecksums before = capabilities().filesInDirectory() ? FileChecksums.of(t.dir()) : null;
      StoreException refused =
          openIsRefused(
              "an open with createIfMissing=false listing a family the store lacks",
              () ->
                  backend()
                      .provider()
                      .open(t.dir(), backend().options().createIfMissing(false), withNew));
      assertThat(refused)
          .as("the refusal of a missing family with createIfMissing=false")
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("added-later");
      if (before != null) {
        assertThat(before.differences(FileChecksums.of(t.dir())))
            .as("files changed by the refused open")
            .isEmpty();
      }
      Store again;
      try {
        again = t.reopen(FAMILIES);
      } catch (StoreFormatException e) {
        throw new AssertionError(
            "the refused open created something: the store no longer opens with its own"
                + " families ("
                + firstLine(e)
                + ")",
            e);
      }
      assertThat(again.get(PLAIN, new byte[] {1}))
          .as("the store after the refused open")
          .isEqualTo(new byte[] {1});
      report(reporter, "createIfMissingFalseRefusesANewFamily", firstLine(refused));
    }
  }

  private static void assertClosed(String call, Runnable r) {
    thrownBy(r::run, "%s after close", call).isInstanceOf(StoreClosedException.class);
  }

  /**
   * SYNC writes are all there after a reopen: both families, every key, every counter. The store is
   * crashed, not closed, when the fixture simulates crashes ({@link BackendFixture#crash}), so a
   * write committed only by a clean close fails here; otherwise it is closed, and {@link
   * CrashCases#crashKeepsAcknowledgedWritesAndWholeBatches} kills a writing child process instead.
   */
  @Property
  default void syncWritesSurviveReopen(@ForAll("smallBatches") List<List<Op>> batches) {
    survivesReopen(batches, Durability.SYNC, false);
  }

  /**
   * NO_SYNC writes followed by a returned syncWal() are all there after a reopen — after a crash
   * when the fixture simulates one (a syncWal() that does nothing fails here), else after close.
   */
  @Property
  default void noSyncWritesSurviveReopenAfterSyncWal(
      @ForAll("smallBatches") List<List<Op>> batches) {
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
      boolean crash = backend().simulatesCrash();
      Store reopened = t.crashOrCloseAndReopen();
      for (FamilySpec f : FAMILIES) {
        assertSameState(
            reopened,
            model,
            f.name(),
            "after "
                + durability
                + " writes"
                + (syncWal ? ", syncWal()" : "")
                + (crash ? ", a simulated crash" : ", close")
                + " and reopen");
      }
    }
  }

  /**
   * A store whose batches wrote values of 1 B to 1 MiB (at most maxValueBytes) and deleted or
   * overwrote them within the same batch opens again after a clean close, with every key right.
   * Space a batch allocates and frees itself is space an engine may never write to its files (LMDB
   * frees such overflow pages before its commit writes anything), so an open that checks its files
   * against what the engine counted, rather than against what it wrote, refuses this healthy store
   * as damaged. Two rounds: a {@code SYNC} batch, then a {@code NO_SYNC} one covered by syncWal()
   * that also deletes values the first round kept (space freed in a later batch); about 5 MiB in
   * all.
   */
  @Example
  default void batchesThatFreeWhatTheyWroteReopenWhole(Reporter reporter) {
    int largest = Math.min(1 << 20, capabilities().maxValueBytes());
    byte[] counter = {(byte) 0x80, (byte) 0xff};
    try (TempDirStore t = openFresh()) {
      ReferenceModel model = new ReferenceModel(ModelReplay.FAMILIES);
      Batch first =
          new Batch()
              .put(PLAIN, new byte[] {0x00, 0x7f, (byte) 0xfe}, new byte[0])
              .put(COUNTERS, counter, Int64Add.encode(1L << 56));
      t.store().write(first, Durability.SYNC);
      model.apply(first);
      int round = 0;
      for (Durability durability : List.of(Durability.SYNC, Durability.NO_SYNC)) {
        Batch b = new Batch();
        List<Integer> sizes = new ArrayList<>();
        for (int size = 1; size <= largest; size *= 2) {
          sizes.add(size);
        }
        sizes.add(largest);
        if (round > 0) {
          for (int size :
              sizes.subList(
                  0, sizes.size() / 2)) { // freed in a later batch than the one that wrote it
            b.delete(PLAIN, freedLaterKey(0, size));
          }
        }
        for (int size :
            sizes.subList(
                0, sizes.size() - 2)) { // kept: written first, so the freed space comes last
          b.put(PLAIN, freedLaterKey(round, size), randomValue(size, round * 31 + 1));
        }
        b.merge(COUNTERS, counter, -1);
        for (int size : sizes) {
          b.put(PLAIN, freedInBatchKey(round, size), randomValue(size, round * 31 + 2));
        }
        int i = 0;
        for (int size :
            sizes) { // freed by the batch that wrote it: deleted, or overwritten by a byte
          if (i++ % 2 == 0) {
            b.delete(PLAIN, freedInBatchKey(round, size));
          } else {
            b.put(PLAIN, freedInBatchKey(round, size), new byte[] {(byte) size});
          }
        }
        t.store().write(b, durability);
        model.apply(b);
        if (durability == Durability.NO_SYNC) {
          t.store().syncWal();
        }
        round++;
      }
      t.closeStore();
      Store reopened;
      try {
        reopened = t.reopen();
      } catch (StoreException e) {
        throw new AssertionError(
            "the reopen after a clean close refused a healthy store whose batches freed space"
                + " they had written themselves (values of 1 B to "
                + largest
                + " B put and deleted or overwritten in one"
                + " batch): "
                + firstLine(e),
            e);
      }
      int checked = 0;
      for (String family : ModelReplay.FAMILIES) {
        List<Entry> expected = drain(model, family, START, null, Direction.FORWARD);
        List<Entry> scanned = drain(reopened, family, START, null, Direction.FORWARD);
        assertThat(sizesOf(scanned))
            .as("family '%s' after the reopen: keys and value sizes of a full scan", family)
            .isEqualTo(sizesOf(expected));
        for (int i = 0; i < expected.size(); i++) {
          Entry e = expected.get(i);
          byte[] got = reopened.get(family, e.key());
          if (!Arrays.equals(got, e.value()) || !Arrays.equals(scanned.get(i).value(), e.value())) {
            throw new AssertionError(
                "family '"
                    + family
                    + "' key "
                    + Bytes.hex(e.key())
                    + " after the reopen: a get"
                    + " returned "
                    + (got == null ? "null" : got.length + " bytes")
                    + " and the scan "
                    + scanned.get(i).value().length
                    + " bytes, where "
                    + e.value().length
                    + " bytes were written"
                    + " (same sizes mean differing bytes)");
          }
          checked++;
        }
      }
      report(
          reporter,
          "batchesThatFreeWhatTheyWroteReopenWhole",
          checked
              + " keys right after freeing values of 1 B to "
              + largest
              + " B in the batches that wrote them, a close and a reopen");
    }
  }

  private static List<String> sizesOf(List<Entry> entries) {
    return entries.stream().map(e -> Bytes.hex(e.key()) + "=" + e.value().length + "B").toList();
  }

  private static byte[] freedLaterKey(int round, int size) {
    return ("kept-" + round + "-" + size).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] freedInBatchKey(int round, int size) {
    return ("freed-" + round + "-" + size).getBytes(StandardCharsets.US_ASCII);
  }

  /** Incompressible bytes, so an engine that compresses stores the size asked for. */
  private static byte[] randomValue(int size, long seed) {
    byte[] v = new byte[size];
    new Random(seed * 1_000_003L + size).nextBytes(v);
    return v;
  }

  /**
   * Opening a store without listing one of its families fails with StoreFormatException naming it.
   */
  @Example
  default void openRefusesUnlistedFamilies() {
    List<FamilySpec> both = List.of(FamilySpec.plain("kept"), FamilySpec.plain("newer-family"));
    try (TempDirStore t = TempDirStore.open(backend(), both)) {
      t.store()
          .write(
              new Batch()
                  .put("kept", new byte[] {1}, new byte[] {1})
                  .put("newer-family", new byte[] {2}, new byte[] {2}),
              Durability.SYNC);
      t.closeStore();
      thrownBy(
              () -> t.reopen(List.of(FamilySpec.plain("kept"))),
              "t.reopen(List.of(FamilySpec.plain(\"kept\")))")
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("newer-family");
      Store again = t.reopen(both);
      assertThat(again.get("kept", new byte[] {1}))
          .as("the refused open changed nothing")
          .isEqualTo(new byte[] {1});
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
      assertThat(capabilities).as("capabilities() of an open store").isNotNull();
      // The limits and snapshots the fixture claims are the store's own; a test fixture may claim
      // more of what it can do to files (damage injection) than the store it wraps says.
      assertThat(
              List.of(
                  capabilities.maxKeyBytes(),
                  capabilities.maxValueBytes(),
                  capabilities.snapshots()))
          .as(
              "capabilities() of an open store: maxKeyBytes, maxValueBytes and snapshots as the fixture claims them")
          .isEqualTo(
              List.of(
                  capabilities().maxKeyBytes(),
                  capabilities().maxValueBytes(),
                  capabilities().snapshots()));
      t.closeStore();
      assertThat(s.capabilities()).as("capabilities() after close").isEqualTo(capabilities);
      assertThat(s.families()).as("families() after close").isEqualTo(families);
      assertThat(s.directory()).as("directory() after close").isEqualTo(directory);
      report(
          reporter,
          "descriptiveGettersAnswerAfterClose",
          "directory " + directory + ", " + families.size() + " families");
    }
  }

  /**
   * reportWriteFailure and close let go of whatever they hold: after a reported failure another
   * thread reads and writes the recovered store, and after close another thread is told the store
   * is closed (by a get, and by a scan that had read to its end before the close, which it then
   * closes), in both cases at once rather than waiting on a lock the caller kept. (Each call here
   * comes from a fresh thread; a thread that is still blocked after 10 s is reported as stuck.)
   */
  @Example
  default void otherThreadsProceedAfterReportWriteFailureAndClose(Reporter reporter) {
    byte[] k = {0x61};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}), Durability.SYNC);
      s.reportWriteFailure(
          new StoreWriteFailedException("a failure the suite reports; no write failed"));
      assertThat(onAnotherThread("a get after reportWriteFailure", () -> s.get(PLAIN, k)))
          .as("an acknowledged write, read by another thread after reportWriteFailure")
          .isEqualTo(new byte[] {1});
      onAnotherThread(
          "a write after reportWriteFailure",
          () -> {
            s.write(new Batch().put(PLAIN, k, new byte[] {2}), Durability.SYNC);
            return null;
          });
      assertThat(s.get(PLAIN, k))
          .as("the write another thread made after reportWriteFailure")
          .isEqualTo(new byte[] {2});
      Scan finished = s.scan(PLAIN, START, null, Direction.FORWARD);
      while (finished.hasNext()) {
        finished.next();
      }
      t.closeStore();
      Throwable scanAfterClose =
          onAnotherThread(
              "a scan that had reached its end, used and closed after close",
              () -> {
                try {
                  finished.hasNext();
                  return null;
                } catch (StoreException e) {
                  return e;
                } finally {
                  finished.close();
                }
              });
      assertThat(scanAfterClose)
          .as("a finished scan's hasNext on another thread after close")
          .isInstanceOf(StoreClosedException.class);
      Throwable afterClose =
          onAnotherThread(
              "a get after close",
              () -> {
                try {
                  s.get(PLAIN, k);
                  return null;
                } catch (StoreException e) {
                  return e;
                }
              });
      assertThat(afterClose)
          .as("another thread's get after close")
          .isInstanceOf(StoreClosedException.class);
      report(
          reporter,
          "otherThreadsProceedAfterReportWriteFailureAndClose",
          "another thread read and wrote after reportWriteFailure, and was told the store is closed after close");
    }
  }

  private static <T> T onAnotherThread(String call, Callable<T> body) {
    ExecutorService other =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "conformance-other-thread");
              thread.setDaemon(true);
              return thread;
            });
    try {
      return other.submit(body).get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(
          call
              + " from another thread was still blocked after 10 s: the calling thread kept a"
              + " lock the store takes (release it in a finally block)",
          e);
    } catch (ExecutionException e) {
      throw new AssertionError(call + " from another thread threw " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for " + call, e);
    } finally {
      other.shutdownNow();
    }
  }

  /**
   * After a write that failed ({@link StoreWriteFailedException}, injected by the fixture's {@link
   * BackendFixture#injectFaults}) and reportWriteFailure, the store holds every acknowledged write,
   * the failed batch wholly or not at all, and writes again; the same after a syncWal() that
   * failed, for the NO_SYNC batch it did not cover; and what was acknowledged afterwards survives a
   * reopen (after a crash when the fixture simulates one).
   */
  @Example
  default void reportWriteFailureRecoversFromInjectedFaults(Reporter reporter) {
    byte[] acked = {0x51};
    byte[] failed = {0x52};
    byte[] after = {0x53};
    byte[] unsynced = {0x54};
    byte[] last = {0x55};
    try (TempDirStore t = openFresh()) {
      FaultInjectingStore s = backend().injectFaults(t.store());
      s.write(
          new Batch().put(PLAIN, acked, new byte[] {1}).merge(COUNTERS, acked, 5), Durability.SYNC);

      s.failNextWrite();
      Throwable writeFailure =
          catchThrowable(
              () ->
                  s.write(
                      new Batch().put(PLAIN, failed, new byte[] {2}).merge(COUNTERS, failed, 7),
                      Durability.SYNC));
      assertThat(writeFailure)
          .as("the write the fixture failed")
          .isInstanceOf(StoreWriteFailedException.class);
      s.reportWriteFailure(writeFailure);
      assertWholeOrAbsent(
          s, failed, 2, 7, "the SYNC batch whose write failed, after reportWriteFailure");
      assertThat(s.get(PLAIN, acked))
          .as("a SYNC write acknowledged before the failure, after reportWriteFailure")
          .isEqualTo(new byte[] {1});
      assertThat(s.counter(COUNTERS, acked)).as("its merge").isEqualTo(5);
      s.write(new Batch().put(PLAIN, after, new byte[] {3}), Durability.SYNC);
      assertThat(s.get(PLAIN, after))
          .as("a SYNC write after reportWriteFailure")
          .isEqualTo(new byte[] {3});

      s.write(
          new Batch().put(PLAIN, unsynced, new byte[] {4}).merge(COUNTERS, unsynced, 9),
          Durability.NO_SYNC);
      s.failNextSync();
      Throwable syncFailure = catchThrowable(s::syncWal);
      assertThat(syncFailure)
          .as("the syncWal() the fixture failed")
          .isInstanceOf(StoreWriteFailedException.class);
      s.reportWriteFailure(syncFailure);
      assertWholeOrAbsent(
          s, unsynced, 4, 9, "the NO_SYNC batch whose syncWal() failed, after reportWriteFailure");
      s.write(new Batch().put(PLAIN, last, new byte[] {5}), Durability.NO_SYNC);
      s.syncWal();
      assertThat(s.injected()).as("failures injected").isEqualTo(2);

      Store reopened = t.crashOrCloseAndReopen();
      assertThat(reopened.multiGet(PLAIN, List.of(acked, after, last)))
          .as("after the failures, a %s and reopen", backend().simulatesCrash() ? "crash" : "close")
          .extracting(Bytes::hex)
          .containsExactly("01", "03", "05");
      assertWholeOrAbsent(
          reopened, failed, 2, 7, "the SYNC batch whose write failed, after reopen");
      assertWholeOrAbsent(
          reopened, unsynced, 4, 9, "the NO_SYNC batch whose syncWal() failed, after reopen");
      report(
          reporter,
          "reportWriteFailureRecoversFromInjectedFaults",
          "a failed write and a failed sync reported;"
              + " every acknowledged write kept, the store wrote again");
    }
  }

  /**
   * After a write that failed half way through, part of its batch already in the engine ({@link
   * FaultInjectingStore#failNextWriteMidway}, which the fixture's {@link
   * BackendFixture#injectFaults} provides when its engine can fail there), reportWriteFailure
   * leaves a store that holds every acknowledged write, none of the failed batch or all of it, and
   * writes again; the same after a reopen (after a crash when the fixture simulates one).
   * Unverified when the fixture cannot fail a write inside the engine.
   */
  @Example
  default void reportWriteFailureDiscardsAWriteHalfInTheEngine(Reporter reporter) {
    byte[] acked = {0x61};
    byte[] after = {0x6f};
    Batch partial = new Batch();
    for (int i = 0; i < 6; i++) {
      partial.put(PLAIN, new byte[] {0x62, (byte) i}, new byte[] {(byte) (0x20 + i)});
    }
    partial.merge(COUNTERS, acked, 9);
    try (TempDirStore t = openFresh()) {
      FaultInjectingStore s = backend().injectFaults(t.store());
      s.write(
          new Batch().put(PLAIN, acked, new byte[] {1}).merge(COUNTERS, acked, 5), Durability.SYNC);
      try {
        s.failNextWriteMidway();
      } catch (UnsupportedOperationException e) {
        throw new org.opentest4j.TestAbortedException(
            backend().name()
                + "'s fixture cannot fail a write inside the"
                + " engine after part of it reached it: "
                + e.getMessage());
      }
      Throwable failure = catchThrowable(() -> s.write(partial, Durability.SYNC));
      assertThat(failure)
          .as("the write the fixture failed half way through")
          .isInstanceOf(StoreWriteFailedException.class);
      s.reportWriteFailure(failure);
      assertPartialGone(s, partial, "after reportWriteFailure");
      assertThat(s.get(PLAIN, acked))
          .as("a SYNC write acknowledged before the failure, after reportWriteFailure")
          .isEqualTo(new byte[] {1});
      s.write(new Batch().put(PLAIN, after, new byte[] {3}), Durability.SYNC);
      assertThat(s.get(PLAIN, after))
          .as("a SYNC write after reportWriteFailure")
          .isEqualTo(new byte[] {3});
      Store reopened = t.crashOrCloseAndReopen();
      assertThat(reopened.multiGet(PLAIN, List.of(acked, after)))
          .as(
              "the acknowledged writes after a %s and reopen",
              backend().simulatesCrash() ? "crash" : "close")
          .extracting(Bytes::hex)
          .containsExactly("01", "03");
      assertPartialGone(reopened, partial, "after reopen");
      report(
          reporter,
          "reportWriteFailureDiscardsAWriteHalfInTheEngine",
          "a write failed with part of it in the"
              + " engine; reportWriteFailure kept every acknowledged write and none of the failed batch's part");
    }
  }

  /** The batch whose write failed half way: its 6 puts and its merge all there, or none. */
  private static void assertPartialGone(ReadView s, Batch partial, String when) {
    List<String> there = new java.util.ArrayList<>();
    for (Op op : partial.ops()) {
      if (op instanceof Op.Put p && s.get(p.family(), p.key()) != null) {
        there.add("put " + Bytes.hex(p.key()));
      }
    }
    long counter = s.counter(COUNTERS, new byte[] {0x61});
    if (counter != 5) {
      there.add("merge (counter " + counter + ")");
    }
    assertThat(there)
        .as(
            "%s: the batch whose write failed half way is wholly there or wholly absent; of its 6 puts and"
                + " merge these are there",
            when)
        .satisfiesAnyOf(l -> assertThat(l).isEmpty(), l -> assertThat(l).hasSize(7));
  }

  private static void assertWholeOrAbsent(
      ReadView s, byte[] key, int value, long delta, String what) {
    byte[] put = s.get(PLAIN, key);
    long merged = s.counter(COUNTERS, key);
    assertThat(
            put == null
                ? "absent, counter " + merged
                : "put " + Bytes.hex(put) + ", counter " + merged)
        .as("%s is wholly there or wholly absent", what)
        .isIn(
            "absent, counter 0",
            "put " + Bytes.hex(new byte[] {(byte) value}) + ", counter " + delta);
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
      s.write(
          new Batch().put(PLAIN, k, new byte[] {1}).put(PLAIN, new byte[] {0x32}, new byte[] {2}),
          Durability.SYNC);
      Scan started = s.scan(PLAIN, START, null, Direction.FORWARD);
      started.next();
      Scan unstarted = s.scan(PLAIN, START, null, Direction.REVERSE);
      boolean snapshots = capabilities().snapshots();
      Snapshot snap = snapshots ? s.snapshot() : null;
      Scan snapScan = snapshots ? snap.scan(PLAIN, START, null, Direction.FORWARD) : null;
      s.reportWriteFailure(
          new RuntimeException("a write failure injected by the conformance suite"));
      assertClosed("a started scan after reportWriteFailure", started::hasNext);
      assertClosed("an unstarted scan after reportWriteFailure", unstarted::next);
      if (snapshots) {
        assertClosed("a snapshot's get after reportWriteFailure", () -> snap.get(PLAIN, k));
        assertClosed(
            "a snapshot's scan after reportWriteFailure",
            () -> snap.scan(PLAIN, START, null, Direction.FORWARD));
        assertClosed("a snapshot scan's hasNext after reportWriteFailure", snapScan::hasNext);
        snapScan.close();
        snap.close();
      }
      started.close();
      unstarted.close();
      s.write(new Batch().put(PLAIN, k, new byte[] {3}), Durability.SYNC);
      assertThat(s.get(PLAIN, k))
          .as("the store after reportWriteFailure")
          .isEqualTo(new byte[] {3});
      report(
          reporter,
          "reportWriteFailureClosesScansAndSnapshots",
          "2 scans"
              + (snapshots ? ", 1 snapshot and its scan" : "")
              + " closed; the store kept working");
    }
  }
}
