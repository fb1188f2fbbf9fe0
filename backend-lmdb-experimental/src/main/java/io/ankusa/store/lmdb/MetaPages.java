package io.ankusa.store.lmdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * LMDB's two meta pages (pages 0 and 1 of {@code data.mdb}), read with plain Java I/O before the
 * file is mapped, and the one of them LMDB will use.
 *
 * <p>Layout (LMDB 0.9, 64-bit little-endian): a page header of 16 bytes ({@code flags} at 10,
 * {@code P_META} = 0x08 on a meta page), then the meta record: magic {@code 0xBEEFC0DE} (4 bytes)
 * at 16, version (4) at 20, the map address (8) at 24, the map size (8) at 32, the free list's
 * {@link DbRecord} at 40 (its first 4 bytes hold the page size), the main database's at 88, the
 * last page number (8) at 136, the transaction id (8) at 144.
 *
 * <p>Which one LMDB uses: it reads both at open and refuses the file unless both carry {@code
 * P_META}, the magic and version 1; the page size is the newer one's; a transaction then uses the
 * meta page with the larger transaction id (the first on a tie), and reaches it as page {@code
 * txnid % 2}, the page a commit of that transaction wrote. So a newer meta page whose id has the
 * other parity is one LMDB did not write, and the other page is never consulted in its stead (LMDB
 * falls back to the older meta page only when asked to open a previous snapshot, which this backend
 * never does).
 *
 * <p>Stateless; the caller holds the store's directory claim.
 */
final class MetaPages {
  static final int MAGIC = 0xBEEFC0DE;
  static final int VERSION = 1;
  static final int P_META = 0x08;
  static final int FLAGS_AT = 10;
  static final int MAGIC_AT = 16;
  static final int VERSION_AT = 20;
  static final int MAP_SIZE_AT = 32;
  static final int FREE_LIST_AT = 40;
  static final int MAIN_AT = FREE_LIST_AT + DbRecord.BYTES;
  static final int LAST_PAGE_AT = 136;
  static final int TXN_ID_AT = 144;
  static final int META_BYTES = TXN_ID_AT + 8;

  /** Page sizes LMDB can have written: powers of two in this range. */
  static final int MIN_PAGE_SIZE = 512;

  static final int MAX_PAGE_SIZE = 1 << 16;

  private MetaPages() {}

  /**
   * The meta page a transaction of LMDB would use.
   *
   * @param index 0 or 1: the page it is
   * @param pageSize bytes per page
   * @param mapSize the map size it records
   * @param freeList the free list's tree
   * @param main the main database's tree (the list of named databases)
   * @param lastPage the last page number it counts; the file may be shorter (pages a transaction
   *     allocated and freed again are counted and never written)
   * @param txnId the transaction that wrote it
   */
  record Meta(
      int index,
      int pageSize,
      long mapSize,
      DbRecord freeList,
      DbRecord main,
      long lastPage,
      long txnId) {}

