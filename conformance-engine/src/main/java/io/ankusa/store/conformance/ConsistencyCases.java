package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
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
import java.util.NavigableMap;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Reporter;

/**
 * Consistent views: a snapshot does not see later writes; a scan sees one state while writes go on.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface ConsistencyCases extends EngineCase {
  /**
   * A snapshot keeps showing the state at its creation while puts, deletes, ranges and merges go
   * on.
   */
  @Example
  default void snapshotDoesNotSeeLaterWrites() {
    requireCapability(
        capabilities().snapshots(), "snapshots", "Store.snapshot() does not give a frozen view");
    byte[] a = {0x10};
    byte[] b = {(byte) 0x80};
    byte[] c = {(byte) 0x90, 0x01};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(
          new Batch()
              .put(PLAIN, a, new byte[] {1})
              .put(PLAIN, b, new byte[] {2})
              .merge(COUNTERS, a, 10),
          Durability.NO_SYNC);
      List<String> before = hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD));
      try (Snapshot snap = s.snapshot()) {
        s.write(
            new Batch()
                .put(PLAIN, a, new byte[] {9})
                .delete(PLAIN, b)
                .put(PLAIN, c, new byte[] {3})
                .merge(COUNTERS, a, 5),
            Durability.NO_SYNC);
        s.write(
            new Batch().deleteRange(PLAIN, START, new byte[] {(byte) 0x85}).merge(COUNTERS, b, 1),
            Durability.SYNC);
        assertThat(snap.get(PLAIN, a))
            .as("snapshot get of an overwritten then range-deleted key")
            .isEqualTo(new byte[] {1});
        assertThat(snap.get(PLAIN, b))
            .as("snapshot get of a deleted key")
            .isEqualTo(new byte[] {2});
        assertThat(snap.get(PLAIN, c)).as("snapshot get of a key put later").isNull();
        assertThat(snap.multiGet(PLAIN, List.of(c, b, a)))
            .extracting(Bytes::hex)
            .containsExactly("null", "02", "01");
        assertThat(snap.counter(COUNTERS, a))
            .as("snapshot counter after a later merge")
            .isEqualTo(10);
        assertThat(snap.counter(COUNTERS, b)).as("snapshot counter merged later").isZero();
        assertThat(hexEntries(drain(snap, PLAIN, START, null, Direction.FORWARD)))
            .as("snapshot scan")
            .isEqualTo(before);
        assertThat(hexEntries(drain(snap, PLAIN, START, null, Direction.REVERSE)))
            .as("snapshot reverse scan")
            .containsExactly("80=02", "10=01");
        assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.FORWARD)))
            .as("live store")
            .containsExactly("9001=03");
      }
    }
  }

  /**
   * A snapshot held across many commits and the fixture's flushes ({@link BackendFixture#flush})
   * keeps reading the state at its creation: 60 commits of puts, overwrites, deletes, range deletes
   * and merges over the keys it saw, a flush after every 6th, and after each flush the snapshot's
   * gets, counters and scans in both directions still give the old state while the live store gives
   * the new one (compared with the suite's {@link ReferenceModel}).
   */
  @Example
  default void snapshotHeldAcrossCommitsAndFlushes(Reporter reporter) {
    requireCapability(
        capabilities().snapshots(), "snapshots", "Store.snapshot() does not give a frozen view");
    final int commits = 60;
    final int keys = 60; // keys 0, 4, .., 236: every deleteRange's hi (key + 12) fits one byte
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      ReferenceModel model = new ReferenceModel(ModelReplay.FAMILIES);
      Batch first = new Batch();
      for (int k = 0; k < keys; k++) {
        first
            .put(PLAIN, new byte[] {(byte) (k * 4)}, new byte[] {(byte) k, 0})
            .merge(COUNTERS, new byte[] {(byte) (k * 4)}, k);
      }
      s.write(first, Durability.SYNC);
      model.apply(first);
      ReferenceModel old = model.copy();
      int flushes = 0;
      try (Snapshot snap = s.snapshot()) {
        for (int c = 1; c <= commits; c++) {
          Batch b = new Batch();
          int k = (c * 7) % keys;
          b.put(PLAIN, new byte[] {(byte) (k * 4)}, new byte[] {(byte) k, (byte) c});
          b.put(PLAIN, new byte[] {(byte) (k * 4 + 1)}, new byte[] {(byte) c});
          b.merge(COUNTERS, new byte[] {(byte) (k * 4)}, c);
          if (c % 5 == 0) {
            b.delete(PLAIN, new byte[] {(byte) (((c * 3) % keys) * 4)});
          }
          if (c % 9 == 0) {
            b.deleteRange(PLAIN, new byte[] {(byte) (k * 4)}, new byte[] {(byte) (k * 4 + 12)});
          }
          s.write(b, c % 2 == 0 ? Durability.SYNC : Durability.NO_SYNC);
          model.apply(b);
          if (c % 6 == 0) {
            backend().flush(s);
            flushes++;
            String when = "a snapshot held across " + c + " commits and " + flushes + " flushes";
            assertSameView(snap, old, when, keys);
            assertSameView(
                s,
                model,
                "the live store after " + c + " commits and " + flushes + " flushes",
                keys);
          }
        }
      }
      report(
          reporter,
          "snapshotHeldAcrossCommitsAndFlushes",
          commits + " commits, " + flushes + " flushes");
    }
  }

  /**
   * Both families of {@code actual} and {@code model} agree: scans both ways, multiGet and counters
   * of every probed key.
   */
  private static void assertSameView(ReadView actual, ReferenceModel model, String when, int keys) {
    List<byte[]> probes = new ArrayList<>();
    for (int k = 0; k < keys * 4; k++) {
      probes.add(new byte[] {(byte) k});
    }
    for (String family : List.of(PLAIN, COUNTERS)) {
      assertSameState(actual, model, family, when);
      assertSameList(
          hexEntries(drain(actual, family, START, null, Direction.REVERSE)),
          hexEntries(drain(model, family, START, null, Direction.REVERSE)),
          when + ": family '" + family + "' reverse scan");
      assertSameList(
          hex(actual.multiGet(family, probes)),
          hex(model.multiGet(family, probes)),
          when + ": family '" + family + "' multiGet");
    }
    for (byte[] k : probes) {
      assertThat(actual.counter(COUNTERS, k))
          .as("%s: counter %s", when, Bytes.hex(k))
          .isEqualTo(model.counter(COUNTERS, k));
    }
  }

  /**
   * A scan yields exactly the state at its opening, while keys inside and outside its range are
   * written and deleted after it opened (and after it returned its first entry).
   */
  @Property
  default void scanSeesOneStateWhileWritesGoOn(
      @ForAll("keySets") List<byte[]> initial,
      @ForAll("keySets") List<byte[]> later,
      @ForAll("keys") byte[] a,
      @ForAll("keys") byte[] b,
      @ForAll boolean reverse,
      @ForAll boolean readOneFirst) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    Direction dir = reverse ? Direction.REVERSE : Direction.FORWARD;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, initial);
      NavigableMap<byte[], byte[]> range = model.subMap(lo, true, hi, false);
      List<String> expected = hexEntries(reverse ? range.descendingMap() : range);
      List<String> got = new ArrayList<>();
      try (Scan scan = s.scan(PLAIN, lo, hi, dir)) {
        if (readOneFirst && scan.hasNext()) {
          got.add(scan.next().toString());
        }
        Batch changes = new Batch();
        for (int i = 0; i < later.size(); i++) {
          if (i % 3 == 0) {
            changes.delete(PLAIN, later.get(i));
          } else {
            changes.put(PLAIN, later.get(i), new byte[] {(byte) 0xee, (byte) i});
          }
        }
        for (byte[] k : initial) {
          changes.put(PLAIN, k, new byte[] {(byte) 0xdd});
        }
        changes.deleteRange(PLAIN, lo, lo.length < 2 ? concat(lo, new byte[] {0x40}) : lo);
        s.write(changes, Durability.NO_SYNC);
        s.write(new Batch().put(PLAIN, lo, new byte[] {(byte) 0xcc}), Durability.NO_SYNC);
        while (scan.hasNext()) {
          got.add(scan.next().toString());
        }
      }
      assertThat(got)
          .as("%s scan of [%s, %s) opened before the writes", dir, Bytes.hex(lo), Bytes.hex(hi))
          .isEqualTo(expected);
    }
  }

  /**
   * A forward scan or visit opened after writes sees them, however often its range was read before:
   * a backend that keeps the cursor of a closed scan for the next scan of the same range must bring
   * it to the latest state first. Four rounds over one range ({@code [lo, hi)}, or {@code [lo,
   * end)}): a forward scan and a visit, both compared with a model, then a batch of puts, deletes,
   * a range delete and a put of {@code lo} inside and around the range, and a flush of the fixture
   * after every second round.
   */
  @Property
  default void aRescanSeesWritesSinceTheLastScanOfItsRange(
      @ForAll("keySets") List<byte[]> initial,
      @ForAll("keySets") List<byte[]> later,
      @ForAll("keys") byte[] a,
      @ForAll("keys") byte[] b,
      @ForAll boolean unbounded) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = unbounded ? null : lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, initial);
      for (int round = 0; round < 4; round++) {
        NavigableMap<byte[], byte[]> range =
            hi == null ? model.tailMap(lo, true) : model.subMap(lo, true, hi, false);
        List<String> expected = hexEntries(range);
        String what =
            "["
                + Bytes.hex(lo)
                + ", "
                + (hi == null ? "end" : Bytes.hex(hi))
                + ") in round "
                + round;
        assertThat(hexEntries(drain(s, PLAIN, lo, hi, Direction.FORWARD)))
            .as("forward scan of %s", what)
            .isEqualTo(expected);
        List<String> visited = new ArrayList<>();
        s.visit(
            PLAIN, lo, hi, Direction.FORWARD, (k, v) -> visited.add(new Entry(k, v).toString()));
        assertThat(visited).as("visit of %s", what).isEqualTo(expected);
        Batch changes = new Batch();
        for (int i = 0; i < later.size(); i++) {
          byte[] k = later.get(i);
          if ((i + round) % 3 == 0) {
            changes.delete(PLAIN, k);
            model.remove(k);
          } else {
            byte[] v = {(byte) 0xee, (byte) round, (byte) i};
            changes.put(PLAIN, k, v);
            model.put(k, v);
          }
        }
        byte[] cut = concat(lo, new byte[] {(byte) (0x20 * (round + 1))});
        changes.deleteRange(PLAIN, lo, cut);
        model.subMap(lo, true, cut, false).clear();
        byte[] v = {(byte) 0xcc, (byte) round};
        changes.put(PLAIN, lo, v);
        model.put(lo, v);
        s.write(changes, Durability.NO_SYNC);
        if (round % 2 == 1) {
          backend().flush(s);
        }
      }
    }
  }
}
