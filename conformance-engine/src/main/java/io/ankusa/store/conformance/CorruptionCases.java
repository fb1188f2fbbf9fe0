package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Example;
import org.opentest4j.TestAbortedException;

/**
 * Corruption, two claims counted apart: damage is detected, refused at open or on a read ({@link
 * #damageIsRefusedAtOpenOrDetectedOnRead}); and a scan never mistakes damage for the end of a
 * range, and damage is never read back as data, past any open-time check ({@link
 * #scanNeverEndsEarlyOnCorruption}) — for an engine that claims {@link
 * io.ankusa.store.spi.Capabilities#detectsDamage()}. The damage itself is the fixture's ({@link
 * BackendFixture#corrupt}, by default {@link StoreFileDamage} in any store that lives in files), so
 * the case runs on every on-disk backend whatever it claims.
 *
 * <p>An engine that does not claim detection is damaged all the same, and the case ends unverified
 * (skipped, never passed) with what the engine did: how many reads returned wrong values, where a
 * scan ended quietly, what was detected anyway. Not a failure: the engine made no promise, and a
 * failure it could never fix would only teach its authors to switch the case off. Not quiet either:
 * the summary prints the line in every run, so the reader of a build sees which reads of a damaged
 * store that engine would get wrong.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface CorruptionCases extends EngineCase {
  /**
   * After the fixture damages the data files of a family, a full scan and a full visit each either
   * return every key with its value or throw StoreCorruptionException — never ends early quietly;
   * each get returns the right value or throws; and the damage is detected at least once. A reopen
   * that refuses the store with StoreCorruptionException is a detection at open, not a check of the
   * reads: the case then reads the damaged store opened without the backend's open-time check, or a
   * store damaged while open after a flush, as the fixture can ({@link
   * BackendFixture#openWithoutOpenTimeCheck}, {@link BackendFixture#corruptOpen}); when it can do
   * neither, the read path ends unverified. For an engine not claiming {@code detectsDamage}: what
   * it did, reported as unverified.
   */
  @Example
  default void scanNeverEndsEarlyOnCorruption(net.jqwik.api.Reporter reporter) {
    final int count = 3000;
    boolean claimed = capabilities().detectsDamage();
    TreeMap<byte[], byte[]> written = new TreeMap<>(Bytes.UNSIGNED);
    List<TempDirStore> readPath = new ArrayList<>();
    try (TempDirStore t = openFresh()) {
      writeDamageable(t.store(), count, written);
      t.closeStore();
      try {
        backend().corrupt(t.dir(), FAMILIES, PLAIN);
      } catch (UnsupportedOperationException cannot) {
        throw unverified(
            claimed, "its fixture cannot damage the store's data: " + cannot.getMessage());
      }
      DamageSeen seen = new DamageSeen(count);
      Store damaged;
      String how = "reopened after its closed files were damaged";
      try {
        damaged = t.reopen();
      } catch (StoreCorruptionException e) {
        if (!claimed) {
          throw unverified(false, "it refused to open the damaged store: " + e.getMessage());
        }
        how = "refused at open (" + firstLine(e) + "), then ";
        damaged = readPathPastTheOpenCheck(t, count, readPath);
        how +=
            readPath.isEmpty()
                ? "opened without its open-time check"
                : "an open store damaged after a flush";
      }
      for (Direction dir : Direction.values()) {
        List<String> expected =
            hexEntries(dir == Direction.FORWARD ? written : written.descendingMap());
        List<String> got = new ArrayList<>();
        boolean detected = false;
        try (Scan scan = damaged.scan(PLAIN, START, null, dir)) {
          while (scan.hasNext()) {
            got.add(scan.next().toString());
          }
        } catch (StoreCorruptionException e) {
          detected = true;
          seen.detections++;
        }
        seen.read("scan", dir, got, expected, detected);
        List<String> visited = new ArrayList<>();
        boolean visitDetected = false;
        try {
          damaged.visit(
              PLAIN,
              START,
              null,
              dir,
              (key, value) -> visited.add(new Entry(key, value).toString()));
        } catch (StoreCorruptionException e) {
          visitDetected = true;
          seen.detections++;
        }
        seen.read("visit", dir, visited, expected, visitDetected);
      }
      for (Map.Entry<byte[], byte[]> e : written.entrySet()) {
        try {
          byte[] v = damaged.get(PLAIN, e.getKey());
          if (!Arrays.equals(v, e.getValue())) {
            seen.wrongGets.add(
                Bytes.hex(e.getKey())
                    + " read "
                    + (v == null ? "absent" : Bytes.hex(v))
                    + ", written "
                    + Bytes.hex(e.getValue()));
          }
        } catch (StoreCorruptionException ex) {
          seen.detections++;
        }
      }
      if (!claimed) {
        throw unverified(false, "after its fixture damaged the data files, " + seen);
      }
      assertThat(seen.wrongScans)
          .as(
              "%s scans and visits of the damaged family, which must return every entry or throw"
                  + " StoreCorruptionException",
              backend().name())
          .isEmpty();
      assertThat(seen.wrongGets)
          .as("gets of the damaged family that returned damage as data")
          .isEmpty();
      assertThat(seen.detections)
          .as(
              "the damage done by %s's fixture was never detected: the fixture did not"
                  + " corrupt anything the reads meet",
              backend().name())
          .isPositive();
      report(reporter, "scanNeverEndsEarlyOnCorruption", "damaged store " + how + "; " + seen);
    } finally {
      readPath.forEach(TempDirStore::close);
    }
  }

  /**
   * The first of the two claims about damage, counted apart from the second ({@link
   * #scanNeverEndsEarlyOnCorruption}: reads past any open-time check never end early or return
   * damage as data): after the fixture damages the data files of a family, the backend detects it —
   * it refuses the reopen with StoreCorruptionException, or a scan, visit or get of the family
   * throws it. A backend that checks its files at open passes this one at the open, and its reads
   * are the other case's to check; a summary then shows one claim checked and, when the fixture
   * cannot get the reads past the open, the other unverified. For an engine not claiming {@code
   * detectsDamage}: what it did, reported as unverified.
   */
  @Example
  default void damageIsRefusedAtOpenOrDetectedOnRead(net.jqwik.api.Reporter reporter) {
    final int count = 3000;
    boolean claimed = capabilities().detectsDamage();
    TreeMap<byte[], byte[]> written = new TreeMap<>(Bytes.UNSIGNED);
    try (TempDirStore t = openFresh()) {
      writeDamageable(t.store(), count, written);
      t.closeStore();
      try {
        backend().corrupt(t.dir(), FAMILIES, PLAIN);
      } catch (UnsupportedOperationException cannot) {
        throw unverified(
            claimed, "its fixture cannot damage the store's data: " + cannot.getMessage());
      }
      Store damaged;
      try {
        damaged = t.reopen();
      } catch (StoreCorruptionException e) {
        if (!claimed) {
          throw unverified(false, "it refused to open the damaged store: " + e.getMessage());
        }
        report(
            reporter, "damageIsRefusedAtOpenOrDetectedOnRead", "refused at open: " + firstLine(e));
        return;
      }
      int detections = 0;
      for (Direction dir : Direction.values()) {
        try (Scan scan = damaged.scan(PLAIN, START, null, dir)) {
          while (scan.hasNext()) {
            scan.next();
          }
        } catch (StoreCorruptionException e) {
          detections++;
        }
      }
      for (byte[] key : written.keySet()) {
        try {
          damaged.get(PLAIN, key);
        } catch (StoreCorruptionException e) {
          detections++;
        }
      }
      if (!claimed) {
        throw unverified(
            false,
            "after its fixture damaged the data files, it opened the store and "
                + detections
                + " reads detected the damage");
      }
      assertThat(detections)
          .as("reads of the damaged family that detected the damage (it opened the damaged store)")
          .isPositive();
      report(
          reporter,
          "damageIsRefusedAtOpenOrDetectedOnRead",
          "detected on " + detections + " reads");
    }
  }

  /**
   * Writes {@code count} entries of 100 random bytes to {@link #PLAIN} in SYNC batches of 250, the
   * same for every call, and records them in {@code written}.
   */
  private static void writeDamageable(Store s, int count, Map<byte[], byte[]> written) {
    java.util.Random random = new java.util.Random(count);
    for (int from = 0; from < count; from += 250) {
      Batch b = new Batch();
      for (int i = from; i < Math.min(count, from + 250); i++) {
        byte[] key = ByteBuffer.allocate(5).put((byte) 'k').putInt(i * 7919).array();
        byte[] value = new byte[100];
        random.nextBytes(value);
        b.put(PLAIN, key, value);
        written.put(key, value);
      }
      s.write(b, Durability.SYNC);
    }
  }

  /**
   * After the backend refused the damaged store at open — a detection, but one that leaves the read
   * path unchecked — the store the reads go to: the damaged store opened without the open-time
   * check ({@link BackendFixture#openWithoutOpenTimeCheck}), else a new store damaged while open,
   * after a flush ({@link BackendFixture#corruptOpen}; its {@link TempDirStore} is added to {@code
   * opened}). Neither: the read path is unverified, and the case ends so, saying the open refused
   * the damage.
   */
  private Store readPathPastTheOpenCheck(
      TempDirStore refused, int count, List<TempDirStore> opened) {
    String unchecked;
    try {
      return refused.hold(backend().openWithoutOpenTimeCheck(refused.dir(), FAMILIES));
    } catch (UnsupportedOperationException e) {
      unchecked = e.getMessage();
    }
    TempDirStore t = openFresh();
    opened.add(t);
    writeDamageable(t.store(), count, new TreeMap<>(Bytes.UNSIGNED));
    backend().flush(t.store());
    try {
      backend().corruptOpen(t.store(), t.dir(), FAMILIES, PLAIN);
      return t.store();
    } catch (UnsupportedOperationException e) {
      throw new TestAbortedException(
          backend().name()
              + " refused the damaged store at open (detected at open), but"
              + " the read path is unverified: its fixture can neither open a damaged store without its open-time check ("
              + unchecked
              + ") nor damage an open store ("
              + e.getMessage()
              + ")");
    }
  }

  /** The skip of an unverified promise, with what was seen: thrown, never returned. */
  private TestAbortedException unverified(boolean claimed, String what) {
    return new TestAbortedException(
        backend().name()
            + (claimed ? " claims detectsDamage, but " : " does not claim" + " detectsDamage; ")
            + what);
  }

  /**
   * What the reads of a damaged store returned: scans that went wrong, gets that returned damage,
   * detections.
   */
  final class DamageSeen {
    private final int count;
    final List<String> wrongScans = new ArrayList<>();
    final List<String> wrongGets = new ArrayList<>();
    int detections;

    DamageSeen(int count) {
      this.count = count;
    }

    /** Records what a full read ({@code how}: scan or visit) of the damaged family returned. */
    void read(
        String how, Direction dir, List<String> got, List<String> expected, boolean detected) {
      int agree = 0;
      while (agree < Math.min(got.size(), expected.size())
          && got.get(agree).equals(expected.get(agree))) {
        agree++;
      }
      if (agree < got.size()) {
        wrongScans.add(
            dir
                + " "
                + how
                + " returned a wrong entry at position "
                + agree
                + ": "
                + got.get(agree));
      } else if (!detected && got.size() < count) {
        wrongScans.add(
            dir
                + " "
                + how
                + " ended without an exception after "
                + got.size()
                + " of "
                + count
                + " keys");
      }
    }

    @Override
    public String toString() {
      String gets =
          wrongGets.isEmpty()
              ? "no get returned a wrong value"
              : wrongGets.size()
                  + " of "
                  + count
                  + " gets returned wrong values (first: "
                  + wrongGets.get(0)
                  + ")";
      String scans =
          wrongScans.isEmpty()
              ? "no scan or visit went wrong quietly"
              : String.join("; ", wrongScans);
      return scans + "; " + gets + "; " + detections + " reads threw StoreCorruptionException";
    }
  }
}
