package io.ankusa.store.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.kit.directory.DirectoryLock;
import io.ankusa.store.kit.directory.StoreMarker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite's default damage: where it lands, how much, and that one seed damages the same bytes.
 */
class StoreFileDamageTest {

  @Test
  void invertsRunsInTheMiddleOfTheLargestFileOnlyAndRepeatsForASeed(@TempDir Path root)
      throws IOException {
    Path first = storeIn(root.resolve("first"));
    Path second = storeIn(root.resolve("second"));
    byte[] before = Files.readAllBytes(first.resolve("sub/data.big"));

    StoreFileDamage.Damage damage = StoreFileDamage.invertBytes(first, 42);
    StoreFileDamage.Damage again = StoreFileDamage.invertBytes(second, 42);

    assertThat(damage.file()).isEqualTo(first.resolve("sub/data.big"));
    assertThat(again.offsets())
        .as("the same seed damages the same offsets")
        .isEqualTo(damage.offsets());
    assertThat(Files.readAllBytes(second.resolve("sub/data.big")))
        .isEqualTo(Files.readAllBytes(damage.file()));
    byte[] after = Files.readAllBytes(damage.file());
    int changed = 0;
    for (int i = 0; i < before.length; i++) {
      if (before[i] != after[i]) {
        changed++;
        assertThat(i)
            .as("a damaged byte lies in the middle half")
            .isBetween(before.length / 4, before.length * 3 / 4);
        assertThat(after[i]).isEqualTo((byte) ~before[i]);
      }
    }
    assertThat(changed)
        .as("bytes inverted (runs may overlap)")
        .isPositive()
        .isLessThanOrEqualTo(StoreFileDamage.RUNS * StoreFileDamage.RUN_BYTES);
    for (String untouched : new String[] {StoreMarker.FILE, DirectoryLock.FILE, "small"}) {
      assertThat(Files.readAllBytes(first.resolve(untouched)))
          .as(untouched)
          .isEqualTo(Files.readAllBytes(second.resolve(untouched)));
    }
    assertThat(Files.readAllBytes(first.resolve(StoreMarker.FILE))).isEqualTo(new byte[4096 * 4]);
    assertThat(StoreFileDamage.invertBytes(first, 43).offsets())
        .as("another seed, other offsets")
        .isNotEqualTo(damage.offsets());
  }

  @Test
  void aDirectoryWithOnlyTheSuitesFilesHasNothingToDamage(@TempDir Path dir) throws IOException {
    Files.write(dir.resolve(StoreMarker.FILE), new byte[100_000]);
    Files.write(dir.resolve(DirectoryLock.FILE), new byte[0]);
    assertThatThrownBy(() -> StoreFileDamage.invertBytes(dir, 1))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("no file of the engine's");
  }

  /**
   * A store-like directory: a marker and lock bigger than any data file, a small file and a big
   * one.
   */
  private static Path storeIn(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("sub"));
    Files.write(dir.resolve(StoreMarker.FILE), new byte[4096 * 4]);
    Files.write(dir.resolve(DirectoryLock.FILE), new byte[4096 * 4]);
    byte[] small = new byte[2048];
    byte[] big = new byte[8192];
    Random random = new Random(7);
    random.nextBytes(small);
    random.nextBytes(big);
    Files.write(dir.resolve("small"), small);
    Files.write(dir.resolve("sub/data.big"), big);
    return dir;
  }
}
