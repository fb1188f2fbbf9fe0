package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;

/**
 * The metadata format a store records: a number this release does not read is refused, naming the
 * number as recorded (4 bytes, big-endian); a store that records none (the first stores) reads as
 * format 1, values as written, and keeps opening.
 */
class MetadataFormatTest {
  private static final List<FamilySpec> FAMILIES = List.of(FamilySpec.plain("rows"));
  private static final byte[] FORMAT = "format".getBytes(StandardCharsets.UTF_8);
  private static final LmdbStoreProvider PROVIDER = new LmdbStoreProvider();

  @TempDir Path dir;

  private void create(StoreOptions options) {
    try (Store store = PROVIDER.open(dir, options, FAMILIES)) {
      store.write(new Batch().put("rows", new byte[] {1}, new byte[] {42}), Durability.SYNC);
    }
  }

  /**
   * Sets (or, with null, removes) the recorded format, the way another release would have written
   * it.
   */
  private void recordFormat(byte[] format) {
    try (Env<byte[]> env =
        Env.create(ByteArrayProxy.PROXY_BA).setMaxDbs(8).open(dir.toFile(), EnvFlags.MDB_NOTLS)) {
      Dbi<byte[]> meta = env.openDbi(LmdbEnvironment.META_DBI);
      if (format == null) {
        meta.delete(FORMAT);
      } else {
        meta.put(FORMAT, format);
      }
    }
  }

  @Test
  void aFormatThisReleaseDoesNotReadIsRefusedNamingTheNumberRecorded() {
    create(StoreOptions.defaults());
    recordFormat(new byte[] {1, 2, 3, 4});
    for (StoreOptions options : List.of(StoreOptions.defaults(), StoreOptions.readOnlyExisting())) {
      assertThatThrownBy(() -> PROVIDER.open(dir, options, FAMILIES))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining(
              "metadata format " + 0x01020304 + " and this release reads 1 and 2");
    }
    recordFormat(new byte[] {0, 0, 2});
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.defaults(), FAMILIES))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("metadata format -1 ");
  }

  @Test
  void aStoreThatRecordsNoFormatReadsValuesAsWrittenAndKeepsOpening() {
    create(StoreOptions.defaults().with(LmdbSettings.CHECKSUMS, "false"));
    recordFormat(null);
    for (int open = 0; open < 2; open++) {
      try (Store store =
          PROVIDER.open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)) {
        assertThat(store.get("rows", new byte[] {1})).as("open %d", open).containsExactly(42);
      }
    }
    try (Store store = PROVIDER.open(dir, StoreOptions.readOnlyExisting(), FAMILIES)) {
      assertThat(store.get("rows", new byte[] {1})).containsExactly(42);
    }
  }
}
