package io.ankusa.store.lmdb;

import io.ankusa.store.spi.StoreCorruptionException;
import io.ankusa.store.spi.StoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * LMDB's two meta pages (pages 0 and 1 of {@code data.mdb}), read with plain Java I/O before the
 * file is mapped, to refuse a truncated data file: LMDB maps the file and would read the missing
 * pages through the map, which kills the process with SIGBUS.
 *
 * <p>Layout (LMDB 0.9, 64-bit little-endian): a page header of 16 bytes, then the meta record:
 * magic {@code 0xBEEFC0DE} (4 bytes) at 16, version (4) at 20, the free-list database record (48
 * bytes, whose first 4 bytes hold the page size) at 40, the main database record (48) at 88, the
 * last used page number (8) at 136, the transaction id (8) at 144. LMDB uses the meta page with the
 * larger transaction id; its last page number tells how long the file must be.
 *
 * <p>Stateless; the caller holds the store's directory lock.
 */
final class MetaPages {
  private static final int MAGIC = 0xBEEFC0DE;
  private static final int MAGIC_AT = 16;
  private static final int PAGE_SIZE_AT = 40;
  private static final int LAST_PAGE_AT = 136;
  private static final int TXN_ID_AT = 144;
  private static final int META_BYTES = TXN_ID_AT + 8;

  private MetaPages() {}

  /**
   * Checks that {@code file} holds every page its newest meta page counts. Files too short to hold a
   * meta page, or whose first page is not an LMDB meta page, are left to LMDB's own checks (it
   * refuses them as not an LMDB file).
   *
   * @throws StoreCorruptionException when the file is shorter than its meta page says, naming the
   *     file, both sizes and what to do
   */
  static void checkNotTruncated(Path file) {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      ByteBuffer first = read(ch, 0);
      if (first == null || first.getInt(MAGIC_AT) != MAGIC) {
        return;
      }
      long pageSize = first.getInt(PAGE_SIZE_AT) & 0xffffffffL;
      if (pageSize < 512 || pageSize > (1 << 16) || Long.bitCount(pageSize) != 1) {
        throw truncated(file, size, "its first meta page records a page size of " + pageSize + " bytes, which LMDB never writes");
      }
      ByteBuffer second = read(ch, pageSize);
      ByteBuffer newest = first;
      if (second == null) {
        throw truncated(file, size, "it ends before its second meta page, which starts at byte " + pageSize);
      }
      if (second.getInt(MAGIC_AT) == MAGIC && second.getLong(TXN_ID_AT) > first.getLong(TXN_ID_AT)) {
        newest = second;
      }
      long lastPage = newest.getLong(LAST_PAGE_AT);
      if (lastPage < 1 || lastPage > Long.MAX_VALUE / pageSize - 1) {
        throw truncated(file, size, "its newest meta page records an impossible last page number " + lastPage);
      }
      long needed = (lastPage + 1) * pageSize;
      if (size < needed) {
        throw truncated(file, size, "its newest meta page (transaction " + newest.getLong(TXN_ID_AT) + ") counts "
            + (lastPage + 1) + " pages of " + pageSize + " bytes, " + needed + " bytes, so "
            + (needed - size) + " bytes are missing");
      }
    } catch (IOException e) {
      throw new StoreException("cannot read the LMDB meta pages of " + file + ": " + e.getMessage()
          + "; check the file's permissions", e);
    }
  }

  /** The meta record of the page at {@code offset}, or null when the file ends before it. */
  private static ByteBuffer read(FileChannel ch, long offset) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(META_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (ch.read(b, offset + b.position()) < 0) {
        return null;
      }
    }
    return b.flip();
  }

  private static StoreCorruptionException truncated(Path file, long size, String why) {
    return new StoreCorruptionException(
        "the LMDB data file " + file + " is damaged: it is " + size + " bytes long and " + why
            + "; the file was truncated (a copy cut short, a full disk, a bad restore). It was not opened:"
            + " restore the store from a backup");
  }
}
