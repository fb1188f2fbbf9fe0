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
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Who owns the arrays: a write keeps none of the caller's, every read returns fresh copies, a value
 * reads back as written.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface ReadOwnershipCases extends EngineCase {
  /**
   * Arrays given to a batch are the caller's again once write returns: changing them changes
   * nothing stored.
   */
  @Property
  default void writeDoesNotKeepCallerArrays(
      @ForAll("keys") byte[] key, @ForAll("values") byte[] value) {
    byte[] k = key.clone();
    byte[] v = value.clone();
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, v), Durability.NO_SYNC);
      Arrays.fill(k, (byte) 0x5a);
      Arrays.fill(v, (byte) 0x5a);
      assertThat(s.get(PLAIN, key))
          .as("value at %s after the caller reused its arrays", Bytes.hex(key))
          .isEqualTo(value);
    }
  }

  /** Arrays returned by reads are fresh copies: changing them changes nothing stored. */
  @Property
  default void readsReturnFreshCopies(@ForAll("keys") byte[] key, @ForAll("values") byte[] value) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, value), Durability.NO_SYNC);
      Arrays.fill(s.get(PLAIN, key), (byte) 0x5a);
      Arrays.fill(s.multiGet(PLAIN, List.of(key)).get(0), (byte) 0x5a);
      try (Scan scan = s.scan(PLAIN, START, null, Direction.FORWARD)) {
        Entry e = scan.next();
        Arrays.fill(e.key(), (byte) 0x5a);
        Arrays.fill(e.value(), (byte) 0x5a);
      }
      assertThat(s.get(PLAIN, key))
          .as("value at %s after the caller changed returned arrays", Bytes.hex(key))
          .isEqualTo(value);
      assertThat(hexKeys(drain(s, PLAIN, START, null, Direction.FORWARD)))
          .containsExactly(Bytes.hex(key));
    }
  }

  /**
   * An array a read returned keeps what it held whatever the caller reads next: get, multiGet, a
   * scan's entries and a snapshot's get each read one key and then another whose value has the same
   * length and other bytes. A backend that hands out one buffer again, overwritten by its next read
   * (a read buffer reused to save an allocation), fails here; {@code readsReturnFreshCopies} cannot
   * see it, because the store itself is intact.
   */
  @Property
  default void readsDoNotReuseReturnedArrays(@ForAll("values") byte[] value) {
    byte[] first = Arrays.copyOf(value, value.length + 1);
    first[value.length] = 1;
    byte[] second = first.clone();
    for (int i = 0; i < second.length; i++) {
      second[i] ^= (byte) 0xff;
    }
    byte[] k1 = {0x10};
    byte[] k2 = {0x20};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k1, first).put(PLAIN, k2, second), Durability.NO_SYNC);
      byte[] got = s.get(PLAIN, k1);
      s.get(PLAIN, k2);
      assertThat(got)
          .as("get of %s, after a get of %s", Bytes.hex(k1), Bytes.hex(k2))
          .isEqualTo(first);
      List<byte[]> both = s.multiGet(PLAIN, List.of(k1, k2));
      s.multiGet(PLAIN, List.of(k2, k2));
      assertThat(both.get(0))
          .as("multiGet of %s, after more multiGets", Bytes.hex(k1))
          .isEqualTo(first);
      assertThat(both.get(1))
          .as("multiGet of %s, after more multiGets", Bytes.hex(k2))
          .isEqualTo(second);
      try (Scan scan = s.scan(PLAIN, k1, null, Direction.FORWARD)) {
        Entry e1 = scan.next();
        Entry e2 = scan.next();
        assertThat(e1.key()).as("a scan's first key, after its second entry").isEqualTo(k1);
        assertThat(e1.value()).as("a scan's first value, after its second entry").isEqualTo(first);
        assertThat(e2.value()).isEqualTo(second);
      }
      try (Snapshot snapshot = s.snapshot()) {
        byte[] fromSnapshot = snapshot.get(PLAIN, k1);
        snapshot.get(PLAIN, k2);
        assertThat(fromSnapshot)
            .as("a snapshot's get of %s, after its get of %s", Bytes.hex(k1), Bytes.hex(k2))
            .isEqualTo(first);
      }
    }
  }

  /**
   * A multiGet answers only its own keys, however many and whatever the multiGet before it asked: a
   * store of up to 1 500 keys with values of decreasing length is read whole, then as many absent
   * keys (all null), then the present keys in reverse order (each value at its own length). A
   * backend that keeps a read buffer between multiGets and reads a slot it did not overwrite (an
   * absent key answered with the last value in its slot, a value read past its end) fails here.
   */
  @Example
  default void consecutiveMultiGetsAnswerOnlyTheirOwnKeys() {
    for (int n : new int[] {1, 7, 300, 1_500}) {
      try (TempDirStore t = openFresh()) {
        Store s = t.store();
        List<byte[]> present = new ArrayList<>(n);
        List<byte[]> absent = new ArrayList<>(n);
        Batch b = new Batch();
        for (int i = 0; i < n; i++) {
          byte[] key = {0x10, (byte) (i >> 8), (byte) i};
          present.add(key);
          absent.add(new byte[] {0x20, (byte) (i >> 8), (byte) i});
          b.put(PLAIN, key, valueOf(i, n));
        }
        s.write(b, Durability.NO_SYNC);
        assertThat(s.multiGet(PLAIN, present)).as("%d present keys", n).doesNotContainNull();
        assertThat(s.multiGet(PLAIN, absent))
            .as("%d absent keys, after as many present ones", n)
            .hasSize(n)
            .containsOnlyNulls();
        List<byte[]> reversed = new ArrayList<>(present);
        Collections.reverse(reversed);
        List<byte[]> got = s.multiGet(PLAIN, reversed);
        for (int i = 0; i < n; i++) {
          int k = n - 1 - i;
          assertThat(got.get(i))
              .as("answer %d of %d, key %s", i, n, Bytes.hex(reversed.get(i)))
              .isEqualTo(valueOf(k, n));
        }
      }
    }
  }

  /**
   * Key {@code i}'s value in {@link #consecutiveMultiGetsAnswerOnlyTheirOwnKeys}: shorter as i
   * grows.
   */
  private static byte[] valueOf(int i, int n) {
    byte[] v = new byte[(n - i) % 700 + 1];
    Arrays.fill(v, (byte) i);
    return v;
  }

  /**
   * A write applies only its own ops, whatever the write before it held: three batches of several
   * ops each (a put and a merge, then a delete of the first put, then other puts) leave the deleted
   * key absent and the counter merged once. A backend that keeps its native batch between writes
   * and does not clear it (the first batch's ops applied again by each later write) fails here.
   */
  @Example
  default void consecutiveWritesApplyOnlyTheirOwnOps() {
    byte[] a = {0x10};
    byte[] b = {0x11};
    byte[] c = {0x12};
    byte[] counter = {0x13};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(
          new Batch().put(PLAIN, a, new byte[] {1}).merge(COUNTERS, counter, 5),
          Durability.NO_SYNC);
      s.write(new Batch().delete(PLAIN, a).put(PLAIN, b, new byte[] {2}), Durability.NO_SYNC);
      s.write(
          new Batch().put(PLAIN, c, new byte[] {3}).put(PLAIN, b, new byte[] {4}),
          Durability.NO_SYNC);
      assertThat(s.get(PLAIN, a)).as("%s, deleted by the second write", Bytes.hex(a)).isNull();
      assertThat(s.get(PLAIN, b))
          .as("%s, put by the second and third writes", Bytes.hex(b))
          .isEqualTo(new byte[] {4});
      assertThat(s.get(PLAIN, c)).isEqualTo(new byte[] {3});
      assertThat(s.counter(COUNTERS, counter))
          .as("counter %s, merged by the first write only", Bytes.hex(counter))
          .isEqualTo(5);
    }
  }

  /**
   * No call keeps an array the caller passed in: after each call returns, the case overwrites every
   * array it gave — the keys of get and multiGet (and the list), the bounds of scan and visit, the
   * keys, values and range bounds of a batch's put, merge, delete and deleteRange, and the same
   * reads on a snapshot — and checks that nothing changes: a scan opened before the overwrite
   * yields the entries of the range it was asked for, in both directions, whether it had read none,
   * one or all of them; values returned stay as they were; and later reads with fresh arrays of the
   * same bytes find what was written. A backend that keeps the caller's bound arrays (a sorted
   * map's sub-map view over them, a cached cursor keyed by them) or its keys (a cache, a batch kept
   * for later) fails here.
   */
  @Example
  default void argumentArraysAreNeverRetained() {
    int n = 40;
    TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.UNSIGNED);
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      // The batch: puts, a merge, a delete and a range delete, every array overwritten after the
      // write.
      List<byte[]> given = new ArrayList<>();
      Batch b = new Batch();
      for (int i = 0; i < n; i++) {
        byte[] key = ownedKey(i);
        byte[] value = ownedValue(i);
        given.add(key);
        given.add(value);
        b.put(PLAIN, key, value);
        model.put(ownedKey(i), ownedValue(i));
      }
      byte[] doomed = ownedKey(n + 1);
      byte[] doomedValue = ownedValue(n + 1);
      byte[] deleted = ownedKey(n + 1);
      byte[] rangeLo = ownedKey(n + 2);
      byte[] rangeHi = ownedKey(n + 4);
      byte[] inRange = ownedKey(n + 3);
      byte[] counter = ownedKey(7);
      b.put(PLAIN, doomed, doomedValue)
          .delete(PLAIN, deleted)
          .put(PLAIN, inRange, ownedValue(n + 3))
          .deleteRange(PLAIN, rangeLo, rangeHi)
          .merge(COUNTERS, counter, 5);
      given.addAll(List.of(doomed, doomedValue, deleted, rangeLo, rangeHi, inRange, counter));
      s.write(b, Durability.NO_SYNC);
      given.forEach(ReadOwnershipCases::overwrite);
      assertSameEntries(
          drain(s, PLAIN, START, null, Direction.FORWARD),
          model,
          "the store after the caller overwrote every array of the batch it wrote");
      assertThat(s.counter(COUNTERS, ownedKey(7)))
          .as("the counter merged by that batch")
          .isEqualTo(5);

      checkReadsKeepNoArgument(s, model, "the live store");
      try (Snapshot snapshot = s.snapshot()) {
        s.write(
            new Batch().put(PLAIN, ownedKey(3), new byte[] {1}).delete(PLAIN, ownedKey(20)),
            Durability.NO_SYNC);
        checkReadsKeepNoArgument(snapshot, model, "a snapshot");
      }
    }
  }

  /**
   * The reads of {@link #argumentArraysAreNeverRetained} on {@code view}, which holds exactly
   * {@code model}.
   */
  private static void checkReadsKeepNoArgument(
      ReadView view, TreeMap<byte[], byte[]> model, String what) {
    // get: the key overwritten after the call; the value returned and a later get are unchanged.
    byte[] key = ownedKey(5);
    byte[] got = view.get(PLAIN, key);
    overwrite(key);
    assertThat(got)
        .as("%s: a get's value after the caller overwrote its key", what)
        .isEqualTo(ownedValue(5));
    assertThat(view.get(PLAIN, ownedKey(5)))
        .as("%s: a later get of the same key", what)
        .isEqualTo(ownedValue(5));

    // multiGet: every key and the list itself overwritten after the call.
    List<byte[]> keys =
        new ArrayList<>(List.of(ownedKey(1), ownedKey(2), ownedKey(200), ownedKey(1)));
    List<byte[]> values = view.multiGet(PLAIN, keys);
    keys.forEach(ReadOwnershipCases::overwrite);
    keys.set(0, ownedKey(3));
    keys.clear();
    List<byte[]> want = Arrays.asList(ownedValue(1), ownedValue(2), null, ownedValue(1));
    assertThat(hex(values))
        .as("%s: a multiGet's answers after the caller overwrote its keys", what)
        .isEqualTo(hex(want));
    assertThat(
            hex(
                view.multiGet(
                    PLAIN, List.of(ownedKey(1), ownedKey(2), ownedKey(200), ownedKey(1)))))
        .as("%s: a later multiGet of the same keys", what)
        .isEqualTo(hex(want));

    // scan: bounds overwritten before the first entry is read, after one, after all; both
    // directions.
    byte[] from = ownedKey(10);
    byte[] to = ownedKey(30);
    Map<byte[], byte[]> forward = model.subMap(from, true, to, false);
    Map<byte[], byte[]> reverse = model.descendingMap().subMap(to, false, from, true);
    for (Direction direction : Direction.values()) {
      Map<byte[], byte[]> range = direction == Direction.FORWARD ? forward : reverse;
      for (int readFirst : new int[] {0, 1, range.size()}) {
        byte[] lo = from.clone();
        byte[] hi = to.clone();
        List<Entry> seen = new ArrayList<>();
        try (Scan scan = view.scan(PLAIN, lo, hi, direction)) {
          while (seen.size() < readFirst && scan.hasNext()) {
            seen.add(scan.next());
          }
          Arrays.fill(lo, (byte) 0xff); // after every key
          Arrays.fill(hi, (byte) 0x00); // before every key
          while (scan.hasNext()) {
            seen.add(scan.next());
          }
        }
        assertSameEntries(
            seen,
            range,
            what
                + ": a "
                + direction
                + " scan whose bounds the caller overwrote after "
                + readFirst
                + " entries");
      }
      // A later scan and a visit of the same range, with fresh arrays, after a visit whose bounds
      // were overwritten.
      byte[] lo = from.clone();
      byte[] hi = to.clone();
      List<Entry> visited = new ArrayList<>();
      view.visit(PLAIN, lo, hi, direction, (k, v) -> visited.add(new Entry(k.clone(), v.clone())));
      overwrite(lo);
      overwrite(hi);
      assertSameEntries(visited, range, what + ": a " + direction + " visit");
      assertSameEntries(
          drain(view, PLAIN, from.clone(), to.clone(), direction),
          range,
          what
              + ": a "
              + direction
              + " scan after the bounds of an earlier visit and scans were overwritten");
      List<Entry> again = new ArrayList<>();
      view.visit(
          PLAIN,
          from.clone(),
          to.clone(),
          direction,
          (k, v) -> again.add(new Entry(k.clone(), v.clone())));
      assertSameEntries(
          again,
          range,
          what
              + ": a "
              + direction
              + " visit after the bounds of earlier reads were"
              + " overwritten");
    }
    assertSameEntries(
        drain(view, PLAIN, START, null, Direction.FORWARD),
        model,
        what + ": the whole family after every read's arrays were overwritten");
  }

  /** Key {@code i} of {@link #argumentArraysAreNeverRetained}: {@code 0x30 i:16 0x01}. */
  private static byte[] ownedKey(int i) {
    return new byte[] {0x30, (byte) (i >> 8), (byte) i, 0x01};
  }

  private static byte[] ownedValue(int i) {
    byte[] v = new byte[8 + i % 5];
    Arrays.fill(v, (byte) (i * 7 + 1));
    return v;
  }

  /**
   * What a caller reusing its buffer does: every byte changed, the array no longer any key of the
   * case.
   */
  private static void overwrite(byte[] array) {
    for (int i = 0; i < array.length; i++) {
      array[i] = (byte) ~array[i];
    }
  }

  /** Values of every length up to a bound (and the empty value) round-trip through put and get. */
  @Property
  default void putThenGetRoundTrips(
      @ForAll("keys") byte[] key, @ForAll("largeValues") byte[] value) {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, value), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).isEqualTo(value);
      s.write(new Batch().put(PLAIN, key, new byte[] {7}), Durability.NO_SYNC);
      assertThat(s.get(PLAIN, key)).as("a second put overwrites").isEqualTo(new byte[] {7});
    }
  }
}
