package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.ReadView;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreClosedException;
import io.ankusa.store.spi.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.Reporter;

/**
 * What an open store is, on every backend, with or without files in its directory: it names the
 * directory it was opened on, it is the only open store of that directory in the process, and once
 * closed it says so before it judges a call's arguments. (The directory cases check the same lock
 * across processes for the backends that claim their directory.)
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface OpenStoreCases extends EngineCase {
  /** {@code Store.directory()} is the directory the store was opened on (the same file). */
  @Example
  default void directoryIsTheOneOpened(Reporter reporter) throws IOException {
    try (TempDirStore t = openFresh()) {
      Path named = t.store().directory();
      assertThat(named).as("directory() of a store opened on %s", t.dir()).isNotNull();
      boolean same =
          named.toAbsolutePath().normalize().equals(t.dir().toAbsolutePath().normalize())
              || (Files.exists(named) && Files.isSameFile(named, t.dir()));
      assertThat(same)
          .as("directory() %s names the directory the store was opened on, %s", named, t.dir())
          .isTrue();
      report(reporter, "directoryIsTheOneOpened", named.toString());
    }
  }

  /**
   * A second open of a store that is open in this process is refused with a {@link StoreException}
   * (read-write and read-only); the first store keeps reading and writing, and once it is closed
   * the directory opens again with its data.
   */
  @Example
  default void aSecondOpenOfAnOpenStoreIsRefused(Reporter reporter) {
    byte[] k = {0x51};
    try (TempDirStore t = openFresh()) {
      Store first = t.store();
      first.write(new Batch().put(PLAIN, k, new byte[] {1}), Durability.SYNC);
      StoreException again =
          openIsRefused(
              "a second open of " + t.dir() + " while it is open in this process",
              () -> backend().open(t.dir(), FAMILIES));
      StoreException againReadOnly =
          openIsRefused(
              "a second, read-only open of " + t.dir() + " while it is open",
              () -> backend().openReadOnly(t.dir(), FAMILIES));
      first.write(new Batch().put(PLAIN, k, new byte[] {2}), Durability.SYNC);
      assertThat(first.get(PLAIN, k))
          .as("the first store after the refused opens")
          .isEqualTo(new byte[] {2});
      Store reopened = t.reopen();
      assertThat(reopened.multiGet(PLAIN, List.of(k)))
          .as("the store reopened once the first was closed")
          .extracting(Bytes::hex)
          .containsExactly("02");
      report(
          reporter,
          "aSecondOpenOfAnOpenStoreIsRefused",
          firstLine(again) + " | read-only: " + firstLine(againReadOnly));
    }
  }

  /**
   * A closed store answers every call that touches the engine with {@link StoreClosedException},
   * also a call whose arguments it would refuse: a batch naming an unlisted family, a get,
   * multiGet, scan, visit or counter of one (a counter of a plain family too), a reportWriteFailure
   * without a cause; and so does a closed snapshot (when the backend claims snapshots).
   */
  @Example
  default void aClosedStoreSaysSoBeforeJudgingArguments() {
    byte[] k = {1};
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      Snapshot snapshot = capabilities().snapshots() ? s.snapshot() : null;
      if (snapshot != null) {
        snapshot.close();
        assertClosedForAnyArguments("a closed snapshot", snapshot);
      }
      t.closeStore();
      thrownBy(
              () -> s.write(new Batch().put("unlisted", k, k), Durability.SYNC),
              "a write to an unlisted family on a closed store")
          .isInstanceOf(StoreClosedException.class);
      thrownBy(() -> s.reportWriteFailure(null), "reportWriteFailure(null) on a closed store")
          .isInstanceOf(StoreClosedException.class);
      assertClosedForAnyArguments("a closed store", s);
    }
  }

  private static void assertClosedForAnyArguments(String what, ReadView view) {
    byte[] k = {1};
    thrownBy(() -> view.get("unlisted", k), "a get of an unlisted family on %s", what)
        .isInstanceOf(StoreClosedException.class);
    thrownBy(
            () -> view.multiGet("unlisted", List.of(k, new byte[0])),
            "a multiGet of an unlisted family, with an empty key, on %s",
            what)
        .isInstanceOf(StoreClosedException.class);
    thrownBy(
            () -> view.scan("unlisted", new byte[] {2}, k, Direction.FORWARD),
            "a scan of an unlisted family, lo > hi, on %s",
            what)
        .isInstanceOf(StoreClosedException.class);
    thrownBy(
            () -> view.visit("unlisted", k, null, Direction.FORWARD, null),
            "a visit of an unlisted family without a visitor on %s",
            what)
        .isInstanceOf(StoreClosedException.class);
    thrownBy(() -> view.counter(PLAIN, k), "a counter of a plain family on %s", what)
        .isInstanceOf(StoreClosedException.class);
  }
}
