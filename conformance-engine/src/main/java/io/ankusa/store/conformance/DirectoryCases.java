package io.ankusa.store.conformance;

import static io.ankusa.store.conformance.EngineAssertions.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Snapshot;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.Reporter;

/**
 * The store directory (backends claiming filesInDirectory): the lock by real path, seen from a
 * child process, foreign and non-empty directories refused untouched, read-only opens that refuse
 * writes and change no file.
 *
 * <p>Part of the engine layer: {@link EngineConformance} runs these cases against the backend its
 * subclass names; the method names are the property names the SPI javadoc refers to.
 */
public interface DirectoryCases extends EngineCase {
  /** The reason disk-directory cases do not apply to a backend whose stores live in the JVM. */
  private void requireFilesInDirectory() {
    requireCapability(
        capabilities().filesInDirectory(),
        "filesInDirectory",
        "its stores live in the JVM and the directory is only their name: no file to lock, mark, refuse or keep unchanged");
  }

  /**
   * A second open of an open store's directory through a symlink is refused (the lock is keyed by
   * the real path), read-write and read-only; the first store keeps working, and once it is closed
   * the symlink opens the very same store.
   */
  @Example
  default void secondOpenThroughSymlinkIsRefused(Reporter reporter) throws IOException {
    requireFilesInDirectory();
    byte[] k1 = {0x51};
    byte[] k2 = {0x52};
    Path links = Files.createTempDirectory("ankusa-conformance-links-");
    try (TempDirStore t = openFresh()) {
      Store first = t.store();
      first.write(new Batch().put(PLAIN, k1, new byte[] {1}), Durability.SYNC);
      Path link = Files.createSymbolicLink(links.resolve("store-link"), t.dir());
      StoreException refused =
          openIsRefused(
              "a second open of " + t.dir() + " through the symlink " + link,
              () -> backend().open(link, FAMILIES));
      assertThat(refused)
          .as("the refusal of a second open through a symlink: %s", firstLine(refused))
          .isNotInstanceOf(StoreFormatException.class)
          .isNotInstanceOf(StoreArgumentException.class);
      StoreException refusedReadOnly =
          openIsRefused(
              "a second, read-only open through the symlink " + link,
              () -> backend().openReadOnly(link, FAMILIES));
      first.write(new Batch().put(PLAIN, k2, new byte[] {2}), Durability.SYNC);
      assertThat(first.multiGet(PLAIN, List.of(k1, k2)))
          .as("the first store after the refused opens")
          .extracting(Bytes::hex)
          .containsExactly("01", "02");
      t.closeStore();
      try (Store viaLink = backend().open(link, FAMILIES)) {
        assertThat(viaLink.multiGet(PLAIN, List.of(k1, k2)))
            .as("the store opened through the symlink once closed")
            .extracting(Bytes::hex)
            .containsExactly("01", "02");
      }
      report(
          reporter,
          "secondOpenThroughSymlinkIsRefused",
          "refused " + firstLine(refused) + " | read-only: " + firstLine(refusedReadOnly));
    } finally {
      FileTrees.deleteRecursively(links);
    }
  }

  /**
   * A refused second open leaves the first open's lock in force: after it, another process cannot
   * open the store while the first store is open (and can once it is closed), checked from a child
   * JVM.
   */
  @Example
  default void refusedSecondOpenKeepsTheLock(Reporter reporter) {
    requireFilesInDirectory();
    byte[] k = {0x61};
    try (TempDirStore t = openFresh();
        LockProbe other = LockProbe.start(backend(), t.dir(), FAMILIES)) {
      Store first = t.store();
      first.write(new Batch().put(PLAIN, k, new byte[] {1}), Durability.SYNC);
      StoreException again =
          openIsRefused(
              "a second open of " + t.dir() + " in the same process",
              () -> backend().open(t.dir(), FAMILIES));
      StoreException againReadOnly =
          openIsRefused(
              "a second, read-only open of " + t.dir(),
              () -> backend().openReadOnly(t.dir(), FAMILIES));
      String whileOpen = other.tryOpen();
      assertThat(whileOpen)
          .as(
              "another process opening %s while the first store is open, after this process's"
                  + " second opens were refused (%s; %s)",
              t.dir(), firstLine(again), firstLine(againReadOnly))
          .startsWith("refused");
      first.write(new Batch().put(PLAIN, k, new byte[] {2}), Durability.SYNC);
      assertThat(first.get(PLAIN, k)).as("the first store still writes").isEqualTo(new byte[] {2});
      t.closeStore();
      assertThat(other.tryOpen())
          .as("another process opening %s once the store is closed", t.dir())
          .isEqualTo("opened");
      report(
          reporter,
          "refusedSecondOpenKeepsTheLock",
          "in-process " + firstLine(again) + " | other process: " + whileOpen);
    }
  }

