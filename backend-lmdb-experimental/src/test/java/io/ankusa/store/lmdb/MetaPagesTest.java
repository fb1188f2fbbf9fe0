package io.ankusa.store.lmdb;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ankusa.store.spi.StoreCorruptionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MetaPages} on hand-made meta pages: the page sizes LMDB writes are accepted; the newer meta
 * page (the first on a tie, as LMDB picks) says how long the file must be; the error names the pages
 * counted and the bytes missing; a last page number too large to count in bytes is refused rather than
 * overflowed into a small size.
 */
class MetaPagesTest {
  private static final int MAGIC = 0xBEEFC0DE;

  @TempDir Path dir;

  /** One meta page: magic, page size, last page number and transaction id at LMDB's offsets. */
  private record Meta(int magic, long lastPage, long txnId) {
    static Meta of(long lastPage, long txnId) {
      return new Meta(MAGIC, lastPage, txnId);
    }
  }

  private Path file(int pageSize, Meta first, Meta second, long size) {
    Path f = dir.resolve("data.mdb");
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ch.write(page(pageSize, first), 0);
      ch.write(page(pageSize, second), pageSize);
      ch.truncate(size);
      if (ch.size() < size) {
        ch.write(ByteBuffer.wrap(new byte[] {0}), size - 1);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return f;
  }

  private static ByteBuffer page(int pageSize, Meta m) {
    ByteBuffer b = ByteBuffer.allocate(152).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(16, m.magic()).putInt(40, pageSize).putLong(136, m.lastPage()).putLong(144, m.txnId());
    return b;
  }

  @Test
  void everyPageSizeLmdbWritesIsAcceptedAndOthersAreNot() {
    for (int pageSize : new int[] {512, 4096, 1 << 16}) {
      Path f = file(pageSize, Meta.of(1, 1), Meta.of(1, 2), 2L * pageSize);
      assertThatCode(() -> MetaPages.checkNotTruncated(f)).as("page size %d", pageSize).doesNotThrowAnyException();
    }
    for (int pageSize : new int[] {256, 1 << 17, 3000}) {
      Path f = file(pageSize, Meta.of(1, 1), Meta.of(1, 2), 2L * pageSize);
      assertThatThrownBy(() -> MetaPages.checkNotTruncated(f)).as("page size %d", pageSize)
          .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("page size of " + pageSize);
    }
  }

  @Test
  void aFileOfJustItsTwoMetaPagesIsWholeAndNoMetaPageCountsFewer() {
    Path whole = file(4096, Meta.of(1, 1), Meta.of(1, 2), 8192);
    assertThatCode(() -> MetaPages.checkNotTruncated(whole)).doesNotThrowAnyException();
    Path impossible = file(4096, Meta.of(0, 1), Meta.of(0, 2), 8192);
    assertThatThrownBy(() -> MetaPages.checkNotTruncated(impossible))
        .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("impossible last page number 0");
  }

  @Test
  void theNewerMetaPageSaysHowLongTheFileMustBeAndATieGoesToTheFirst() {
    Path secondNewer = file(4096, Meta.of(1, 5), Meta.of(9, 6), 8192);
    assertThatThrownBy(() -> MetaPages.checkNotTruncated(secondNewer))
        .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("(transaction 6) counts 10 pages");
    Path firstNewer = file(4096, Meta.of(1, 7), Meta.of(9, 6), 8192);
    assertThatCode(() -> MetaPages.checkNotTruncated(firstNewer)).doesNotThrowAnyException();
    Path tie = file(4096, Meta.of(1, 6), Meta.of(9, 6), 8192);
    assertThatCode(() -> MetaPages.checkNotTruncated(tie)).as("LMDB uses the first meta page on a tie")
        .doesNotThrowAnyException();
    Path notAMetaPage = file(4096, Meta.of(1, 5), new Meta(0x12345678, 9, 6), 8192);
    assertThatCode(() -> MetaPages.checkNotTruncated(notAMetaPage)).as("a second page without the magic")
        .doesNotThrowAnyException();
  }

  @Test
  void theErrorCountsThePagesAndTheMissingBytes() {
    Path f = file(4096, Meta.of(9, 2), Meta.of(1, 1), 3 * 4096 + 100);
    assertThatThrownBy(() -> MetaPages.checkNotTruncated(f))
        .isInstanceOf(StoreCorruptionException.class)
        .hasMessageContaining("it is " + (3 * 4096 + 100) + " bytes long")
        .hasMessageContaining("counts 10 pages of 4096 bytes, 40960 bytes, so " + (40960 - 3 * 4096 - 100)
            + " bytes are missing");
  }

  @Test
  void aLastPageNumberTooLargeToCountInBytesIsRefusedNotOverflowed() {
    long largestCountable = Long.MAX_VALUE / 4096 - 1; // (n + 1) * 4096 still fits in a long
    Path countable = file(4096, Meta.of(largestCountable, 2), Meta.of(1, 1), 8192);
    assertThatThrownBy(() -> MetaPages.checkNotTruncated(countable))
        .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("counts " + (largestCountable + 1) + " pages");
    for (long lastPage : new long[] {largestCountable + 1, largestCountable + 2, Long.MAX_VALUE}) {
      Path f = file(4096, Meta.of(lastPage, 2), Meta.of(1, 1), 8192);
      assertThatThrownBy(() -> MetaPages.checkNotTruncated(f)).as("last page %d", lastPage)
          .isInstanceOf(StoreCorruptionException.class).hasMessageContaining("impossible last page number " + lastPage);
    }
  }
}
