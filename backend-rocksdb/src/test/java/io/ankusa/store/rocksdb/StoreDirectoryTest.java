package io.ankusa.store.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.conformance.FileChecksums;
import io.ankusa.store.conformance.queue.fixtures.StoreArchive;
import io.ankusa.store.conformance.queue.fixtures.StoreFixtures;
import io.ankusa.store.kit.directory.StoreMarker;
import io.ankusa.store.layout.Format3;
import io.ankusa.store.layout.Keys;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RocksDB side of the store directory: stores made before the store marker (the packed format-3
 * fixture, a RocksDB store of an earlier release) open read-only without a file changed and get the
 * marker at their first read-write open; an LMDB directory of an earlier release (no marker) is
 * refused with nothing written, never adopted.
 */
class StoreDirectoryTest {
  private final RocksDbStoreProvider provider = new RocksDbStoreProvider();
  @TempDir Path dir;

  @Test
  void aStoreMadeBeforeMarkersOpensReadOnlyUnchangedThenGetsItsMarker() {
    StoreArchive.unpackResource(StoreFixtures.V3_RESOURCE, dir);
    assertThat(dir.resolve(StoreMarker.FILE))
        .as("the packed fixture predates markers")
        .doesNotExist();
    FileChecksums before = FileChecksums.of(dir);
    try (Store ro = provider.open(dir, StoreOptions.readOnlyExisting(), Format3.families())) {
      assertThat(ro.get(Format3.DEFAULT, Keys.formatStamp()))
          .as("the fixture's format stamp, read-only")
          .isNotNull();
    }
    assertThat(before.differences(FileChecksums.of(dir)))
        .as("files changed by a read-only open")
        .isEmpty();
    try (Store rw =
        provider.open(dir, StoreOptions.defaults().createIfMissing(false), Format3.families())) {
      assertThat(rw.get(Format3.DEFAULT, Keys.formatStamp())).isNotNull();
    }
    assertThat(StoreMarker.read(dir))
        .as("the marker after the first read-write open")
        .contains(new StoreMarker(RocksDbStoreProvider.NAME, RocksDbStoreProvider.FORMAT));
    provider.open(dir, StoreOptions.readOnlyExisting(), Format3.families()).close();
  }

  @Test
  void anLmdbDirectoryOfAnEarlierReleaseIsRefusedUntouched() throws IOException {
    ByteBuffer meta = ByteBuffer.allocate(2 * 4096).order(ByteOrder.LITTLE_ENDIAN);
    meta.putInt(16, 0xBEEFC0DE).putInt(20, 1); // an LMDB meta page: magic, version
    Files.write(dir.resolve("data.mdb"), meta.array());
    Files.write(dir.resolve("lock.mdb"), new byte[8192]);
    Files.write(dir.resolve("ankusa-lmdb.lock"), new byte[0]);
    FileChecksums before = FileChecksums.of(dir);
    for (StoreOptions options : List.of(StoreOptions.defaults(), StoreOptions.readOnlyExisting())) {
      assertThatThrownBy(() -> provider.open(dir, options, List.of(FamilySpec.plain("rows"))))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("data.mdb")
          .hasMessageContaining("no store marker");
      assertThat(before.differences(FileChecksums.of(dir)))
          .as("files changed by the refused open")
          .isEmpty();
    }
  }

  /**
   * What counts as a RocksDB store made before markers: a {@code CURRENT} file of at most 256 bytes
   * naming a {@code MANIFEST-<digits>} file that exists. Anything else is a foreign directory,
   * which the provider refuses untouched.
   */
  @Test
  void aStoreBeforeMarkersIsRecognisedByACurrentFileNamingAManifestThatExists() throws IOException {
    assertThat(RocksDbEngine.holdsStore(dir)).as("an empty directory").isFalse();
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000005\n");
    assertThat(RocksDbEngine.holdsStore(dir))
        .as("CURRENT naming a manifest that does not exist")
        .isFalse();
    Files.writeString(dir.resolve("MANIFEST-000005"), "");
    assertThat(RocksDbEngine.holdsStore(dir)).as("CURRENT naming a manifest that exists").isTrue();
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-x\n");
    Files.writeString(dir.resolve("MANIFEST-x"), "");
    assertThat(RocksDbEngine.holdsStore(dir))
        .as("CURRENT naming a file that is no manifest")
        .isFalse();

    String longest = "MANIFEST-" + "0".repeat(245) + "7"; // 255 bytes: the longest file name
    Files.writeString(dir.resolve(longest), "");
    Files.writeString(dir.resolve("CURRENT"), longest + "\n"); // 256 bytes
    assertThat(RocksDbEngine.holdsStore(dir)).as("a CURRENT file of exactly 256 bytes").isTrue();
    Files.writeString(dir.resolve("CURRENT"), longest + "\n\n"); // 257 bytes
    assertThat(RocksDbEngine.holdsStore(dir)).as("a CURRENT file of 257 bytes").isFalse();
    Files.write(dir.resolve("CURRENT"), new byte[] {'M', (byte) 0xff, (byte) 0xfe, '\n'});
    assertThat(RocksDbEngine.holdsStore(dir)).as("a CURRENT file that is not text").isFalse();
  }
}