  /**
   * A directory holding another backend's store, a marker that is not one, a marker of a newer
   * format, garbage files, or any other files without a store marker is refused with
   * StoreFormatException naming what was found, read-write (with createIfMissing) and read-only,
   * and no file under it is created, changed or removed.
   */
  @Example
  default void foreignOrNonEmptyDirectoryIsRefusedUntouched(Reporter reporter) throws IOException {
    requireFilesInDirectory();
    String name = backend().provider().name();
    String other = "not-" + name;
    java.util.Random random = new java.util.Random(42);
    byte[] garbage = new byte[4096];
    random.nextBytes(garbage);
    garbage[0] = (byte) 0xff; // never UTF-8
    Map<String, java.util.function.Consumer<Path>> kinds = new LinkedHashMap<>();
    Map<String, String> named = new LinkedHashMap<>();
    kinds.put(
        "another backend's store",
        d -> {
          new StoreMarker(other, 1).write(d);
          write(d.resolve("data.bin"), garbage);
        });
    named.put("another backend's store", other);
    kinds.put("a marker file of garbage", d -> write(d.resolve(StoreMarker.FILE), garbage));
    named.put("a marker file of garbage", StoreMarker.FILE);
    kinds.put("a marker of a newer format", d -> new StoreMarker(name, 999_999).write(d));
    named.put("a marker of a newer format", "999999");
    kinds.put(
        "garbage files without a marker",
        d -> {
          write(d.resolve("garbage-1.bin"), garbage);
          write(d.resolve("garbage-2.bin"), Arrays.copyOf(garbage, 17));
        });
    named.put("garbage files without a marker", "garbage-1.bin");
    kinds.put(
        "a non-empty directory",
        d -> {
          write(d.resolve("notes.txt"), "not a store\n".getBytes(StandardCharsets.UTF_8));
          write(d.resolve("photos").resolve("cat.jpg"), Arrays.copyOf(garbage, 100));
        });
    named.put("a non-empty directory", "notes.txt");
    kinds.put("an empty file", d -> write(d.resolve("empty"), new byte[0]));
    named.put("an empty file", "empty");
    List<String> seen = new ArrayList<>();
    for (Map.Entry<String, java.util.function.Consumer<Path>> kind : kinds.entrySet()) {
      Path dir = Files.createTempDirectory("ankusa-conformance-foreign-");
      try {
        kind.getValue().accept(dir);
        FileChecksums before = FileChecksums.of(dir);
        for (boolean readOnly : new boolean[] {false, true}) {
          String what =
              (readOnly ? "a read-only open" : "an open with createIfMissing")
                  + " of "
                  + kind.getKey();
          StoreException refused =
              openIsRefused(
                  what,
                  () ->
                      readOnly
                          ? backend().openReadOnly(dir, FAMILIES)
                          : backend().open(dir, FAMILIES));
          assertThat(refused)
              .as("%s: %s", what, firstLine(refused))
              .isInstanceOf(StoreFormatException.class)
              .hasMessageContaining(named.get(kind.getKey()));
          assertThat(before.differences(FileChecksums.of(dir)))
              .as("files changed by %s", what)
              .isEmpty();
          if (!readOnly) {
            seen.add(kind.getKey() + " -> " + firstLine(refused));
          }
        }
      } finally {
        FileTrees.deleteRecursively(dir);
      }
    }
    report(reporter, "foreignOrNonEmptyDirectoryIsRefusedUntouched", String.join(" | ", seen));
  }

