package io.ankusa.store.lmdb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * LMDB's record of one B-tree (its {@code MDB_db}, 48 bytes, 64-bit little-endian), as a meta page
 * holds it for the free list and the main database, and as the main database holds it, under the
 * database's name, for every named database (a family, or the metadata database).
 *
 * <p>Layout: {@code md_pad} (4 bytes; in the free list's record, the page size), {@code md_flags}
 * (2), {@code md_depth} (2), then 8 bytes each: branch pages, leaf pages, overflow pages, entries,
 * root page number ({@link #NO_ROOT} for an empty tree).
 *
 * @param pad {@code md_pad}
 * @param flags {@code md_flags}: the database's flags ({@code MDB_INTEGERKEY} 0x08 for the free
 *     list, 0 for every database this backend creates)
 * @param depth levels of the tree, 0 when it is empty
 * @param branchPages branch pages LMDB counted
 * @param leafPages leaf pages LMDB counted
 * @param overflowPages overflow pages LMDB counted
 * @param entries entries LMDB counted
 * @param root the root page number, or {@link #NO_ROOT}
 */
record DbRecord(
    int pad,
    int flags,
    int depth,
    long branchPages,
    long leafPages,
    long overflowPages,
    long entries,
    long root) {
  /** Bytes of one record. */
  static final int BYTES = 48;

  /** LMDB's {@code P_INVALID}: the root of an empty tree. */
  static final long NO_ROOT = -1L;

  /** The record at {@code offset} of {@code bytes}. REQUIRES: {@link #BYTES} bytes there. */
  static DbRecord read(byte[] bytes, int offset) {
    ByteBuffer b = ByteBuffer.wrap(bytes, offset, BYTES).slice().order(ByteOrder.LITTLE_ENDIAN);
    return new DbRecord(
        b.getInt(0),
        b.getShort(4) & 0xffff,
        b.getShort(6) & 0xffff,
        b.getLong(8),
        b.getLong(16),
        b.getLong(24),
        b.getLong(32),
        b.getLong(40));
  }

  boolean empty() {
    return root == NO_ROOT;
  }
}
