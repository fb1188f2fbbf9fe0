package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreArgumentException;
import io.ankusa.store.spi.StoreException;
import io.ankusa.store.spi.StoreFormatException;
import io.ankusa.store.spi.StoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening refuses what it does not understand, with a message saying why, and changes nothing on
 * disk doing so: unlisted families (a newer release's store), a counters mismatch, no store with
 * createIfMissing=false, another engine's files, a second open, unknown {@code lmdb.*} options.
 */
class FormatRefusalTest {
  private static final FamilySpec A = FamilySpec.plain("alpha");
  private static final FamilySpec B = FamilySpec.counters("beta", 0);
  private static final LmdbStoreProvider PROVIDER = new LmdbStoreProvider();

  @TempDir Path dir;

  private void createWithData(List<FamilySpec> families) {
    try (Store store = PROVIDER.open(dir, StoreOptions.defaults(), families)) {
      store.write(new Batch().put("alpha", new byte[] {1}, new byte[] {42}), Durability.SYNC);
    }
  }

  private void assertIntact(List<FamilySpec> families) {
    try (Store store =
        PROVIDER.open(dir, StoreOptions.defaults().createIfMissing(false), families)) {
      assertThat(store.get("alpha", new byte[] {1})).containsExactly(42);
    }
  }

  @Test
  void unlistedFamilyIsRefusedNamingItAndNothingChanges() {
    createWithData(List.of(A, B));
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.defaults(), List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("beta")
        .hasMessageContaining("newer release");
    assertIntact(List.of(A, B));
  }

  @Test
  void countersMismatchIsRefused() {
    createWithData(List.of(A, B));
    assertThatThrownBy(
            () -> PROVIDER.open(dir, StoreOptions.defaults(), List.of(A, FamilySpec.plain("beta"))))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("beta")
        .hasMessageContaining("counters=true");
    assertThatThrownBy(
            () ->
                PROVIDER.open(
                    dir, StoreOptions.defaults(), List.of(FamilySpec.counters("alpha", 0), B)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("alpha");
    assertIntact(List.of(A, B));
  }

  @Test
  void createIfMissingFalseOnAnEmptyOrMissingDirectoryIsRefused() {
    StoreOptions noCreate = StoreOptions.defaults().createIfMissing(false);
    assertThatThrownBy(() -> PROVIDER.open(dir, noCreate, List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("createIfMissing");
    assertThatThrownBy(() -> PROVIDER.open(dir.resolve("absent"), noCreate, List.of(A)))
        .isInstanceOf(StoreFormatException.class);
    assertThat(dir.resolve("absent")).doesNotExist();
    assertThat(dir.resolve("data.mdb")).doesNotExist();
  }

  @Test
  void createIfMissingFalseDoesNotAddAFamily() {
    createWithData(List.of(A));
    assertThatThrownBy(
            () -> PROVIDER.open(dir, StoreOptions.defaults().createIfMissing(false), List.of(A, B)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("beta");
    assertIntact(List.of(A));
    // with createIfMissing the family is added, and is then part of the store
    PROVIDER.open(dir, StoreOptions.defaults(), List.of(A, B)).close();
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.defaults(), List.of(A)))
        .isInstanceOf(StoreFormatException.class);
  }

  @Test
  void anotherEnginesDirectoryIsRefused() throws IOException {
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000001\n");
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.defaults(), List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("[CURRENT]")
        .hasMessageContaining("no store marker");
    assertThat(dir.resolve("data.mdb")).doesNotExist();
  }

  @Test
  void aDataFileThatIsNotLmdbIsRefused() throws IOException {
    byte[] garbage = new byte[3 * 4096];
    java.util.Arrays.fill(garbage, (byte) 0x5a);
    Files.write(dir.resolve("data.mdb"), garbage);
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.defaults(), List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("[data.mdb]");
    assertThat(Files.readAllBytes(dir.resolve("data.mdb"))).isEqualTo(garbage);
  }

  @Test
  void anEmptyDataFileIsRefusedAndStaysEmpty() throws IOException {
    Files.write(dir.resolve("data.mdb"), new byte[0]);
    for (StoreOptions options : List.of(StoreOptions.defaults(), StoreOptions.readOnlyExisting())) {
      assertThatThrownBy(() -> PROVIDER.open(dir, options, List.of(A)))
          .isInstanceOf(StoreFormatException.class)
          .hasMessageContaining("[data.mdb]");
      assertThat(Files.size(dir.resolve("data.mdb"))).as("data.mdb after a refused open").isZero();
      try (java.util.stream.Stream<Path> files = Files.list(dir)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .as("nothing created")
            .containsExactly("data.mdb");
      }
    }
  }

  @Test
  void aSecondOpenOfTheSameDirectoryIsRefused() {
    try (Store store = PROVIDER.open(dir, StoreOptions.defaults(), List.of(A))) {
      assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.defaults(), List.of(A)))
          .isInstanceOf(StoreException.class)
          .hasMessageContaining("already open");
      assertThat(store.get("alpha", new byte[] {1})).isNull();
    }
    PROVIDER.open(dir, StoreOptions.defaults(), List.of(A)).close(); // the lock went with the close
  }

  @Test
  void unknownLmdbOptionsAreRefusedAndOtherBackendsOptionsIgnored() {
    assertThatThrownBy(
            () -> PROVIDER.open(dir, StoreOptions.defaults().with("lmdb.mapSize", "1"), List.of(A)))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("lmdb.mapSize")
        .hasMessageContaining("lmdb.mapSizeBytes")
        .hasMessageContaining("lmdb.mapSizeMaxBytes");
    assertThatThrownBy(
            () ->
                PROVIDER.open(
                    dir,
                    StoreOptions.defaults()
                        .with("lmdb.mapSizeBytes", "8388608")
                        .with("lmdb.mapSizeMaxBytes", "4194304"),
                    List.of(A)))
        .isInstanceOf(StoreArgumentException.class)
        .hasMessageContaining("lmdb.mapSizeMaxBytes");
    assertThat(dir.resolve("data.mdb")).doesNotExist();
    PROVIDER.open(dir, StoreOptions.defaults().with("rocksdb.whatever", "x"), List.of(A)).close();
  }

  @Test
  void aReadOnlyOpenRefusesUnlistedFamiliesAndCountersMismatchesToo() {
    createWithData(List.of(A, B));
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.readOnlyExisting(), List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("[beta]")
        .hasMessageContaining("newer release");
    assertThatThrownBy(
            () ->
                PROVIDER.open(
                    dir, StoreOptions.readOnlyExisting(), List.of(A, FamilySpec.plain("beta"))))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("counters=true");
    assertIntact(List.of(A, B));
  }

  @Test
  void aStoreWhoseDataFileIsGoneIsRefusedSayingWhy() throws IOException {
    createWithData(List.of(A));
    Files.delete(dir.resolve("data.mdb"));
    assertThatThrownBy(
            () -> PROVIDER.open(dir, StoreOptions.defaults().createIfMissing(false), List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("no data.mdb")
        .hasMessageContaining("createIfMissing is false");
    assertThatThrownBy(() -> PROVIDER.open(dir, StoreOptions.readOnlyExisting(), List.of(A)))
        .isInstanceOf(StoreFormatException.class)
        .hasMessageContaining("no data.mdb")
        .hasMessageContaining("to open read-only");
    assertThat(dir.resolve("data.mdb")).as("no refused open created one").doesNotExist();
  }
}
