package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Op;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Example;
import net.jqwik.api.Reporter;

/**
 * Bad arguments: refused with StoreArgumentException before anything happens, nulls and unknown
 * options included.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface ArgumentCases extends EngineCase {
  /**
   * Bad read arguments are refused: unknown family, empty or oversized key, a range with lo > hi, a
   * null visitor.
   */
  @Example
  default void badReadArgumentsAreRefused() {
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      byte[] tooLong = new byte[Math.min(capabilities().maxKeyBytes(), MAX_OVERSIZED_KEY) + 1];
      thrownBy(
              () -> s.get("no-such-family", new byte[] {1}),
              "s.get(\"no-such-family\", new byte[] {1})")
          .isInstanceOf(StoreArgumentException.class);
      thrownBy(() -> s.get(PLAIN, new byte[0]), "s.get(PLAIN, new byte[0])")
          .isInstanceOf(StoreArgumentException.class);
      if (capabilities().maxKeyBytes() < MAX_OVERSIZED_KEY) {
        thrownBy(() -> s.get(PLAIN, tooLong), "s.get(PLAIN, tooLong)")
            .isInstanceOf(StoreArgumentException.class);
      }
      thrownBy(
              () -> s.multiGet(PLAIN, List.of(new byte[] {1}, new byte[0])),
              "s.multiGet(PLAIN, List.of(new byte[] {1}, new byte[0]))")
          .isInstanceOf(StoreArgumentException.class);
      thrownBy(
              () -> s.scan(PLAIN, new byte[] {2}, new byte[] {1}, Direction.FORWARD),
              "s.scan(PLAIN, new byte[] {2}, new byte[] {1}, Direction.FORWARD)")
          .isInstanceOf(StoreArgumentException.class);
      thrownBy(
              () -> s.scan("no-such-family", START, null, Direction.FORWARD),
              "s.scan(\"no-such-family\", START, null, Direction.FORWARD)")
          .isInstanceOf(StoreArgumentException.class);
      thrownBy(
              () ->
                  s.visit(PLAIN, new byte[] {2}, new byte[] {1}, Direction.FORWARD, (k, v) -> true),
              "a visit of [2, 1)")
          .isInstanceOf(StoreArgumentException.class);
      thrownBy(
              () -> s.visit("no-such-family", START, null, Direction.FORWARD, (k, v) -> true),
              "a visit of an unlisted family")
          .isInstanceOf(StoreArgumentException.class);
      thrownBy(
              () -> s.visit(PLAIN, START, null, Direction.FORWARD, null),
              "a visit with a null visitor")
          .isInstanceOf(StoreArgumentException.class);
    }
  }

  /**
   * A value of exactly {@link io.ankusa.store.spi.Capabilities#maxValueBytes()} bytes is written
   * and read back byte for byte (by get and a scan, and by get after a reopen); a batch holding a
   * value one byte longer is refused whole with StoreArgumentException, and its other put is not
   * applied.
   */
  @Example
  default void valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused(Reporter reporter) {
    int max = capabilities().maxValueBytes();
    byte[] biggest = new byte[max];
    new java.util.Random(max).nextBytes(biggest);
    byte[] key = {(byte) 0x8f, 0x01};
    byte[] beside = {(byte) 0x8f, 0x02};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, key, biggest), Durability.SYNC);
      assertThat(Arrays.equals(s.get(PLAIN, key), biggest))
          .as("get of a value of maxValueBytes = %d", max)
          .isTrue();
      List<Entry> scanned = drain(s, PLAIN, START, null, Direction.FORWARD);
      assertThat(scanned).as("scan of the family holding one value of maxValueBytes").hasSize(1);
      assertThat(Arrays.equals(scanned.get(0).value(), biggest))
          .as("scanned value of maxValueBytes")
          .isTrue();
      scanned = null;
      Store reopened = t.reopen();
      assertThat(Arrays.equals(reopened.get(PLAIN, key), biggest))
          .as("get after reopen of a value of maxValueBytes")
          .isTrue();
      byte[] tooBig = Arrays.copyOf(biggest, max + 1);
      biggest = null;
      thrownBy(
              () ->
                  reopened.write(
                      new Batch().put(PLAIN, beside, new byte[] {1}).put(PLAIN, key, tooBig),
                      Durability.SYNC),
              "a batch holding a value of maxValueBytes + 1 = %d bytes",
              max + 1)
          .isInstanceOf(StoreArgumentException.class);
      assertThat(reopened.get(PLAIN, beside)).as("the other put of the refused batch").isNull();
      report(
          reporter,
          "valueOfMaxValueBytesRoundTripsAndOneMoreIsRefused",
          max + " bytes round-trip, " + (max + 1) + " refused");
    }
  }

  /**
   * Null arguments — family, key, key list, key in a list, bound, direction, batch, durability,
   * cause, and open's directory, options and families — are refused with StoreArgumentException
   * (never a NullPointerException, never a default such as scanning forward), and change nothing.
   */
  @Example
  default void nullArgumentsAreRefused(Reporter reporter) {
    byte[] k = {0x71};
    byte[] absent = {0x72};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      s.write(new Batch().put(PLAIN, k, new byte[] {1}).merge(COUNTERS, k, 3), Durability.SYNC);
      Path unused = t.dir().resolveSibling(t.dir().getFileName() + "-never-created");
      Map<String, Runnable> calls = new LinkedHashMap<>();
      calls.put("get(null family)", () -> s.get(null, k));
      calls.put("get(null key)", () -> s.get(PLAIN, null));
      calls.put("multiGet(null list)", () -> s.multiGet(PLAIN, null));
      calls.put("multiGet with a null key", () -> s.multiGet(PLAIN, Arrays.asList(k, null)));
      calls.put("scan(null family)", () -> s.scan(null, START, null, Direction.FORWARD).close());
      calls.put("scan(null lo)", () -> s.scan(PLAIN, null, null, Direction.FORWARD).close());
      calls.put("scan(null direction)", () -> s.scan(PLAIN, START, null, null).close());
      calls.put("counter(null family)", () -> s.counter(null, k));
      calls.put("counter(null key)", () -> s.counter(COUNTERS, null));
      calls.put("write(null batch)", () -> s.write(null, Durability.SYNC));
      calls.put(
          "write(batch, null durability)", () -> s.write(new Batch().put(PLAIN, absent, k), null));
      calls.put(
          "write of a put with a null value",
          () -> s.write(new Batch().add(new Op.Put(PLAIN, absent, null)), Durability.SYNC));
      calls.put(
          "write of a deleteRange with a null hi",
          () -> s.write(new Batch().add(new Op.DeleteRange(PLAIN, START, null)), Durability.SYNC));
      calls.put("reportWriteFailure(null)", () -> s.reportWriteFailure(null));
      calls.put("Batch.put(null family)", () -> new Batch().put(null, k, k));
      calls.put("Batch.put(null key)", () -> new Batch().put(PLAIN, null, k));
      calls.put("Batch.put(null value)", () -> new Batch().put(PLAIN, k, null));
      calls.put("Batch.add(null)", () -> new Batch().add(null));
      calls.put(
          "open(null directory)",
          () -> backend().provider().open(null, backend().options(), FAMILIES).close());
      calls.put(
          "open(null options)", () -> backend().provider().open(unused, null, FAMILIES).close());
      calls.put(
          "open(null families)",
          () -> backend().provider().open(unused, backend().options(), null).close());
      calls.put(
          "open with a null family",
          () ->
              backend()
                  .provider()
                  .open(unused, backend().options(), Arrays.asList(FamilySpec.plain(PLAIN), null))
                  .close());
      if (capabilities().snapshots()) {
        Snapshot snap = s.snapshot();
        calls.put("snapshot get(null key)", () -> snap.get(PLAIN, null));
        calls.put("snapshot multiGet(null list)", () -> snap.multiGet(PLAIN, null));
        calls.put(
            "snapshot scan(null direction)", () -> snap.scan(PLAIN, START, null, null).close());
        calls.put("snapshot counter(null family)", () -> snap.counter(null, k));
      }
      for (Map.Entry<String, Runnable> call : calls.entrySet()) {
        thrownBy(call.getValue()::run, call.getKey()).isInstanceOf(StoreArgumentException.class);
      }
      assertThat(Files.exists(unused)).as("a refused open created %s", unused).isFalse();
      assertThat(s.get(PLAIN, k)).as("after the refused calls").isEqualTo(new byte[] {1});
      assertThat(s.get(PLAIN, absent)).as("the put of a write with a null durability").isNull();
      assertThat(s.counter(COUNTERS, k)).isEqualTo(3);
      report(
          reporter,
          "nullArgumentsAreRefused",
          calls.size() + " calls refused with StoreArgumentException");
    }
  }

  /**
   * An unknown option of the backend's own ({@code <name>.noSuchOption}) is refused, naming it;
   * nothing is created.
   */
  @Example
  default void unknownOptionOfTheBackendIsRefused(Reporter reporter) {
    String key = backend().provider().name() + ".noSuchOption";
    try (TempDirStore t = TempDirStore.empty(backend(), FAMILIES)) {
      StoreException refused =
          openIsRefused(
              "an open with the option " + key,
              () ->
                  backend().provider().open(t.dir(), backend().options().with(key, "1"), FAMILIES));
      assertThat(refused)
          .as(firstLine(refused))
          .isInstanceOf(StoreArgumentException.class)
          .hasMessageContaining(key);
      assertThat(FileChecksums.of(t.dir()).fileCount())
          .as("files created in %s by the refused open", t.dir())
          .isZero();
      report(reporter, "unknownOptionOfTheBackendIsRefused", firstLine(refused));
    }
  }
}
