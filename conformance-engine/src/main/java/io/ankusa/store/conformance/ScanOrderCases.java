package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.Store;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Order and ranges: unsigned key order, half-open bounds both ways, empty and unbounded ranges,
 * half-open deleteRange, multiGet order and nulls, a multiGet of a million keys.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface ScanOrderCases extends EngineCase {
  /** Keys compare as unsigned bytes: 0x80 after 0x7f, a prefix before its extensions. */
  @Example
  default void keysCompareAsUnsignedBytes() {
    byte[][] ascending = {
      {0x00},
      {0x00, 0x00},
      {0x01},
      {0x7f},
      {0x7f, (byte) 0xff},
      {(byte) 0x80},
      {(byte) 0x80, 0x00},
      {(byte) 0xfe, 0x01},
      {(byte) 0xff},
      {(byte) 0xff, 0x00},
      {(byte) 0xff, (byte) 0xff, (byte) 0xff}
    };
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Batch b = new Batch();
      for (int i = ascending.length - 1; i >= 0; i--) {
        b.put(PLAIN, ascending[i], new byte[] {(byte) i});
      }
      s.write(b, Durability.NO_SYNC);
      assertThat(hexKeys(drain(s, PLAIN, START, null, Direction.FORWARD)))
          .as("a forward scan lists keys in unsigned byte order, prefixes first")
          .containsExactlyElementsOf(hex(List.of(ascending)));
      assertThat(
              hexKeys(
                  drain(s, PLAIN, new byte[] {0x7f}, new byte[] {(byte) 0x81}, Direction.FORWARD)))
          .as("[7f, 81) holds 7f, 7fff, 80, 8000 and nothing signed-smaller")
          .containsExactly("7f", "7fff", "80", "8000");
    }
  }

  /** A scan lists exactly the keys {@code k} with {@code lo <= k < hi}, in unsigned order. */
  @Property
  default void scanRespectsHalfOpenBounds(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, withBounds(keys, lo, hi));
      assertSameEntries(
          drain(s, PLAIN, lo, hi, Direction.FORWARD),
          model.subMap(lo, true, hi, false),
          "forward scan [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")");
    }
  }

  /** A reverse scan of [lo, hi) is the forward scan reversed, hi excluded. */
  @Property
  default void reverseScanIsForwardReversed(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, keys);
      s.write(new Batch().put(PLAIN, hi, hi), Durability.NO_SYNC);
      model.put(hi, hi);
      assertSameEntries(
          drain(s, PLAIN, lo, hi, Direction.REVERSE),
          model.subMap(lo, true, hi, false).descendingMap(),
          "reverse scan [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")");
      List<Entry> forward = new ArrayList<>(drain(s, PLAIN, START, null, Direction.FORWARD));
      java.util.Collections.reverse(forward);
      assertThat(hexEntries(drain(s, PLAIN, START, null, Direction.REVERSE)))
          .as("unbounded reverse scan is the unbounded forward scan reversed")
          .isEqualTo(hexEntries(forward));
    }
  }

  /**
   * lo == hi is an empty range in both directions, even when lo is a key; a family with nothing in
   * it scans empty to its unbounded end, both ways.
   */
  @Property
  default void emptyRangeScansNothing(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] at) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      putAll(s, keys);
      s.write(new Batch().put(PLAIN, at, at), Durability.NO_SYNC);
      assertThat(drain(s, PLAIN, at, at, Direction.FORWARD))
          .as("forward [%s, %s)", Bytes.hex(at), Bytes.hex(at))
          .isEmpty();
      assertThat(drain(s, PLAIN, at, at, Direction.REVERSE))
          .as("reverse [%s, %s)", Bytes.hex(at), Bytes.hex(at))
          .isEmpty();
      assertThat(drain(s, PLAIN, START, START, Direction.FORWARD)).as("forward [, )").isEmpty();
      // A family with nothing in it, read to its unbounded end either way, from its start or a key.
      for (Direction d : Direction.values()) {
        assertThat(drain(s, COUNTERS, START, null, d))
            .as("%s scan of an empty family, unbounded", d)
            .isEmpty();
        assertThat(drain(s, COUNTERS, at, null, d))
            .as("%s scan of an empty family from %s, unbounded", d, Bytes.hex(at))
            .isEmpty();
      }
    }
  }

  /**
   * hi == null scans to the end of the family, forward and reverse; an empty lo starts at the
   * beginning.
   */
  @Property
  default void unboundedHiScansToTheEnd(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] lo) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, keys);
      s.write(
          new Batch().put(PLAIN, new byte[] {(byte) 0xff, (byte) 0xff}, new byte[] {1}),
          Durability.NO_SYNC);
      model.put(new byte[] {(byte) 0xff, (byte) 0xff}, new byte[] {1});
      assertSameEntries(
          drain(s, PLAIN, lo, null, Direction.FORWARD),
          model.tailMap(lo, true),
          "forward scan [" + Bytes.hex(lo) + ", end)");
      assertSameEntries(
          drain(s, PLAIN, lo, null, Direction.REVERSE),
          model.tailMap(lo, true).descendingMap(),
          "reverse scan [" + Bytes.hex(lo) + ", end)");
      assertSameEntries(
          drain(s, PLAIN, START, null, Direction.FORWARD), model, "forward scan of the family");
    }
  }

  /** deleteRange removes exactly [lo, hi): lo is removed, hi is kept. */
  @Property
  default void deleteRangeIsHalfOpen(
      @ForAll("keySets") List<byte[]> keys, @ForAll("keys") byte[] a, @ForAll("keys") byte[] b) {
    byte[] lo = Bytes.compare(a, b) <= 0 ? a : b;
    byte[] hi = lo == a ? b : a;
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, withBounds(keys, lo, hi));
      s.write(new Batch().deleteRange(PLAIN, lo, hi), Durability.NO_SYNC);
      model.subMap(lo, true, hi, false).clear();
      assertSameEntries(
          drain(s, PLAIN, START, null, Direction.FORWARD),
          model,
          "after deleteRange [" + Bytes.hex(lo) + ", " + Bytes.hex(hi) + ")");
      if (Bytes.compare(lo, hi) < 0) {
        assertThat(s.get(PLAIN, lo))
            .as("lo %s is inside the range and removed", Bytes.hex(lo))
            .isNull();
      }
      assertThat(s.get(PLAIN, hi))
          .as("hi %s is outside the range and kept", Bytes.hex(hi))
          .isEqualTo(hi);
    }
  }

  /** multiGet answers in the order asked, null for each absent key, duplicates allowed. */
  @Property
  default void multiGetKeepsOrderAndNulls(
      @ForAll("keySets") List<byte[]> present, @ForAll("keySets") List<byte[]> asked) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = putAll(s, present);
      List<byte[]> query = new ArrayList<>(asked);
      if (!present.isEmpty()) {
        query.add(present.get(0));
        query.add(0, present.get(present.size() - 1));
      }
      if (!query.isEmpty()) {
        query.add(query.get(0));
      }
      List<byte[]> got = s.multiGet(PLAIN, query);
      assertThat(got).as("multiGet of %s", hex(query)).hasSize(query.size());
      for (int i = 0; i < query.size(); i++) {
        assertThat(Bytes.hex(got.get(i)))
            .as("multiGet answer %d, key %s", i, Bytes.hex(query.get(i)))
            .isEqualTo(Bytes.hex(model.get(query.get(i))));
      }
    }
  }

  /** Keys the million-key multiGet asks for. */
  int MILLION = 1_000_000;

  /** One key in this many of the million is present. */
  int MILLION_PRESENT_EVERY = 997;

  /**
   * A multiGet of {@value #MILLION} keys answers every one, in order, with its value or null: no
   * size limit, no overflow of a buffer sized for all keys at once (most keys are absent, so the
   * case stays cheap).
   */
  @Example
  default void multiGetOfAMillionKeys() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Batch b = new Batch();
      for (int i = 0; i < MILLION; i += MILLION_PRESENT_EVERY) {
        b.put(PLAIN, millionKey(i), millionKey(~i));
      }
      s.write(b, Durability.NO_SYNC);
      List<byte[]> keys =
          new java.util.AbstractList<>() {
            @Override
            public byte[] get(int i) {
              return millionKey(i);
            }

            @Override
            public int size() {
              return MILLION;
            }
          };
      List<byte[]> got = s.multiGet(PLAIN, keys);
      assertThat(got).as("answers to a multiGet of %d keys", MILLION).hasSize(MILLION);
      for (int i = 0; i < MILLION; i++) {
        byte[] want = i % MILLION_PRESENT_EVERY == 0 ? millionKey(~i) : null;
        if (!Arrays.equals(got.get(i), want)) {
          throw new AssertionError(
              "multiGet of "
                  + MILLION
                  + " keys: answer "
                  + i
                  + " for key "
                  + Bytes.hex(millionKey(i))
                  + " is "
                  + Bytes.hex(got.get(i))
                  + ", expected "
                  + Bytes.hex(want));
        }
      }
    }
  }

  private static byte[] millionKey(int i) {
    return ByteBuffer.allocate(5).put((byte) 'm').putInt(i).array();
  }
}
