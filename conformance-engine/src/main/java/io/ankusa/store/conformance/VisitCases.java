package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The visitor read path ({@link io.ankusa.store.spi.ReadView#visit}): the same entries as a scan of
 * the same range, in the same order, from one state, stopping where the visitor says. How it
 * behaves on corruption and after close is checked with the scan's cases ({@code
 * scanNeverEndsEarlyOnCorruption}, {@code everyCallAfterCloseThrows}).
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface VisitCases extends EngineCase {
  /**
   * A visit of a range calls the visitor with exactly the entries a scan of that range returns, in
   * order, and no more once the visitor returned false; a write the visitor makes is not seen by
   * the running visit (one state); on a snapshot it sees the snapshot. Up to 300 extra keys make
   * the range longer than one chunk of the backends that read in chunks.
   */
  @Property
  default void visitSeesWhatScanSees(
      @ForAll("keySets") List<byte[]> keys,
      @ForAll("keys") byte[] a,
      @ForAll("keys") byte[] b,
      @ForAll boolean bounded,
      @ForAll Direction direction,
      @ForAll @IntRange(min = 0, max = 300) int extraKeys,
      @ForAll @IntRange(min = 0, max = 320) int stopAfter) {
    byte[] lo = !bounded ? START : Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = !bounded ? null : lo == a ? b : a;
    List<byte[]> all = new ArrayList<>(keys);
    for (int i = 0; i < extraKeys; i++) {
      all.add(new byte[] {(byte) 0x80, (byte) (i >>> 8), (byte) i});
    }
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      putAll(s, all);
      List<String> scanned = hexEntries(drain(s, PLAIN, lo, hi, direction));
      int expected = stopAfter == 0 ? scanned.size() : Math.min(stopAfter, scanned.size());
      List<String> visited = new ArrayList<>();
      s.visit(
          PLAIN,
          lo,
          hi,
          direction,
          (key, value) -> {
            if (visited.isEmpty()) {
              // Overwrite every key the scan saw: a visit reads one state, so it must not see
              // these.
              Batch overwrite = new Batch();
              for (byte[] k : all) {
                overwrite.put(PLAIN, k, new byte[] {0x7e});
              }
              s.write(overwrite, Durability.NO_SYNC);
            }
            visited.add(new Entry(key.clone(), value.clone()).toString());
            return stopAfter == 0 || visited.size() < stopAfter;
          });
      assertThat(visited)
          .as(
              "visit of %s [%s, %s) stopping after %d: the scan's first %d entries",
              direction, Bytes.hex(lo), hi == null ? "end" : Bytes.hex(hi), stopAfter, expected)
          .isEqualTo(scanned.subList(0, expected));
      if (capabilities().snapshots()) {
        try (Snapshot snap = s.snapshot()) {
          List<String> inSnapshot = hexEntries(drain(snap, PLAIN, lo, hi, direction));
          s.write(
              new Batch().deleteRange(PLAIN, START, new byte[] {(byte) 0xff, (byte) 0xff}),
              Durability.NO_SYNC);
          List<String> visitedSnapshot = new ArrayList<>();
          snap.visit(
              PLAIN,
              lo,
              hi,
              direction,
              (key, value) ->
                  visitedSnapshot.add(new Entry(key.clone(), value.clone()).toString()));
          assertThat(visitedSnapshot)
              .as("visit of a snapshot after later writes")
              .isEqualTo(inSnapshot);
        }
      }
    }
  }
}