  private static void write(Path file, byte[] bytes) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A read-only open reads what was written, refuses write, syncWal and reportWriteFailure with
   * StoreArgumentException (nothing applied), and refuses a directory with no store (a missing one
   * is not created); the store then opens read-write as before.
   */
  @Example
  default void readOnlyOpenRefusesWrites(Reporter reporter) {
    byte[] k = {0x41};
    try (TempDirStore t = openFresh()) {
      t.store()
          .write(new Batch().put(PLAIN, k, new byte[] {1}).merge(COUNTERS, k, 5), Durability.SYNC);
      t.closeStore();
      Store ro = t.hold(backend().openReadOnly(t.dir(), FAMILIES));
      assertThat(ro.get(PLAIN, k)).as("get on the read-only store").isEqualTo(new byte[] {1});
      assertThat(ro.counter(COUNTERS, k)).isEqualTo(5);
      Map<String, Runnable> writes = new LinkedHashMap<>();
      writes.put(
          "write",
          () ->
              ro.write(
                  new Batch().put(PLAIN, k, new byte[] {2}).merge(COUNTERS, k, 1),
                  Durability.SYNC));
      writes.put("write of an empty batch", () -> ro.write(new Batch(), Durability.NO_SYNC));
      writes.put("syncWal", ro::syncWal);
      writes.put("reportWriteFailure", () -> ro.reportWriteFailure(new RuntimeException("test")));
      for (Map.Entry<String, Runnable> w : writes.entrySet()) {
        thrownBy(w.getValue()::run, "%s on a read-only store", w.getKey())
            .isInstanceOf(StoreArgumentException.class);
      }
      assertThat(hexEntries(drain(ro, PLAIN, START, null, Direction.FORWARD)))
          .as("after the refused writes")
          .containsExactly(Bytes.hex(k) + "=01");
      assertThat(ro.counter(COUNTERS, k)).isEqualTo(5);
      t.closeStore();
      Store rw = t.reopen();
      rw.write(new Batch().merge(COUNTERS, k, 1), Durability.SYNC);
      assertThat(rw.counter(COUNTERS, k)).as("read-write after the read-only open").isEqualTo(6);
      Path missing = t.dir().resolveSibling(t.dir().getFileName() + "-missing");
      StoreException none =
          openIsRefused(
              "a read-only open of the missing " + missing,
              () -> backend().openReadOnly(missing, FAMILIES));
      assertThat(none).as(firstLine(none)).isInstanceOf(StoreFormatException.class);
      assertThat(Files.exists(missing)).as("the read-only open created %s", missing).isFalse();
      report(
          reporter,
          "readOnlyOpenRefusesWrites",
          writes.size() + " write calls refused; no store: " + firstLine(none));
    }
  }

  /**
   * Opening a store read-only, reading all of it (scans of every family both ways, gets, counters,
   * a snapshot) and closing it changes no file: every file's size and SHA-256 are the same after,
   * and none is created or removed. The store was closed with writes still in the engine's log
   * (synced, not flushed), which a read-write open would write back.
   */
  @Example
  default void readOnlyOpenChangesNoFile(Reporter reporter) {
    requireFilesInDirectory();
    try (TempDirStore t = openFresh()) {
      Store s = t.store();
      TreeMap<byte[], byte[]> model = new TreeMap<>(Bytes.UNSIGNED);
      long counterZero = 0;
      for (int i = 0; i < 300; i++) {
        counterZero += i % 7 == 0 ? i : 0;
        byte[] key = ByteBuffer.allocate(4).putInt(i * 7919).array();
        byte[] value = Arrays.copyOf(key, 40);
        model.put(key, value);
        s.write(
            new Batch().put(PLAIN, key, value).merge(COUNTERS, new byte[] {(byte) (i % 7)}, i),
            i % 2 == 0 ? Durability.NO_SYNC : Durability.SYNC);
      }
      s.syncWal();
      t.closeStore();
      FileChecksums before = FileChecksums.of(t.dir());
      Store ro = t.hold(backend().openReadOnly(t.dir(), FAMILIES));
      assertSameEntries(
          drain(ro, PLAIN, START, null, Direction.FORWARD), model, "read-only forward scan");
      assertThat(drain(ro, PLAIN, START, null, Direction.REVERSE)).hasSize(model.size());
      assertThat(drain(ro, COUNTERS, START, null, Direction.FORWARD)).hasSize(7);
      assertThat(ro.get(PLAIN, model.firstKey())).isEqualTo(model.firstEntry().getValue());
      assertThat(ro.counter(COUNTERS, new byte[] {0}))
          .as("counter 00 read-only")
          .isEqualTo(counterZero);
      if (capabilities().snapshots()) {
        try (Snapshot snap = ro.snapshot()) {
          assertThat(drain(snap, PLAIN, START, null, Direction.FORWARD)).hasSize(model.size());
        }
      }
      t.closeStore();
      FileChecksums after = FileChecksums.of(t.dir());
      assertThat(before.differences(after))
          .as("files changed by a read-only open, full scan and close of %s", t.dir())
          .isEmpty();
      report(
          reporter,
          "readOnlyOpenChangesNoFile",
          before.fileCount() + " files, every size and SHA-256 unchanged");
    }
  }
}