  /**
   * Reads both meta pages of the file {@code ch} and returns the one LMDB will use; null when
   * neither page 0 nor the page where page 0 says page 1 starts is an LMDB meta page of version 1
   * (no magic, another version, or too short to tell): a file LMDB refuses by itself as not an LMDB
   * file.
   *
   * @throws io.ankusa.store.spi.StoreCorruptionException when the file cannot be what LMDB wrote:
   *     it ends before the second meta page, a meta page lacks its flag, magic or version while the
   *     other has them, the page sizes are impossible or differ, the newer meta page sits on the
   *     page its transaction id does not write to, or its last page number is impossible
   */
  static Meta newest(FileChannel ch, DamagedDataFile damaged) throws IOException {
    ByteBuffer first = read(ch, 0);
    if (first == null) {
      return null;
    }
    int pageSize = first.getInt(FREE_LIST_AT);
    if (!isMeta(first)) {
      ByteBuffer second = validPageSize(pageSize) ? read(ch, pageSize) : null;
      if (second != null && isMeta(second)) {
        checkHeader(damaged, 0, first);
      }
      return null;
    }
    checkPageSize(damaged, 0, pageSize);
    ByteBuffer second = read(ch, pageSize);
    if (second == null) {
      throw damaged.cutShort(
          "it ends before its second meta page, which starts at byte " + pageSize);
    }
    Meta[] metas = {meta(0, first), meta(1, second)};
    checkHeader(damaged, 0, first);
    checkHeader(damaged, 1, second);
    checkPageSize(damaged, 1, metas[1].pageSize());
    if (metas[0].pageSize() != metas[1].pageSize()) {
      throw damaged.because(
          "its meta pages record different page sizes, "
              + metas[0].pageSize()
              + " and "
              + metas[1].pageSize()
              + " bytes, which LMDB never writes");
    }
    Meta newest = metas[Long.compareUnsigned(metas[0].txnId(), metas[1].txnId()) < 0 ? 1 : 0];
    if ((newest.txnId() & 1) != newest.index()) {
      throw damaged.because(
          "its newer meta page, page "
              + newest.index()
              + ", records transaction "
              + Long.toUnsignedString(newest.txnId())
              + ", which LMDB writes to page "
              + (newest.txnId() & 1));
    }
    long pagesInMap = Long.divideUnsigned(newest.mapSize(), newest.pageSize());
    if (newest.lastPage() < 1 || Long.compareUnsigned(newest.lastPage(), pagesInMap) >= 0) {
      throw damaged.because(
          "its newest meta page (transaction "
              + Long.toUnsignedString(newest.txnId())
              + ") records an impossible last page number "
              + Long.toUnsignedString(newest.lastPage())
              + " (its map holds "
              + Long.toUnsignedString(pagesInMap)
              + " pages of "
              + newest.pageSize()
              + " bytes)");
    }
    return newest;
  }

  private static Meta meta(int index, ByteBuffer b) {
    byte[] bytes = b.array();
    DbRecord freeList = DbRecord.read(bytes, FREE_LIST_AT);
    return new Meta(
        index,
        freeList.pad(),
        b.getLong(MAP_SIZE_AT),
        freeList,
        DbRecord.read(bytes, MAIN_AT),
        b.getLong(LAST_PAGE_AT),
        b.getLong(TXN_ID_AT));
  }

  /** Whether {@code b} starts like an LMDB meta page of version 1 (its magic and version). */
  private static boolean isMeta(ByteBuffer b) {
    return b.getInt(MAGIC_AT) == MAGIC && b.getInt(VERSION_AT) == VERSION;
  }

  private static boolean validPageSize(int pageSize) {
    return pageSize >= MIN_PAGE_SIZE
        && pageSize <= MAX_PAGE_SIZE
        && Integer.bitCount(pageSize) == 1;
  }

  /** LMDB's own checks of a meta page at open, made here so a damaged one is reported as damage. */
  private static void checkHeader(DamagedDataFile damaged, int index, ByteBuffer b) {
    if ((b.getShort(FLAGS_AT) & P_META) == 0
        || b.getInt(MAGIC_AT) != MAGIC
        || b.getInt(VERSION_AT) != VERSION) {
      throw damaged.because(
          "its meta page "
              + index
              + " lacks the meta page flag, LMDB's magic number or"
              + " version "
              + VERSION
              + " (flags "
              + Integer.toHexString(b.getShort(FLAGS_AT) & 0xffff)
              + ", magic "
              + Integer.toHexString(b.getInt(MAGIC_AT))
              + ", version "
              + b.getInt(VERSION_AT)
              + ")");
    }
  }

  private static void checkPageSize(DamagedDataFile damaged, int index, int pageSize) {
    if (!validPageSize(pageSize)) {
      throw damaged.because(
          "its meta page "
              + index
              + " records a page size of "
              + pageSize
              + " bytes, which LMDB never writes");
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
}
