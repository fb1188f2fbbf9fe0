package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.ankusa.store.spi.Batch;
import io.ankusa.store.spi.Bytes;
import io.ankusa.store.spi.Direction;
import io.ankusa.store.spi.Durability;
import io.ankusa.store.spi.Entry;
import io.ankusa.store.spi.FamilySpec;
import io.ankusa.store.spi.Scan;
import io.ankusa.store.spi.Store;
import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error LMDB reports in the middle of a scan surfaces as {@link StoreCorruptionException} naming
 * the family, never as a clean end of the range (property {@code scanNeverEndsEarlyOnCorruption}),
 * in both directions; point reads into the damaged subtree throw too, and the rest reads right. The
 * damage is {@link BranchPointerDamage}, structural damage LMDB's own bounds checks see, done while
 * the store is open (damage the check at open cannot have seen); done to a closed store, the open
 * refuses it (damaged keys and values are {@code DamagedDataFileTest}'s).
 */
class CorruptionTest {
  private static final List<FamilySpec> FAMILIES =
      List.of(FamilySpec.plain("rows"), FamilySpec.plain("other"));
  private static final int KEYS = 3000;

  @TempDir Path dir;

  private static byte[] key(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  private static byte[] value(int i) {
    byte[] v = new byte[100];
    ByteBuffer.wrap(v).putInt(i).putInt(~i);
    return v;
  }

  private void write(Store store) {
    for (int from = 0; from < KEYS; from += 500) {
      Batch b = new Batch();
      for (int i = from; i < from + 500; i++) {
        b.put("rows", key(i), value(i)).put("other", key(i), value(i));
      }
      store.write(b, Durability.SYNC);
    }
  }

  @Test
  void aDamagedBranchPageIsRefusedAtOpenNamingFamilyAndPage() {
    try (Store store = new LmdbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES)) {
      write(store);
    }
    long page = BranchPointerDamage.damage(dir, "rows");
    assertThat(
            catchThrowable(
                () ->
                    new LmdbStoreProvider()
                        .open(dir, StoreOptions.defaults().createIfMissing(false), FAMILIES)))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("family 'rows'")
        .hasMessageContaining("past page")
        .hasMessageContaining("restore the store from a backup");
    assertThat(LmdbPages.flags(LmdbPages.read(dir, page)))
        .as("the refused open changed nothing")
        .isEqualTo(PageWalk.P_BRANCH);
  }

  @Test
  void aDamagedSubtreeIsReportedAndNeverReadAsTheEndOfTheRange() {
    try (Store store = new LmdbStoreProvider().open(dir, StoreOptions.defaults(), FAMILIES)) {
      write(store);
      BranchPointerDamage.damage(dir, "rows");
      for (Direction direction : Direction.values()) {
        List<Entry> got = new ArrayList<>();
        Scan scan = store.scan("rows", new byte[0], null, direction);
        Throwable thrown =
            catchThrowable(
                () -> {
                  while (scan.hasNext()) {
                    got.add(scan.next());
                  }
                });
        assertThat(thrown)
            .as("%s scan: %d of %d keys, then", direction, got.size(), KEYS)
            .isInstanceOf(StoreCorruptionException.class)
            .hasMessageContaining("'rows'");
        assertThat(catchThrowable(scan::hasNext))
            .as("and it keeps failing")
            .isInstanceOf(StoreCorruptionException.class);
        scan.close();
        assertThat(got).isNotEmpty().hasSizeLessThan(KEYS);
        for (int n = 0; n < got.size(); n++) {
          int i = direction == Direction.FORWARD ? n : KEYS - 1 - n;
          assertThat(Bytes.hex(got.get(n).key())).isEqualTo(Bytes.hex(key(i)));
          assertThat(got.get(n).value()).isEqualTo(value(i));
        }
      }
      int failed = 0;
      for (int i = 0; i < KEYS; i++) {
        int at = i;
        Throwable t =
            catchThrowable(() -> assertThat(store.get("rows", key(at))).isEqualTo(value(at)));
        if (t != null) {
          assertThat(t)
              .isInstanceOf(StoreCorruptionException.class)
              .hasMessageContaining(Bytes.hex(key(i)));
          failed++;
        }
      }
      assertThat(failed).isPositive().isLessThan(KEYS);
      try (Scan other = store.scan("other", new byte[0], null, Direction.FORWARD)) {
        int n = 0;
        while (other.hasNext()) {
          assertThat(other.next().value()).isEqualTo(value(n++));
        }
        assertThat(n).as("the other family is untouched").isEqualTo(KEYS);
      }
    }
  }
}
