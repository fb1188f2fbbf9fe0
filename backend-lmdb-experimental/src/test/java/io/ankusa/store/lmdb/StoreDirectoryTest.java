package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.FileChecksums;
import io.ankusa.store.conformance.queue.fixtures.StoreArchive;
import io.ankusa.store.conformance.queue.fixtures.StoreFixtures;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LMDB side of the store directory: a store of an earlier release (no marker, its old {@code
 * ankusa-lmdb.lock}) opens read-only without a file changed (LMDB's {@code lock.mdb} is not even
 * created) and gets the marker at its first read-write open; a real RocksDB store (the packed
 * fixture) is refused with nothing written.
 */
class StoreDirectoryTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("alpha"));
  private final LmdbStoreProvider provider = new LmdbStoreProvider();
  @TempDir Path dir;

  @Test
  void aStoreMadeBeforeMarkersOpensReadOnlyUnchangedThenGetsItsMarker() throws IOException {
    try (Store s = provider.open(dir, StoreOptions.defaults(), FAMILIES)) {
      s.write(new Batch().put("alpha", new byte[] {1}, new byte[] {42}), Durability.SYNC);
    }
    // As an earlier release left it: no marker, no SPI lock file, its own lock file, no reader
    // table.
    Files.delete(dir.resolve(StoreMarker.FILE));
    Files.delete(dir.resolve(io.ankusa.store.kit.directory.DirectoryLock.FILE));
    Files.delete(dir.resolve("lock.mdb"));
    Files.write(dir.resolve("ankusa-lmdb.lock"), new byte[0]);
    FileChecksums before = FileChecksums.of(dir);
    try (Store ro = provider.open(dir, StoreOptions.readOnlyExisting(), FAMILIES)) {
      assertThat(ro.get("alpha", new byte[] {1})).containsExactly(42);
    }
    assertThat(before.differences(FileChecksums.of(dir)))
        .as("files changed by a read-only open")
        .isEmpty();
    try (Store rw = provider.open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)) {
      assertThat(rw.get("alpha", new byte[] {1})).containsExactly(42);
    }
    assertThat(StoreMarker.read(dir))
        .as("the marker after the first read-write open")
        .contains(new StoreMarker("lmdb", LmdbStoreProvider.FORMAT));
  }

  @Test
  void aRocksDbStoreIsRefusedUntouched() {
    StoreArchive.unpackResource(StoreFixtures.V3_RESOURCE, dir);
    FileChecksums before = FileChecksums.of(dir);
    for (StoreOptions options : List.of(StoreOptions.defaults(), StoreOptions.readOnlyExisting())) {
      assertThatThrownBy(() -> provider.open(dir, options, Format3.families()))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("CURRENT")
          .hasMessageContaining("no store marker");
      assertThat(before.differences(FileChecksums.of(dir)))
          .as("files changed by the refused open")
          .isEmpty();
    }
  }
}
