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
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Example;

/**
 * Corruption: a scan never mistakes damage for the end of a range, and damage is never read back as
 * data.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface CorruptionCases extends EngineCase {
  /**
   * After the fixture damages the data files of a family, a full scan (and a full visit) either
   * returns every key with its value or throws StoreCorruptionException — never ends early quietly; each get returns the
   * right value or throws; and the damage is detected at least once.
   */
  @Example
  default void scanNeverEndsEarlyOnCorruption() {
    requireCapability(capabilities().corruptionInjection(), "corruptionInjection",
        "its fixture cannot damage data files, so there is no corruption to detect");
    final int count = 3000;
    TreeMap<byte[], byte[]> written = new TreeMap<>(Bytes.UNSIGNED);
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
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
      t.closeStore();
      backend().corrupt(t.dir(), FAMILIES, PLAIN);
      int detected = 0;
      Store damaged;
      try {
        damaged = t.reopen();
      } catch (StoreCorruptionException e) {
        return; // refusing to open a damaged store is a detection too
      }
      for (Direction dir : Direction.values()) {
        List<String> expected = (dir == Direction.FORWARD ? written : written.descendingMap()).entrySet().stream()
            .map(e -> Bytes.hex(e.getKey()) + "=" + Bytes.hex(e.getValue())).toList();
        List<String> got = new ArrayList<>();
        try (Scan scan = damaged.scan(PLAIN, START, null, dir)) {
          while (scan.hasNext()) {
            got.add(scan.next().toString());
          }
          assertThat(got.size()).as("%s scan of the damaged family ended without an exception after %d of %d keys",
              dir, got.size(), count).isEqualTo(count);
        } catch (StoreCorruptionException e) {
          detected++;
        }
        assertThat(got).as("%s scan returns right entries until it stops", dir)
            .isEqualTo(expected.subList(0, got.size()));
        List<String> visited = new ArrayList<>();
        try {
          damaged.visit(PLAIN, START, null, dir, (key, value) -> visited.add(Bytes.hex(key) + "=" + Bytes.hex(value)));
          assertThat(visited.size()).as("%s visit of the damaged family ended without an exception after %d of %d keys",
              dir, visited.size(), count).isEqualTo(count);
        } catch (StoreCorruptionException e) {
          detected++;
        }
        assertThat(visited).as("%s visit sees right entries until it stops", dir)
            .isEqualTo(expected.subList(0, visited.size()));
      }
      for (Map.Entry<byte[], byte[]> e : written.entrySet()) {
        try {
          byte[] v = damaged.get(PLAIN, e.getKey());
          assertThat(Bytes.hex(v)).as("get of %s in the damaged family", Bytes.hex(e.getKey()))
              .isEqualTo(Bytes.hex(e.getValue()));
        } catch (StoreCorruptionException ex) {
          detected++;
        }
      }
      assertThat(detected).as("the damage done by %s's fixture was never detected: the fixture did not"
          + " corrupt anything the reads meet", backend().name()).isPositive();
    }
  }
}
