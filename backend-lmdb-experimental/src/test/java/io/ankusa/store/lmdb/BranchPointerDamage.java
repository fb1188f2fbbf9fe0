package io.ankusa.store.lmdb;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.lmdbjava.ByteArrayProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

/**
 * Damages one family of a closed LMDB store in a way LMDB detects: in the family's root page (a branch
 * page), the child pointer of the middle node is overwritten with a page number far past the end of
 * the file, so reaching that subtree fails with {@code MDB_PAGE_NOTFOUND}.
 *
 * <p>Why this kind of damage: LMDB keeps no checksums of its pages. Flipped bytes in keys and values
 * are caught by this backend's value checksums ({@code DamagedDataFileTest}), but most flips in page
 * headers or branch pages go unnoticed or crash the process; only structural damage that LMDB's
 * bounds checks see is reliably reported. This damage checks the part of the contract a binding can
 * get wrong — an error LMDB raises mid-scan must surface as {@code StoreCorruptionException}, never
 * as a clean end of the range.
 *
 * <p>Layout used (LMDB 0.9, 64-bit): page header 16 bytes ({@code pgno:8 pad:2 flags:2 lower:2
 * upper:2}), then {@code lower - 16} bytes of node offsets (2 each); a branch node starts with the
 * child page number as three little-endian 16-bit words {@code lo, hi, flags}. A named database's
 * record in the main database is an {@code MDB_db} of 48 bytes with the root page number at offset 40.
 */
final class BranchPointerDamage {
  private static final int PAGE_HEADER = 16;
  private static final int P_BRANCH = 0x01;
  private static final int MDB_DB_ROOT_OFFSET = 40;

  private BranchPointerDamage() {}

  /**
   * REQUIRES: the store in {@code dir} is closed, and {@code family} holds enough data for its root to
   * be a branch page (a few hundred KiB).
   *
   * @throws IllegalStateException if the family's root is not a branch page
   */
  static void damage(Path dir, String family) {
    long root;
    int pageSize;
    try (Env<byte[]> env = Env.create(ByteArrayProxy.PROXY_BA).setMaxDbs(64).open(dir.toFile(), EnvFlags.MDB_NOTLS)) {
      pageSize = env.stat().pageSize;
      Dbi<byte[]> main = env.openDbi((byte[]) null);
      try (Txn<byte[]> txn = env.txnRead()) {
        byte[] record = main.get(txn, family.getBytes(StandardCharsets.UTF_8));
        if (record == null || record.length < MDB_DB_ROOT_OFFSET + 8) {
          throw new IllegalStateException("no LMDB database record for family '" + family + "' in " + dir);
        }
        root = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN).getLong(MDB_DB_ROOT_OFFSET);
      }
    }
    try (RandomAccessFile file = new RandomAccessFile(dir.resolve(LmdbEnvironment.DATA_FILE).toFile(), "rw")) {
      byte[] page = new byte[pageSize];
      file.seek(root * pageSize);
      file.readFully(page);
      ByteBuffer p = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
      int flags = p.getShort(10) & 0xffff;
      if ((flags & P_BRANCH) == 0) {
        throw new IllegalStateException("the root page " + root + " of family '" + family + "' is not a branch page"
            + " (flags " + Integer.toHexString(flags) + "): write more data before damaging it");
      }
      int keys = ((p.getShort(12) & 0xffff) - PAGE_HEADER) / 2;
      int node = p.getShort(PAGE_HEADER + 2 * (keys / 2)) & 0xffff;
      p.putShort(node + 4, (short) 0x7fff); // the child page number's top word: far past the last page
      file.seek(root * pageSize);
      file.write(page);
      file.getFD().sync();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot damage " + dir.resolve(LmdbEnvironment.DATA_FILE), e);
    }
  }
}
